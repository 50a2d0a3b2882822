import Foundation

/// A surface's order around its compiles. A surface hands orchestra code to the compile queue
/// and returns at once, but what it does next may need that code merged (`instr 5 … endin`
/// then `i5 0 1`, from a REPL, an editor over OSC or the csound port). So, per key (a sender,
/// or the whole surface), while a step of that key is under way — a compile waiting for its
/// answer — the key's later actions wait behind it and run, in order, right after it, on the
/// thread that finished it (the compile thread). Other keys go on at once: TouchOSC's notes do
/// not wait for an editor's compile.
///
/// A surface runs its own work through `run` (or `exclusive`), under the lane's lock, and
/// actions that waited run under the same lock: the surface's state (its command producer, an
/// SPSC ring, among it) has one writer at a time. Queries that change nothing (status) need not
/// wait and use `exclusive`.
public final class SurfaceLane: @unchecked Sendable {
    let driver: JackDriver
    /// Actions that may wait behind one key's step at most; beyond, `run` refuses.
    public static let capacity = 1024

    public typealias Step = @Sendable (_ done: @escaping @Sendable () -> Void) -> Void
    private enum Item {
        case action(@Sendable () -> Void)
        case step(Step)
    }
    private let lock = NSRecursiveLock()
    /// Keys with a step under way.
    private var busy: Set<String> = []
    private var waiting: [String: [Item]] = [:]
    /// Keys whose waiting items are being run (a step that ends at once does not run them again).
    private var draining: Set<String> = []

    public init(driver: JackDriver) { self.driver = driver }

    /// Runs `body` now under the lane's lock (no ordering): a surface's own work that touches
    /// the state its waiting actions touch.
    // Thread: NRT (the surface's)
    public func exclusive<T>(_ body: () throws -> T) rethrows -> T { try lock.withLock(body) }

    /// Runs `action` now, or — while a step of `key` is under way — after it and whatever else
    /// of `key` waits. False (nothing run) when `capacity` actions wait already.
    // Thread: NRT (the surface's)
    @discardableResult
    /// (`key` is made only when a step is under way: an OSC note's way to the ring does not pay
    /// for its sender's name.)
    public func run(key: @autoclosure () -> String = "", _ action: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            if busy.isEmpty && waiting.isEmpty { action(); return true }
            let key = key()
            guard busy.contains(key) || waiting[key] != nil else { action(); return true }
            guard waiting[key, default: []].count < SurfaceLane.capacity else { return false }
            waiting[key, default: []].append(.action(action))
            return true
        }
    }

    /// Runs `body` now, under the lane's lock, when no step is under way and nothing waits (no
    /// compile in progress: the common case) and returns true; false, with nothing run, otherwise
    /// (the caller then goes through `run`). A note read in place runs this way with no closure
    /// to keep, no copy of its numbers and no sender's name.
    // Thread: NRT (the surface's)
    public func runIfIdle(_ body: () -> Void) -> Bool {
        lock.withLock {
            guard busy.isEmpty && waiting.isEmpty else { return false }
            body()
            return true
        }
    }

    /// Starts an asynchronous step (after what of `key` waits): `begin` gets `done`, which it
    /// calls — on any thread, possibly at once — when the step is over; until then `key`'s
    /// later actions wait.
    // Thread: NRT (the surface's)
    public func step(key: String = "", _ begin: @escaping Step) {
        lock.withLock {
            if busy.contains(key) || waiting[key] != nil {
                waiting[key, default: []].append(.step(begin))
            } else {
                start(key, begin)
            }
        }
    }

    /// Hands `text` to the compile queue (after what of `key` waits); `answer` comes once the
    /// audio thread merged it or it was refused — at once for what is refused before it queues
    /// (a typo, a table over the budget, the compile budget, a full queue).
    // Thread: NRT (the surface's)
    public func compile(_ text: String, source: String, key: String = "", answer: @escaping @Sendable (Result<UInt64, Error>) -> Void) {
        step(key: key) { [driver] done in
            do {
                try driver.submitCompile(text, source: source) { result in answer(result); done() }
            } catch {
                answer(.failure(error))
                done()
            }
        }
    }

    /// Waits until nothing of the lane is under way or waiting (a script's or a pipe's end, or
    /// its `:quit`: what came before is carried out first); false when `shouldStop` said so.
    // Thread: NRT (a non-interactive surface's own: a script, piped input)
    public func waitUntilIdle(shouldStop: () -> Bool) -> Bool {
        while lock.withLock({ !busy.isEmpty || !waiting.isEmpty }) {
            if shouldStop() { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return true
    }

    // Thread: NRT (under the lock)
    private func start(_ key: String, _ begin: @escaping Step) {
        busy.insert(key)
        begin { [self] in
            lock.withLock {
                busy.remove(key)
                drain(key)
            }
        }
    }

    /// Runs what of `key` waited, up to its next step that does not end at once.
    // Thread: NRT (under the lock: whichever thread ended a step)
    private func drain(_ key: String) {
        guard !draining.contains(key) else { return }
        draining.insert(key)
        defer { draining.remove(key) }
        while !busy.contains(key), let item = waiting[key]?.first {
            waiting[key]!.removeFirst()
            if waiting[key]!.isEmpty { waiting[key] = nil }
            switch item {
            case let .action(action): action()
            case let .step(begin): start(key, begin)
            }
        }
    }
}
