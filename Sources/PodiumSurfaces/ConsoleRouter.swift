import CJack
import CThreads
import Foundation
import PodiumEngine
import Synchronization

/// Routes the performance's console — Csound's lines (drained from the engine's rings by the
/// driver) and Podium's own notices — to its sinks: the terminal (above the REPL prompt,
/// filtered by --quiet/--verbose), the session's console.log, OSC subscribers.
///
/// `post` never blocks on a sink: lines wait in a bounded queue that a console thread
/// (`podium-console`) empties. When sinks fall behind (a stalled terminal), the oldest waiting
/// lines are dropped and the next line says how many.
public final class ConsoleRouter: @unchecked Sendable {
    public struct Sink: Sendable {
        /// The least severe line this sink wants.
        public var minimum: ConsoleLine.Level
        /// Gets the lines waiting since the last delivery, in order (one write for many lines).
        public var write: @Sendable ([ConsoleLine]) -> Void
        public init(minimum: ConsoleLine.Level, batch write: @escaping @Sendable ([ConsoleLine]) -> Void) {
            self.minimum = minimum
            self.write = write
        }
        public init(minimum: ConsoleLine.Level, write: @escaping @Sendable (ConsoleLine) -> Void) {
            self.minimum = minimum
            self.write = { for line in $0 { write(line) } }
        }
    }

    private struct Queue {
        var lines: [ConsoleLine] = []
        var head = 0
        var dropped = 0
        var sinks: [String: Sink] = [:]
        /// Lines posted (all time): `flush` waits until the sinks have had every one up to here.
        var posted = 0
        /// Lines handed to the sinks since the start, kept until `endHistory` (bounded by
        /// `capacity`), for a sink added later that wants them: the session's console.log is
        /// made once the performance plays, and Csound's first lines come before it.
        var history: [ConsoleLine]? = []
        /// What each newly added sink gets before the next lines: the history when it was added.
        var backlogs: [String: [ConsoleLine]] = [:]
    }
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    /// The lines posted before the last delivery began, delivered (or dropped, and said).
    private let delivered = Atomic<Int>(0)
    private let deliveredSignal = DispatchSemaphore(value: 0)
    public let capacity: Int
    /// Lines dropped because the sinks fell behind (all time).
    public let droppedTotal = Atomic<Int>(0)

    public init(capacity: Int = 8192) { self.capacity = capacity }

    /// Adds or replaces the sink called `name`; with `history`, it first gets every line the
    /// other sinks had since the start (until `endHistory`), in order, then the next ones.
    public func setSink(_ name: String, _ sink: Sink?, history: Bool = false) {
        queue.withLock { q in
            q.sinks[name] = sink
            if history, sink != nil, let kept = q.history, !kept.isEmpty { q.backlogs[name] = kept }
        }
        if history { wake.signal() }
    }

    /// Stops keeping the lines since the start (the sinks that wanted them have them).
    public func endHistory() {
        queue.withLock { $0.history = nil }
    }

    /// Queues a line for the sinks. Never blocks on them.
    // Thread: any NRT (the driver's supervisor, surfaces with notices)
    public func post(_ line: ConsoleLine) {
        queue.withLock { q in
            if q.lines.count - q.head >= capacity {
                q.head += 1
                q.dropped += 1
                if q.head >= capacity { q.lines.removeFirst(q.head); q.head = 0 }
            }
            q.lines.append(line)
            q.posted += 1
        }
        wake.signal()
    }

    /// Returns once every line posted before the call has reached the sinks (the console thread
    /// delivers them: each sink keeps its one writer), or after `timeout` seconds (a sink that
    /// stalls, a terminal held by ^S, cannot hold the caller). Before a sink goes away at the end
    /// of a performance — the session's console.log — so that its last lines are in it. The
    /// thread runs at nice 10: on a busy machine a flood's last lines take seconds. Returns the
    /// lines not delivered in time (0: all).
    // Thread: NRT (owner)
    @discardableResult
    public func flush(timeout: Double = 30) -> Int {
        let target = queue.withLock { $0.posted }
        let deadline = DispatchTime.now() + timeout
        while deliveredSignal.wait(timeout: .now()) == .success {}  // deliveries nobody waited for
        while delivered.load(ordering: .acquiring) < target {
            guard running.load(ordering: .acquiring), DispatchTime.now() < deadline else {
                return target - delivered.load(ordering: .acquiring)
            }
            wake.signal()
            _ = deliveredSignal.wait(timeout: min(deadline, .now() + .milliseconds(100)))
        }
        return 0
    }

    /// A notice from Podium itself ("podium: …"), in the same stream.
    public func notice(_ text: String, level: ConsoleLine.Level = .orchestra) {
        post(ConsoleLine(level: level, text: "podium: \(text)"))
    }

    public func start() {
        running.store(true, ordering: .releasing)
        let thread = Thread { [self] in
            // Below the other threads: a flood of console lines waits, the audio does not.
            _ = podium_nice_current_thread(10)
            while running.load(ordering: .acquiring) {
                _ = wake.wait(timeout: .now() + .milliseconds(100))
                deliver()
            }
            deliver()
            done.signal()
        }
        thread.name = "podium-console"
        thread.start()
    }

    /// Delivers what is queued and stops the thread.
    public func stop() {
        guard running.exchange(false, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        done.wait()
    }

    // Thread: podium-console
    private func deliver() {
        // What is taken here goes to the sinks of this moment, and into the history in the same
        // step: a sink added later gets it from its backlog, never twice, never not at all.
        let (all, sinks, backlogs, upTo) = queue.withLock { q -> ([ConsoleLine], [(String, Sink)], [String: [ConsoleLine]], Int) in
            var all = Array(q.lines[q.head...])
            if q.dropped > 0 {
                droppedTotal.add(q.dropped, ordering: .relaxed)
                all.insert(ConsoleLine(level: .warning, text: "podium: \(q.dropped) console lines dropped (the console could not keep up)"), at: 0)
            }
            q.lines.removeAll(keepingCapacity: true)
            q.head = 0
            q.dropped = 0
            if q.history != nil { q.history!.append(contentsOf: all.prefix(max(0, capacity - q.history!.count))) }
            let backlogs = q.backlogs
            q.backlogs = [:]
            return (all, q.sinks.map { ($0.key, $0.value) }, backlogs, q.posted)
        }
        defer {
            delivered.store(upTo, ordering: .releasing)
            deliveredSignal.signal()
        }
        for (name, sink) in sinks {
            let wanted = ((backlogs[name] ?? []) + all).filter { $0.level >= sink.minimum }
            if !wanted.isEmpty { sink.write(wanted) }
        }
    }
}
