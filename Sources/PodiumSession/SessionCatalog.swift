import Foundation
import PodiumAudioFile
import PodiumRealtime

/// One session as `podium sessions` lists it.
public struct SessionListing: Sendable {
    public var directory: URL
    public var info: SessionInfo
    /// complete, repaired, recording (its process runs), interrupted (its process is gone).
    public var status: String
    public var seconds: Double
    public var bytes: Int64
}

/// The sessions under a directory, and mending one a crash interrupted.
public enum SessionCatalog {
    public static func list(_ root: URL) -> [SessionListing] {
        let fm = FileManager.default
        guard let names = try? fm.contentsOfDirectory(atPath: root.path) else { return [] }
        return names.sorted().compactMap { name in
            let dir = root.appendingPathComponent(name)
            guard let info = try? SessionInfo.read(dir) else { return nil }
            return listing(dir, info)
        }
    }

    static func listing(_ dir: URL, _ info: SessionInfo) -> SessionListing {
        var status = info.status
        if status == "recording" && !(kill(info.pid, 0) == 0 || errno == EPERM) { status = "interrupted" }
        let frames = info.frames ?? (try? SoundFileHeader.info(dir.appendingPathComponent("audio.wav").path).frames) ?? 0
        return SessionListing(directory: dir, info: info, status: status,
                              seconds: Double(frames) / Double(max(info.sampleRate, 1)), bytes: size(of: dir))
    }

    /// Fixes what a crash leaves: WAV headers that under-count the data, a last events.log line
    /// cut in half, and session.json without a duration. Refuses a recording still running.
    /// Returns a summary line.
    public static func repair(_ dir: URL) throws -> String {
        var info = try SessionInfo.read(dir)
        if listing(dir, info).status == "recording" {
            throw SessionError.cannotRecord("\(dir.path) is still being recorded (process \(info.pid))")
        }
        let audio = dir.appendingPathComponent("audio.wav").path
        let before = (try? SoundFileHeader.info(audio).frames) ?? 0
        let frames = try SoundFileHeader.repair(audio)
        let input = dir.appendingPathComponent("input.wav").path
        if FileManager.default.fileExists(atPath: input) { try SoundFileHeader.repair(input) }
        let events = dir.appendingPathComponent("events.log")
        var cut = 0
        if let data = try? Data(contentsOf: events), let last = data.last, last != UInt8(ascii: "\n") {
            let keep = data.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
            cut = data.count - keep
            let handle = try FileHandle(forWritingTo: events)
            try handle.truncate(atOffset: UInt64(keep))
            try handle.close()
        }
        if info.status != "complete" {
            info.frames = frames
            info.duration = Double(frames) / Double(info.sampleRate)
            info.status = "repaired"
            info.notes.append("repaired after an interrupted recording")
            // The audio may run past the last point events.log is known complete for.
            if let complete = completeFrames(events: events, info: info), complete < frames {
                info.replayFrames = complete
                info.notes.append(String(format: "replay stops at %.2f s: events.log is complete only that far", Double(complete) / Double(info.sampleRate)))
            }
            try info.write(to: dir)
        }
        return String(format: "%@: audio.wav %lld → %lld frames (%.2f s)%@", dir.lastPathComponent, before, frames,
                      Double(frames) / Double(info.sampleRate), cut > 0 ? ", dropped a cut-off events.log line" : "")
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
