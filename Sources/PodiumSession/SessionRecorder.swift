import Foundation
import PodiumEngine
import PodiumRealtime

/// One recording: `Sessions/<YYYY-MM-DD_HHMMSS>_<orchestra>/` with `audio.wav` (and
/// `input.wav`), `events.log`, `orchestras/`, `session.json` and `console.log`.
///
/// Threads: the owner (NRT) starts and stops it; the disk thread writes audio; the driver's
/// supervisor appends to events.log (through the journal); the console router appends to
/// console.log. Each file has one writer.
public final class SessionRecorder: @unchecked Sendable {
    public let directory: URL
    let driver: JackDriver
    private var info: SessionInfo
    private let disk: AudioDiskWriter
    private let tap: RecordTap
    private let events: FileHandle
    private let consoleLog: FileHandle
    private let consoleLock = NSLock()
    private let eventsLock = NSLock()
    private var eventLines = 0
    private let began = ContinuousClock.now
    /// Problems found while recording (disk full…), for the owner to show.
    public var onProblem: (@Sendable (String) -> Void)? {
        didSet {
            guard let report = onProblem else { disk.onFailure = nil; return }
            disk.onFailure = { why in report("recording: \(why); the performance goes on, the recording keeps what was written") }
        }
    }

    /// Creates the session directory and starts recording at the audio thread's next callback.
    /// Throws `SessionError.cannotRecord` with the reason (unwritable, no space); nothing of
    /// the performance changes then.
    // Thread: NRT (owner)
    public init(driver: JackDriver, sessions root: URL, podiumVersion: String, minimumFreeBytes: Int64? = nil) throws {
        self.driver = driver
        let facts = driver.sessionFacts
        let name = SessionRecorder.orchestraName(driver.source)
        let stamp = SessionRecorder.stamp(Date())
        let fm = FileManager.default
        do { try fm.createDirectory(at: root, withIntermediateDirectories: true) } catch {
            throw SessionError.cannotRecord("\(root.path) cannot be created: \(SessionRecorder.reason(error))")
        }
        guard fm.isWritableFile(atPath: root.path) else { throw SessionError.cannotRecord("\(root.path) is not writable") }
        // A recording that cannot hold a minute of audio is refused up front.
        let bytesPerSecond = Int64(facts.sampleRate * (facts.outputs + facts.inputs) * 4)
        let needed = minimumFreeBytes ?? bytesPerSecond * 60
        if let free = SessionRecorder.freeBytes(root.path), free < needed {
            throw SessionError.cannotRecord("only \(free / 1024) KiB free on \(root.path); a minute of this orchestra's audio needs \(needed / 1024) KiB")
        }
        var dir = root.appendingPathComponent("\(stamp)_\(name)")
        var n = 2
        while fm.fileExists(atPath: dir.path) { dir = root.appendingPathComponent("\(stamp)_\(name)-\(n)"); n += 1 }
        directory = dir
        do {
            try fm.createDirectory(at: dir.appendingPathComponent("orchestras"), withIntermediateDirectories: true)
            let source = try SessionRecorder.saveSource(driver.source, in: dir)
            info = SessionInfo(orchestra: name, source: source, sampleRate: facts.sampleRate, ksmps: facts.ksmps,
                               outputs: facts.outputs, inputs: facts.inputs, seed: facts.seed, podiumVersion: podiumVersion,
                               csoundVersion: Engine.csoundVersion, started: ISO8601DateFormatter().string(from: Date()),
                               startCycle: facts.cycle, status: "recording", pid: getpid(), channels: facts.channels)
            info.outputLimit = facts.outputLimit
            if facts.seed == nil { info.notes.append("no seed: random opcodes differ on replay") }
            try info.write(to: dir)
            fm.createFile(atPath: dir.appendingPathComponent("events.log").path, contents: nil)
            fm.createFile(atPath: dir.appendingPathComponent("console.log").path, contents: nil)
            events = try FileHandle(forWritingTo: dir.appendingPathComponent("events.log"))
            consoleLog = try FileHandle(forWritingTo: dir.appendingPathComponent("console.log"))
            tap = RecordTap(outputs: facts.outputs, inputs: facts.inputs, sampleRate: facts.sampleRate)
            disk = try AudioDiskWriter(tap: tap, directory: dir)
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError.cannotRecord("\(dir.path): \(SessionRecorder.reason(error))")
        }
        events.write(Data("# podium events.log 1: <k-cycle> <record> … (see README, Sessions)\n".utf8))
        // Everything since the engine started, then each new batch as it is applied.
        let (history, texts) = driver.journal.follow { [weak self] lines, texts in self?.append(lines, texts) }
        saveOrchestras(texts)
        appendText(history)
        info.startSegment = history.filter { $0.split(separator: " ").dropFirst().first == "engine" }.count - 1
        disk.start()
        do {
            info.startCycle = try driver.feed(tap)
        } catch {
            _ = driver.journal.follow(nil)
            disk.finish()
            throw SessionError.cannotRecord("\(dir.path): \(error)")
        }
        try? info.write(to: dir)
    }

