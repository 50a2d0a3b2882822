import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime

/// One performance's session: `Sessions/<YYYY-MM-DD_HHMMSS>_<orchestra>/` with `events.log`
/// (streamed by a `JournalWriter` from the engine's start), `orchestras/`, `session.json`,
/// `console.log`, and the audio takes recorded into it (`audio.wav`/`input.wav`, then
/// `audio-2.wav`/`input-2.wav`, …).
///
/// Threads: the owner (NRT, under `Recording`'s lock) makes it, starts and stops takes and
/// finishes it; `podium-journal` writes events.log and orchestras/; each take's disk thread
/// writes its audio; the console router appends to console.log. Each file has one writer.
public final class Session: @unchecked Sendable {
    public let directory: URL
    let root: URL
    let driver: JackDriver
    private let infoLock = NSLock()
    private var info: SessionInfo
    private let writer: JournalWriter
    private let consoleLog: FileHandle
    private let consoleLock = NSLock()
    private let began = ContinuousClock.now
    private var take: AudioTake?
    /// Problems found while recording audio (disk full…), for the owner to show.
    public var onProblem: (@Sendable (String) -> Void)?

    /// Creates the session directory and starts streaming the journal into it. With
    /// `continuing`, events.log and orchestras/ start as that earlier session's (of the same
    /// performance), so this one too replays from the engine's start. Throws
    /// `SessionError.cannotRecord` with the reason (unwritable; the journal was discarded).
    // Thread: NRT (owner)
    public init(driver: JackDriver, sessions root: URL, podiumVersion: String, continuing previous: URL? = nil) throws {
        self.driver = driver
        self.root = root
        guard driver.journal.isComplete else {
            throw SessionError.cannotRecord("this performance keeps no journal (--no-session): a session made now could not replay")
        }
        let facts = driver.sessionFacts
        let name = SessionFiles.orchestraName(driver.source)
        let fm = FileManager.default
        do { try fm.createDirectory(at: root, withIntermediateDirectories: true) } catch {
            throw SessionError.cannotRecord("\(root.path) cannot be created: \(SessionFiles.reason(error))")
        }
        guard fm.isWritableFile(atPath: root.path) else { throw SessionError.cannotRecord("\(root.path) is not writable") }
        let stamp = SessionFiles.stamp(Date())
        // mkdir, which fails when the directory exists: two performances started in the same second
        // with the same orchestra (parts on one machine) each get their own.
        var dir = root.appendingPathComponent("\(stamp)_\(name)")
        var n = 2
        while mkdir(dir.path, 0o755) != 0 {
            guard errno == EEXIST else { throw SessionError.cannotRecord("\(dir.path) cannot be created: \(String(cString: strerror(errno)))") }
            dir = root.appendingPathComponent("\(stamp)_\(name)-\(n)")
            n += 1
        }
        directory = dir
        let events = dir.appendingPathComponent("events.log")
        var tally = JournalTally(ksmps: facts.ksmps)
        do {
            try fm.createDirectory(at: dir.appendingPathComponent("orchestras"), withIntermediateDirectories: true)
            let source = try SessionFiles.saveSource(driver.source, in: dir)
            info = SessionInfo(orchestra: name, source: source, sampleRate: facts.sampleRate, ksmps: facts.ksmps,
                               outputs: facts.outputs, inputs: facts.inputs, seed: facts.seed, podiumVersion: podiumVersion,
                               csoundVersion: Engine.csoundVersion, started: ISO8601DateFormatter().string(from: Date()),
                               startCycle: 0, status: "recording", pid: getpid(), channels: facts.channels)
            info.outputLimit = facts.outputLimit
            if facts.sampler { info.sampler = true }
            if facts.inputs > 0 { info.inputConnected = false }
            if facts.seed == nil { info.notes.append("no seed: random opcodes differ on replay") }
            if let previous {
                // The same performance's journal so far, from disk (it is complete there).
                let old = previous.appendingPathComponent("orchestras")
                for file in (try? fm.contentsOfDirectory(atPath: old.path)) ?? [] where file.hasSuffix(".orc") {
                    let to = dir.appendingPathComponent("orchestras/\(file)")
                    if !fm.fileExists(atPath: to.path) { try fm.copyItem(at: old.appendingPathComponent(file), to: to) }
                }
                try fm.copyItem(at: previous.appendingPathComponent("events.log"), to: events)
                tally = JournalTally.read(events, ksmps: facts.ksmps)?.tally ?? tally
            } else {
                try Data("# podium events.log 1: <k-cycle> <record> … (see README, Sessions)\n".utf8).write(to: events)
            }
            try info.write(to: dir)
            try Data().write(to: dir.appendingPathComponent("console.log"))
            consoleLog = try FileHandle(forWritingTo: dir.appendingPathComponent("console.log"))
            let handle = try FileHandle(forWritingTo: events)
            try handle.seekToEnd()
            writer = JournalWriter(journal: driver.journal, directory: dir, events: handle, tally: tally)
        } catch let error as SessionError {
            throw error
        } catch {
            throw SessionError.cannotRecord("\(dir.path): \(SessionFiles.reason(error))")
        }
        writer.afterWrite = { [weak self] in self?.noteInput() }
        writer.onFailure = { [weak self] why in
            self?.onProblem?("session: \(why); the performance goes on, events.log keeps what was written (replay stops there)")
        }
        guard writer.start() else {
            try? fm.removeItem(at: dir)
            throw SessionError.cannotRecord("this performance's journal was discarded: a session made now could not replay")
        }
    }

