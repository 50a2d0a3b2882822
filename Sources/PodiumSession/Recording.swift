import Foundation
import PodiumEngine
import PodiumRealtime

/// Starts and stops session recordings for a performance (`--record`, `:record`, OSC).
/// One recording at a time; each start makes a new session directory.
public final class Recording: RecordingControl, @unchecked Sendable {
    let driver: JackDriver
    let root: URL
    let podiumVersion: String
    private let lock = NSLock()
    private var current: SessionRecorder?
    /// Problems while recording (disk full), for the terminal.
    public var onProblem: (@Sendable (String) -> Void)?

    public init(driver: JackDriver, sessions root: URL, podiumVersion: String) {
        self.driver = driver
        self.root = root
        self.podiumVersion = podiumVersion
    }

    public func startRecording() throws -> String {
        try lock.withLock {
            if let current { return current.directory.path }
            let recorder = try SessionRecorder(driver: driver, sessions: root, podiumVersion: podiumVersion)
            recorder.onProblem = onProblem
            current = recorder
            return recorder.directory.path
        }
    }

    public func stopRecording() -> String? {
        lock.withLock {
            defer { current = nil }
            return current?.stop()
        }
    }

    /// Saves the recording after a fatal signal (see `SessionRecorder.saveAfterCrash`).
    // Thread: the crash guard's
    public func saveAfterCrash(signal: String, inputs: [String]) -> String? {
        lock.withLock {
            defer { current = nil }
            return current?.saveAfterCrash(signal: signal, inputs: inputs)
        }
    }

    public var recordingDirectory: String? { lock.withLock { current?.directory.path } }

    /// For console.log (the console router calls it for every line).
    public func console(_ lines: [ConsoleLine]) {
        lock.withLock { current }?.console(lines)
    }
}