    /// Stops: the audio thread lets go of the ring, the disk thread writes the rest, the files
    /// close, and session.json gets the duration. Returns a one-line summary.
    // Thread: NRT (owner)
    @discardableResult
    public func stop() -> String {
        do {
            try driver.feed(nil)
        } catch {
            // The audio thread may still write into the tap: it is kept alive for good rather
            // than freed under the callback; the recording ends here all the same.
            _ = Unmanaged.passRetained(tap)
            info.notes.append("the audio thread did not let go of the recording in time: \(error)")
        }
        _ = driver.journal.follow(nil)
        disk.finish()
        try? events.synchronize()
        try? events.close()
        consoleLock.withLock { try? consoleLog.close() }
        info.frames = disk.frames
        info.duration = Double(disk.frames) / Double(info.sampleRate)
        info.overruns = tap.overruns + UInt64(disk.gapCycles)
        info.status = "complete"
        if disk.gapCycles > 0 { info.notes.append("\(disk.gapCycles) k-cycles lost to disk overruns (silence in audio.wav)") }
        if let failure = disk.failure { info.notes.append("recording stopped early: \(failure)") }
        try? info.write(to: directory)
        return String(format: "recorded %.1f s to %@ (%d events, %llu overruns)", info.duration ?? 0, directory.path,
                      eventsLock.withLock { eventLines }, info.overruns)
    }

    /// After a fatal signal: the disk thread writes what the ring holds and closes audio.wav,
    /// events.log is synced and closed, session.json says "crashed", which signal, and the
    /// inputs that preceded it. The audio thread is not asked to let go of the ring (it may be
    /// the thread that faulted). Returns a one-line summary.
    // Thread: the crash guard's
    public func saveAfterCrash(signal: String, inputs: [String]) -> String {
        disk.finish()
        eventsLock.withLock {
            try? events.synchronize()
            try? events.close()
        }
        consoleLock.withLock {
            try? consoleLog.write(contentsOf: Data("podium crashed (\(signal)); the last inputs:\n\(inputs.map { "  " + $0 }.joined(separator: "\n"))\n".utf8))
            try? consoleLog.synchronize()
        }
        info.frames = disk.frames
        info.duration = Double(disk.frames) / Double(info.sampleRate)
        info.status = "crashed"
        info.notes.append("podium crashed (\(signal)) after: " + (inputs.isEmpty ? "no input" : inputs.suffix(5).joined(separator: " | ")))
        try? info.write(to: directory)
        return String(format: "the session is saved: %.1f s in %@ (podium replay renders it)", info.duration ?? 0, directory.path)
    }

    /// A console line for console.log.
    // Thread: the console router
    public func console(_ lines: [ConsoleLine]) {
        let elapsed = ContinuousClock.now - began
        let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        let stamp = "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
        var text = ""
        for line in lines { text += "\(stamp) \(SessionRecorder.levelName(line.level)) \(line.text)\n" }
        consoleLock.withLock { try? consoleLog.write(contentsOf: Data(text.utf8)) }
    }

    // MARK: internals

    // Thread: the driver's supervisor (journal observer)
    private func append(_ lines: [JournalLine], _ texts: [String: String]) {
        saveOrchestras(texts)
        appendText(lines.map(\.text))
    }

    private func appendText(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        eventsLock.withLock {
            // One write per batch: on a crash the file ends at a whole batch, or mid-line (replay
            // ignores a last line without its newline).
            try? events.write(contentsOf: Data((lines.joined(separator: "\n") + "\n").utf8))
            eventLines += lines.count
        }
    }

    private func saveOrchestras(_ texts: [String: String]) {
        for (hash, text) in texts {
            let url = directory.appendingPathComponent("orchestras/\(hash).orc")
            if !FileManager.default.fileExists(atPath: url.path) { try? text.write(to: url, atomically: true, encoding: .utf8) }
        }
    }

    static func saveSource(_ source: EngineSource, in dir: URL) throws -> SessionInfo.Source {
        func save(_ text: String, _ ext: String) throws -> String {
            let rel = "orchestras/\(JournalLine.hash(text)).\(ext)"
            try text.write(to: dir.appendingPathComponent(rel), atomically: true, encoding: .utf8)
            return rel
        }
        func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.path }
        switch source {
        case let .csd(path):
            return .init(kind: "csd", file: try save(try Engine.read(path), "csd"), score: nil, original: absolute(path))
        case let .orchestra(path, score):
            return .init(kind: "orc", file: try save(try Engine.read(path), "orc"),
                         score: try score.map { try save(try Engine.read($0), "sco") }, original: absolute(path))
        case let .text(orchestra, score, name):
            return .init(kind: "orc", file: try save(orchestra, "orc"), score: try score.map { try save($0, "sco") }, original: name)
        }
    }

    static func orchestraName(_ source: EngineSource) -> String {
        let raw: String
        switch source {
        case let .csd(path), let .orchestra(path, _): raw = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        case let .text(_, _, name): raw = (name as NSString).deletingPathExtension
        }
        let safe = String(raw.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" ? $0 : "_" })
        return safe.isEmpty ? "orchestra" : safe
    }

    static func stamp(_ date: Date) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "yyyy-MM-dd_HHmmss"
        return f.string(from: date)
    }

    static func levelName(_ level: ConsoleLine.Level) -> String {
        switch level {
        case .debug: return "debug  "
        case .info: return "info   "
        case .orchestra: return "orch   "
        case .warning: return "warning"
        case .error: return "error  "
        }
    }

    static func freeBytes(_ path: String) -> Int64? {
        var s = statvfs()
        guard statvfs(path, &s) == 0 else { return nil }
        return Int64(s.f_bavail) * Int64(s.f_frsize)
    }

    static func reason(_ error: Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return ns.localizedDescription
    }
}