    /// Whether an audio take is being recorded.
    public var isRecordingAudio: Bool { take != nil }

    /// Starts an audio take at the audio thread's next callback; returns the session's
    /// directory. Throws `SessionError.cannotRecord` (no space for a minute of audio, …);
    /// the journal goes on.
    // Thread: NRT (owner)
    public func startTake(minimumFreeBytes: Int64? = nil) throws -> String {
        if take != nil { return directory.path }
        let (sampleRate, outputs, inputs, number) = infoLock.withLock { (info.sampleRate, info.outputs, info.inputs, (info.takes?.count ?? 0) + 1) }
        let bytesPerSecond = Int64(sampleRate * (outputs + inputs) * 4)
        let needed = minimumFreeBytes ?? bytesPerSecond * 60
        if let free = SessionFiles.freeBytes(root.path), free < needed {
            throw SessionError.cannotRecord("only \(free / 1024) KiB free on \(root.path); a minute of this orchestra's audio needs \(needed / 1024) KiB")
        }
        let audio = number == 1 ? "audio.wav" : "audio-\(number).wav"
        let input = inputs > 0 ? (number == 1 ? "input.wav" : "input-\(number).wav") : nil
        let tap = RecordTap(outputs: outputs, inputs: inputs, sampleRate: sampleRate)
        let disk: AudioDiskWriter
        do { disk = try AudioDiskWriter(tap: tap, directory: directory, audio: audio, input: input ?? "input.wav") } catch {
            throw SessionError.cannotRecord("\(directory.path): \(SessionFiles.reason(error))")
        }
        if let report = onProblem {
            disk.onFailure = { why in report("recording: \(why); the performance goes on, the recording keeps what was written") }
        }
        // Which engine the take starts in: every line so far has been taken from the journal.
        let segment = writer.catchUp().engines - 1
        disk.start()
        let cycle: Int64
        do { cycle = try driver.feed(tap) } catch {
            disk.finish()
            throw SessionError.cannotRecord("\(directory.path): \(error)")
        }
        let t = SessionInfo.Take(audio: audio, input: input, startCycle: cycle, startSegment: segment)
        infoLock.withLock {
            info.takes = (info.takes ?? []) + [t]
            if number == 1 { info.startCycle = cycle; info.startSegment = segment }
            try? info.write(to: directory)
        }
        take = AudioTake(number: number, tap: tap, disk: disk)
        return directory.path
    }

