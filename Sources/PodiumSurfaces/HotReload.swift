import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime

/// Recompiles an orchestra file when it is saved: only what changed, parsed on this thread and
/// merged by the audio thread; a broken edit changes nothing and reports `FILE:LINE: message`.
public final class HotReload: @unchecked Sendable {
    public let path: String
    let driver: JackDriver
    private var current: String
    private var watcher: FileWatcher?
    private let lock = NSLock()

    public enum Outcome: Sendable, Equatable {
        case unchanged
        /// Compiled; the marker arrives as `Applied.compileMerged` when the audio thread merged it.
        case compiled(marker: UInt64, instruments: [String])
        case failed(String)
    }

    /// Called with each outcome (on the watcher's thread).
    public var onOutcome: (@Sendable (Outcome) -> Void)?

    public init(path: String, driver: JackDriver) throws {
        self.path = path
        self.driver = driver
        current = try HotReload.orchestra(at: path)
    }

    /// The orchestra text of a file, with a CSD's `<CsInstruments>` placed at its own lines.
    static func orchestra(at path: String) throws -> String { try CSDSections.orchestra(ofFile: path) }

    public func watch() throws {
        watcher = try FileWatcher(path: path) { [weak self] in
            guard let self else { return }
            let outcome = self.reload()
            self.onOutcome?(outcome)
        }
    }

    public func stop() { watcher?.stop() }

    /// Compiles what changed since the last good version.
    public func reload() -> Outcome {
        lock.withLock {
            let new: String
            do { new = try HotReload.orchestra(at: path) } catch { return .failed("\(error)") }
            // The whole file first: an editor saving mid-typing leaves a comment or string open.
            do { try OrchestraCheck.lexical(new, source: path) } catch { return .failed("\(error)") }
            guard let changes = OrchestraDiff.changes(from: current, to: new) else { return .unchanged }
            do {
                let marker = try driver.compile(changes, source: path)
                current = new
                let t = InstrumentTable.declared(in: changes)
                return .compiled(marker: marker, instruments: t.numbers.sorted().map(String.init) + t.names)
            } catch {
                return .failed("\(error)")
            }
        }
    }
}
