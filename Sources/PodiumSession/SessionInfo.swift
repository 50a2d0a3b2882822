import Foundation
import PodiumEngine

/// `session.json`: what a session needs to be listed and replayed.
public struct SessionInfo: Codable, Sendable, Equatable {
    public struct Source: Codable, Sendable, Equatable {
        /// "csd" or "orc".
        public var kind: String
        /// The orchestra (or CSD) text, in the session's `orchestras/`.
        public var file: String
        /// The score text, for an orchestra with a score.
        public var score: String?
        /// Where it was read from during the performance.
        public var original: String
    }

    public var format = 1
    /// The orchestra's name (its file name without extension).
    public var orchestra: String
    public var source: Source
    public var sampleRate: Int
    /// ksmps when the recording started (events.log notes restarts).
    public var ksmps: Int
    public var outputs: Int
    public var inputs: Int
    public var seed: UInt32?
    public var podiumVersion: String
    public var csoundVersion: String
    /// ISO 8601, when the recording started.
    public var started: String
    /// The engine's k-cycle at the first recorded sample…
    public var startCycle: Int64
    /// …of the engine that was running then (0: the first; events.log's `engine` lines count them).
    public var startSegment: Int = 0
    /// Seconds of audio recorded (set when the recording stops, or by --repair).
    public var duration: Double?
    public var frames: Int64?
    /// After a crash: the frames events.log is known complete for (its last `sync`); replay
    /// renders this many. nil: all of them.
    public var replayFrames: Int64?
    /// recording (the performance still runs, or interrupted when its process is gone),
    /// complete, crashed, repaired.
    public var status: String
    /// The recording process (to tell a running recording from a crashed one).
    public var pid: Int32
    /// Input control channels and their values when the recording started.
    public var channels: [String: Double]
    /// K-cycles the disk thread could not keep (filled with silence).
    public var overruns: UInt64 = 0
    /// Why replay may differ from the recording (empty: it should not).
    public var notes: [String] = []
    /// The output safety limit the performance clipped at (an amplitude; nil: none).
    public var outputLimit: Double?
    /// Frames from the engine's start that events.log covers (the whole performance; through
    /// its last `sync` line after a crash). nil while the performance runs.
    public var journalFrames: Int64?
    /// events.log's `event` lines (nil while the performance runs).
    public var events: Int?
    /// Audio takes (`:record start` … `:record stop`), in order; the first is `audio.wav`, and
    /// the fields above (startCycle, startSegment, frames, duration, replayFrames) describe it.
    public var takes: [Take]?
    /// Whether an audio input port was connected during the performance (nil: not known).
    public var inputConnected: Bool?
    /// The sampler's instruments were compiled after the orchestra (a performance with sample
    /// banks; its samples' tables are in the journal as `stage` lines of `SampleDescriptor`s).
    public var sampler: Bool?

    /// One audio take: its files and where it begins in the journal.
    public struct Take: Codable, Sendable, Equatable {
        public var audio: String
        public var input: String?
        public var startCycle: Int64
        public var startSegment: Int
        public var frames: Int64?
        public var overruns: UInt64 = 0
        /// When the audio stopped before the take did (a full disk): the take's frames as
        /// performed, which replay renders from the journal (`frames`: what the files hold).
        public var performedFrames: Int64?
    }

    /// Whether the session holds recorded audio (a take, or an audio.wav from before takes).
    public func hasAudio(in directory: URL) -> Bool {
        !(takes ?? []).isEmpty || FileManager.default.fileExists(atPath: directory.appendingPathComponent("audio.wav").path)
    }

    public static let fileName = "session.json"

    public static func read(_ directory: URL) throws -> SessionInfo {
        let url = directory.appendingPathComponent(fileName)
        guard let data = try? Data(contentsOf: url) else { throw SessionError.notASession(directory.path) }
        do { return try JSONDecoder().decode(SessionInfo.self, from: data) } catch {
            throw SessionError.unreadable(url.path, "\(error)")
        }
    }

    /// Written to a temporary file and renamed, so a crash never leaves half a file.
    public func write(to directory: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let url = directory.appendingPathComponent(SessionInfo.fileName)
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// The engine source, from the session's own copies.
    public func engineSource(in directory: URL) -> EngineSource {
        let file = directory.appendingPathComponent(source.file).path
        if source.kind == "csd" { return .csd(path: file) }
        return .orchestra(path: file, score: source.score.map { directory.appendingPathComponent($0).path })
    }
}

public enum SessionError: Error, CustomStringConvertible, Equatable {
    case notASession(String)
    case unreadable(String, String)
    case cannotRecord(String)
    case cannotKeep(String)
    case replay(String)

    public var description: String {
        switch self {
        case let .notASession(dir): return "\(dir) is not a session (no session.json)"
        case let .unreadable(path, why): return "cannot read \(path): \(why)"
        case let .cannotRecord(why): return "cannot record: \(why)"
        case let .cannotKeep(why): return "cannot keep a session: \(why)"
        case let .replay(why): return "cannot replay: \(why)"
        }
    }
}
