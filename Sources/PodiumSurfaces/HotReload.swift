import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime

/// Recompiles an orchestra file when it is saved: only what changed, checked and compiled by
/// the compile queue (the watcher's thread returns at once) and merged by the audio thread; a
/// broken edit changes nothing and reports `FILE:LINE: message`. Saves that come while a
/// compile waits are read after its answer, against the version it made current.
public final class HotReload: @unchecked Sendable {
    public let path: String
    let driver: JackDriver
    /// The file's own order: one reload after another (SurfaceLane).
    let lane: SurfaceLane
    /// The last version that compiled, and the last text a save was tried with (under the lane's lock).
    private var current: String
    private var tried: String?
    private var watcher: FileWatcher?

    public enum Outcome: Sendable, Equatable {
        case unchanged
        /// Compiled; the marker arrives as `Applied.compileMerged` when the audio thread merged it.
        case compiled(marker: UInt64, instruments: [String])
        case failed(String)
    }

    /// Called with each outcome of a save (on the compile thread, or the watcher's).
    public var onOutcome: (@Sendable (Outcome) -> Void)?

    public init(path: String, driver: JackDriver) throws {
        self.path = path
        self.driver = driver
        lane = SurfaceLane(driver: driver)
        current = try HotReload.orchestra(at: path)
    }

    /// The orchestra text of a file, with a CSD's `<CsInstruments>` placed at its own lines.
    static func orchestra(at path: String) throws -> String { try CSDSections.orchestra(ofFile: path) }

    public func watch() throws {
        watcher = try FileWatcher(path: path) { [weak self] in
            guard let self else { return }
            self.reload(coalesce: true) { outcome in self.onOutcome?(outcome) }
        }
    }

    public func stop() { watcher?.stop() }

    /// Compiles what changed since the last good version; `then` gets the outcome once the
    /// audio thread merged it or it was refused. `coalesce` (a save): a text already tried —
    /// an editor's second close, a save made while its compile waited — is `.unchanged`.
    // Thread: NRT (the watcher's, or a surface's: returns at once)
    public func reload(coalesce: Bool = false, then: @escaping @Sendable (Outcome) -> Void) {
        lane.run { [self] in
            let new: String
            do { new = try HotReload.orchestra(at: path) } catch { return then(.failed("\(error)")) }
            if coalesce && new == tried { return then(.unchanged) }
            tried = new
            // The whole file first: an editor saving mid-typing leaves a comment or string open.
            do { try OrchestraCheck.lexical(new, source: path) } catch { return then(.failed("\(error)")) }
            guard let changes = OrchestraDiff.changes(from: current, to: new) else { return then(.unchanged) }
            lane.compile(changes, source: path) { [self] result in
                switch result {
                case let .success(marker):
                    current = new
                    let t = InstrumentTable.declared(in: changes)
                    then(.compiled(marker: marker, instruments: t.numbers.sorted().map(String.init) + t.names))
                case let .failure(error):
                    then(.failed("\(error)"))
                }
            }
        }
    }

    /// `reload`, waiting for its outcome (tests and tools; never a surface's thread).
    public func reloadAndWait() -> Outcome {
        let box = OutcomeBox()
        reload { box.set($0) }
        return box.wait()
    }

    private final class OutcomeBox: @unchecked Sendable {
        private var outcome: Outcome?
        private let done = DispatchSemaphore(value: 0)
        func set(_ o: Outcome) { outcome = o; done.signal() }
        func wait() -> Outcome { done.wait(); return outcome! }
    }
}
