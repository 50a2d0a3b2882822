import Foundation
import Synchronization

/// Ends the process when a performance's stop does not finish in time, saying which part of
/// the teardown it was in: a stop that hangs (a JACK call that never returns, a thread that
/// never delivers) must not keep the process, its JACK client and its ports from a performer
/// who starts again. The session's journal is written as the performance goes: it is kept.
final class StopWatchdog: Sendable {
    private let current = Mutex("the start of the stop")
    private let done = Atomic(false)

    // Thread: NRT (owner); the watchdog's own thread waits
    init(seconds: Double) {
        Thread.detachNewThread { [self] in
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if done.load(ordering: .acquiring) { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
            if done.load(ordering: .acquiring) { return }
            let phase = current.withLock { $0 }
            let line = "podium: the stop did not finish within \(Int(seconds)) s (in \(phase)): ending now; the session's journal is kept\n"
            FileHandle.standardError.write(Data(line.utf8))
            _exit(70)
        }
    }

    /// The part of the teardown that runs now (said if it hangs).
    func phase(_ name: String) { current.withLock { $0 = name } }

    /// The stop finished: the watchdog ends.
    func finished() { done.store(true, ordering: .releasing) }
}
