import Foundation
import Synchronization
import PodiumEngine
import PodiumHost

/// A performance's session and its audio takes, for the CLI, the REPL and OSC.
///
/// `podium play` keeps a session for the whole performance (`startSession()` right after the
/// driver starts, `finish()` at the end): its journal streams to events.log, and each
/// `:record start` … `:record stop` adds an audio take to that same directory (`audio.wav`,
/// then `audio-2.wav`, …), each replayable on its own (`podium replay --take N`).
/// Without a whole-performance session (a library's driver), `startRecording()` makes a
/// session that ends with its take; a later one makes a new session that starts with the
/// earlier one's journal, so it too replays from the engine's start.
public final class Recording: RecordingControl, @unchecked Sendable {
    let driver: JackDriver
    let root: URL
    let podiumVersion: String
    private let lock = NSLock()
    private var session: Session?
    /// The session lasts as long as the performance (not only as long as its take).
    private var wholePerformance = false
    /// The last session this performance's journal went into (a new one continues from it).
    private var previous: URL?
    /// Problems while recording (disk full), for the terminal.
    public var onProblem: (@Sendable (String) -> Void)?

    public init(driver: JackDriver, sessions root: URL, podiumVersion: String) {
        self.driver = driver
        self.root = root
        self.podiumVersion = podiumVersion
    }

    /// Keeps a session for the whole performance (journal only until a take starts). Returns
    /// its directory.
    // Thread: NRT (owner)
    public func startSession() throws -> String {
        try lock.withLock {
            wholePerformance = true
            do { return try openSession().directory.path } catch let SessionError.cannotRecord(why) {
                throw SessionError.cannotKeep(why)
            }
        }
    }

    /// Keeps nothing (`--no-session`): the journal drops its lines from now on.
    // Thread: NRT (owner)
    public func keepNoSession() { driver.journal.discard() }

    /// Starts an audio take (making the session first when there is none); returns the
    /// session's directory.
    // Thread: NRT (owner, REPL, OSC)
    public func startRecording() throws -> String {
        try lock.withLock {
            let made = session == nil
            let s = try openSession()
            do { return try s.startTake() } catch {
                if made && !wholePerformance { closeSession() }
                throw error
            }
        }
    }

    /// Stops the audio take (the session goes on when it is the whole performance's).
    // Thread: NRT (owner, REPL, OSC)
    public func stopRecording() -> String? {
        lock.withLock {
            guard let session, session.isRecordingAudio else { return nil }
            let summary = session.stopTake()
            if !wholePerformance { closeSession() }
            return summary
        }
    }

    /// The end of the performance: closes the session. Returns its summary (nil: none).
    // Thread: NRT (owner), after the driver stopped (its last sync line is in the journal)
    public func finish() -> String? {
        lock.withLock {
            guard session != nil else { return nil }
            return closeSession()
        }
    }

    /// Saves the session after a fatal signal (see `Session.saveAfterCrash`).
    // Thread: the crash guard's
    public func saveAfterCrash(signal: String, inputs: [String]) -> String? {
        lock.withLock {
            // The session is kept, not released: the audio callback may still be running and
            // writing into its audio take's ring (RecordTap); released here, it wrote into freed
            // memory (the address sanitizer's heap-use-after-free, in the crash guard's test).
            // The process ends within two seconds anyway.
            guard let kept = session else { return nil }
            Recording.keptAfterCrash.withLock { $0.append(kept) }
            session = nil
            return kept.saveAfterCrash(signal: signal, inputs: inputs)
        }
    }

    /// Sessions saved after a fatal signal, kept alive until the process ends.
    private static let keptAfterCrash = Mutex<[Session]>([])

    /// The session directory while an audio take is recorded.
    public var recordingDirectory: String? {
        lock.withLock { session.flatMap { $0.isRecordingAudio ? $0.directory.path : nil } }
    }

    /// The session directory, audio or not.
    public var sessionDirectory: String? { lock.withLock { session?.directory.path } }

    /// For console.log (the console router calls it for every line).
    // Thread: the console router
    public func console(_ lines: [ConsoleLine]) {
        lock.withLock { session }?.console(lines)
    }

    /// Under `lock`.
    // Thread: NRT (owner, REPL, OSC), under lock
    private func openSession() throws -> Session {
        if let session { return session }
        let s = try Session(driver: driver, sessions: root, podiumVersion: podiumVersion, continuing: previous)
        s.onProblem = onProblem
        session = s
        return s
    }

    /// Under `lock`.
    @discardableResult
    // Thread: NRT (owner, REPL, OSC), under lock
    private func closeSession() -> String {
        guard let session else { return "" }
        let summary = session.finish()
        previous = session.directory
        self.session = nil
        return summary
    }
}
