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
    /// recording (still running, or interrupted when its process is gone), complete, repaired.
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
    case replay(String)

    public var description: String {
        switch self {
        case let .notASession(dir): return "\(dir) is not a session (no session.json)"
        case let .unreadable(path, why): return "cannot read \(path): \(why)"
        case let .cannotRecord(why): return "cannot record: \(why)"
        case let .replay(why): return "cannot replay: \(why)"
        }
    }
}
