import Foundation
import PodiumAudioFile
import PodiumHost

/// One session as `podium sessions` lists it.
public struct SessionListing: Sendable {
    public var directory: URL
    public var info: SessionInfo
    /// complete, repaired, crashed, recording (its process runs), interrupted (its process is gone).
    public var status: String
    /// The performance's length (the journal's, or the audio's when longer).
    public var seconds: Double
    public var bytes: Int64
    /// events.log's `event` lines.
    public var events: Int
    /// Whether audio was recorded (a take), or only the journal.
    public var hasAudio: Bool
    /// When the session started (nil: session.json's date does not read).
    public var started: Date? { ISO8601DateFormatter().date(from: info.started) }
    /// Its process still performs.
    public var isRunning: Bool { status == "recording" }
}

/// The sessions under a directory, and mending one a crash interrupted.
public enum SessionCatalog {
    /// Every session under `root`, oldest first. With `repairing`, a journal-only session a
    /// crash interrupted is repaired on the way (events.log cut after its last sync line).
    // Thread: NRT (the CLI)
    public static func list(_ root: URL, repairing: Bool = false) -> [SessionListing] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: root.path) else { return [] }
        return names.sorted().compactMap { name in
            let dir = root.appendingPathComponent(name)
            guard let info = try? SessionInfo.read(dir) else { return nil }
            let l = listing(dir, info)
            if repairing, l.status == "interrupted", !l.hasAudio, (try? repair(dir)) != nil, let again = try? SessionInfo.read(dir) {
                return listing(dir, again)
            }
            return l
        }
    }

    // Thread: NRT (the CLI)
    static func listing(_ dir: URL, _ info: SessionInfo) -> SessionListing {
        var status = info.status
        if status == "recording" && !(kill(info.pid, 0) == 0 || errno == EPERM) { status = "interrupted" }
        let hasAudio = info.hasAudio(in: dir)
        var audioFrames: Int64 = 0
        if hasAudio { audioFrames = info.frames ?? (try? SoundFileHeader.info(dir.appendingPathComponent("audio.wav").path).frames) ?? 0 }
        var journalFrames = info.journalFrames, events = info.events
        if journalFrames == nil || events == nil, let read = JournalTally.read(dir.appendingPathComponent("events.log"), ksmps: info.ksmps) {
            journalFrames = journalFrames ?? read.tally.syncedFrames
            events = events ?? read.tally.events
        }
        let frames = max(journalFrames ?? 0, audioFrames)
        return SessionListing(directory: dir, info: info, status: status, seconds: Double(frames) / Double(max(info.sampleRate, 1)),
                              bytes: size(of: dir), events: events ?? 0, hasAudio: hasAudio)
    }

    /// Fixes what a crash leaves: WAV headers that under-count the data, events.log lines after
    /// its last `sync` line (the journal is trusted only that far; a journal-only session has
    /// only this), and session.json without a length. Refuses a session still performing.
    /// Returns a summary line.
    // Thread: NRT (the CLI)
    public static func repair(_ dir: URL) throws -> String {
        var info = try SessionInfo.read(dir)
        if listing(dir, info).status == "recording" {
            throw SessionError.cannotRecord("\(dir.path) is still being recorded (process \(info.pid))")
        }
        let fm = FileManager.default
        let hasAudio = info.hasAudio(in: dir)
        let audio = dir.appendingPathComponent("audio.wav").path
        let before = hasAudio ? (try? SoundFileHeader.info(audio).frames) ?? 0 : 0
        let frames = hasAudio ? try SoundFileHeader.repair(audio) : 0
        var files = ["input.wav"]
        for t in (info.takes ?? []).dropFirst() { files += [t.audio] + (t.input.map { [$0] } ?? []) }
        for f in files where fm.fileExists(atPath: dir.appendingPathComponent(f).path) {
            try SoundFileHeader.repair(dir.appendingPathComponent(f).path)
        }
        let events = dir.appendingPathComponent("events.log")
        var cut = 0
        var tally = JournalTally(ksmps: info.ksmps)
        if let data = try? Data(contentsOf: events), let read = JournalTally.read(events, ksmps: info.ksmps) {
            tally = read.tally
            // Through the last sync line; with none at all, through the last whole line.
            let keep = read.syncedBytes > 0 ? read.syncedBytes : data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            if keep < data.count {
                cut = data.count - keep
                let handle = try FileHandle(forWritingTo: events)
                try handle.truncate(atOffset: UInt64(keep))
                try handle.close()
            }
        }
        let seconds = Double(tally.syncedFrames) / Double(info.sampleRate)
        if info.status != "complete" {
            info.journalFrames = tally.syncedFrames
            info.events = tally.events
            info.status = "repaired"
            info.notes.append("repaired after an interrupted performance")
            if hasAudio {
                info.frames = frames
                info.duration = Double(frames) / Double(info.sampleRate)
                if !(info.takes ?? []).isEmpty { info.takes![0].frames = frames }
                // The audio may run past the last point events.log is known complete for.
                if let complete = completeFrames(events: events, info: info), complete < frames {
                    info.replayFrames = complete
                    info.notes.append(String(format: "replay stops at %.2f s: events.log is complete only that far", Double(complete) / Double(info.sampleRate)))
                }
            } else {
                info.duration = seconds
                info.notes.append(String(format: "replay renders %.2f s: events.log is complete only that far", seconds))
            }
            try info.write(to: dir)
        }
        let dropped = cut > 0 ? ", dropped \(cut) bytes of events.log after its last sync line" : ""
        guard hasAudio else {
            return String(format: "%@: journal only, %.2f s, %d events%@", dir.lastPathComponent, seconds, tally.events, dropped)
        }
        return String(format: "%@: audio.wav %lld → %lld frames (%.2f s)%@", dir.lastPathComponent, before, frames,
                      Double(frames) / Double(info.sampleRate), dropped)
    }

    /// The frames of audio.wav that events.log covers: up to its last `sync` line, when the
    /// recording and that line belong to the same engine.
    static func completeFrames(events: URL, info: SessionInfo) -> Int64? {
        guard let text = try? String(contentsOf: events, encoding: .utf8) else { return nil }
        var engines = 0, ksmps = info.ksmps
        var sync: Int64?
        for line in text.split(separator: "\n") {
            switch try? JournalLine.parse(line) {
            case let .engine(_, k)?: engines += 1; ksmps = k; sync = nil
            case let .sync(c)?: sync = c
            default: break
            }
        }
        guard let sync, engines - 1 == info.startSegment else { return nil }
        return max(0, (sync - info.startCycle + 1) * Int64(ksmps))
    }

    static func size(of dir: URL) -> Int64 {
        let fm = FileManager.default
        var total: Int64 = 0
        if let e = fm.enumerator(at: dir, includingPropertiesForKeys: [.fileSizeKey]) {
            for case let url as URL in e {
                total += Int64((try? url.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0)
            }
        }
        return total
    }
}