    /// Stops the audio take: the audio thread lets go of the ring, the disk thread writes the
    /// rest and closes the files. Returns a one-line summary (nil: no take was running).
    // Thread: NRT (owner)
    public func stopTake() -> String? {
        guard let take else { return nil }
        self.take = nil
        var notes: [String] = []
        do {
            try driver.feed(nil)
        } catch {
            // The audio thread may still write into the tap: it is kept alive for good rather
            // than freed under the callback; the recording ends here all the same.
            _ = Unmanaged.passRetained(take.tap)
            notes.append("the audio thread did not let go of the recording in time: \(error)")
        }
        take.disk.finish()
        let frames = take.disk.frames
        let overruns = take.tap.overruns + UInt64(take.disk.gapCycles)
        if take.disk.gapCycles > 0 { notes.append("\(take.disk.gapCycles) k-cycles lost to disk overruns (silence in the take)") }
        let rate = Double(take.tap.sampleRate)
        let performed = take.disk.failure != nil ? max(frames, take.disk.performedFrames) : nil
        if let failure = take.disk.failure {
            notes.append(String(format: "recording stopped early: %@; the audio holds %.1f s of the take's %.1f s, replay renders all of it from the journal",
                                failure, Double(frames) / rate, Double(performed ?? frames) / rate))
        }
        let seconds = Double(frames) / rate
        infoLock.withLock {
            info.takes?[take.number - 1].frames = frames
            info.takes?[take.number - 1].performedFrames = performed
            info.takes?[take.number - 1].overruns = overruns
            if take.number == 1 {
                info.frames = frames
                info.duration = seconds
                info.overruns = overruns
            }
            info.notes += notes.map { take.number == 1 ? $0 : "take \(take.number): \($0)" }
            try? info.write(to: directory)
        }
        let which = take.number == 1 ? "" : " (take \(take.number): audio-\(take.number).wav)"
        let cut = performed.map { String(format: " of a %.1f s take: its audio stopped early, replay renders the rest from the journal", Double($0) / rate) } ?? ""
        return String(format: "recorded %.1f s%@ to %@%@ (%d events so far, %llu overruns)", seconds, cut, directory.path, which,
                      writer.tally.events, overruns)
    }

    /// The end of the performance (or of a library's recording): the take stops, the journal's
    /// last lines are written and events.log closes; session.json says how long it is.
    /// Returns a one-line summary.
    // Thread: NRT (owner)
    @discardableResult
    public func finish() -> String {
        _ = stopTake()
        writer.finish()
        consoleLock.withLock { try? consoleLog.close() }
        noteInput()
        let tally = writer.tally
        let seconds = infoLock.withLock { Double(tally.syncedFrames) / Double(info.sampleRate) }
        infoLock.withLock {
            info.journalFrames = tally.syncedFrames
            info.events = tally.events
            if (info.takes ?? []).isEmpty { info.duration = seconds }
            info.status = "complete"
            try? info.write(to: directory)
        }
        return String(format: "session kept in %@: %.1f s, %d events (podium replay renders it)", directory.path, seconds, tally.events)
    }

    /// After a fatal signal: the take's disk thread writes what the ring holds, the journal's
    /// lines go to events.log, session.json says "crashed", which signal, and the inputs that
    /// preceded it. The audio thread is not asked to let go of the ring (it may be the thread
    /// that faulted). Returns a one-line summary.
    // Thread: the crash guard's
    public func saveAfterCrash(signal: String, inputs: [String]) -> String {
        take?.disk.finish()
        writer.flushNow()
        consoleLock.withLock {
            try? consoleLog.write(contentsOf: Data("podium crashed (\(signal)); the last inputs:\n\(inputs.map { "  " + $0 }.joined(separator: "\n"))\n".utf8))
            try? consoleLog.synchronize()
        }
        let tally = writer.tally
        return infoLock.withLock {
            if let take {
                info.takes?[take.number - 1].frames = take.disk.frames
                if take.number == 1 { info.frames = take.disk.frames }
            }
            info.journalFrames = tally.syncedFrames
            info.events = tally.events
            let seconds = Double(info.frames ?? tally.syncedFrames) / Double(info.sampleRate)
            info.duration = seconds
            info.status = "crashed"
            info.notes.append("podium crashed (\(signal)) after: " + (inputs.isEmpty ? "no input" : inputs.suffix(5).joined(separator: " | ")))
            try? info.write(to: directory)
            return String(format: "the session is saved: %.1f s in %@ (podium replay renders it)", seconds, directory.path)
        }
    }

    /// A console line for console.log.
    // Thread: the console router
    public func console(_ lines: [ConsoleLine]) {
        let elapsed = ContinuousClock.now - began
        let ms = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        let stamp = "\(ms / 1000).\(String(ms % 1000 + 1000).dropFirst())"
        var text = ""
        for line in lines { text += "\(stamp) \(SessionFiles.levelName(line.level)) \(line.text)\n" }
        consoleLock.withLock { try? consoleLog.write(contentsOf: Data(text.utf8)) }
    }

    /// Notes (once) that live audio input reached the performance: replay feeds silence
    /// where no input was recorded.
    // Thread: NRT (podium-journal, or the owner)
    private func noteInput() {
        guard infoLock.withLock({ info.inputConnected == false }), driver.inputConnected else { return }
        infoLock.withLock {
            info.inputConnected = true
            try? info.write(to: directory)
        }
    }
}

/// One audio take being recorded: the audio thread's ring and the disk thread draining it.
struct AudioTake {
    let number: Int
    let tap: RecordTap
    let disk: AudioDiskWriter
}
