import CThreads
import Glibc

/// A lock whose holder inherits the priority of the threads waiting for it (a pthread mutex with
/// PTHREAD_PRIO_INHERIT), in place of NSLock wherever the pattern scheduler (SCHED_FIFO 1) may
/// wait: without it, a nice-5 thread holding the driver's or the samples' lock while ordinary
/// threads run kept the scheduler waiting 111 ms (a test run, the 500-file bank). Same use as
/// NSLock: not recursive.
public final class PriorityLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init() {
        mutex = .allocate(capacity: 1)
        precondition(podium_pi_mutex_init(mutex) == 0, "a priority-inheriting mutex could not be made")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    // Thread: NRT (any)
    public func lock() { pthread_mutex_lock(mutex) }
    // Thread: NRT (the holder)
    public func unlock() { pthread_mutex_unlock(mutex) }

    // Thread: NRT (any)
    @inline(__always)
    public func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
