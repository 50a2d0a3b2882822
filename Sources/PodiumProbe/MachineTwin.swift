import CAtomics
import CJack
import CThreads
import PodiumHost

/// A second JACK client on the same server that does the same small, fixed job in every cycle
/// and records how much CPU time it took: a measure of the machine, not of Podium.
///
/// Why: on a virtual machine a thread's CPU time is not a measure of its own work. When the host
/// runs the guest's CPUs slowly (its other tenants), the guest cannot tell: the time is charged
/// to whatever thread was running, as CPU, not as stolen time. Measured here beside the
/// heavy-compile test: an independent C loop of 250 µs of work read 3.0 and 4.1 ms of CPU, and
/// the kernel's 4 kHz profiling timer on both CPUs fired every 300–900 µs instead of every
/// 250 µs for those milliseconds. A Podium callback running then reads long in CPU for work it
/// did not do. The twin runs in the same JACK cycles; when its fixed job ran several times
/// slower at the same moment, the machine was slow, not the callback.
public final class MachineTwin: @unchecked Sendable {
    let client: OpaquePointer
    let state: UnsafeMutablePointer<TwinState>

    /// How many times its usual CPU time the twin's job must take to call the machine slow:
    /// an interrupt or two during the job makes it 1.5–2×; the slow spells measured were 10× and more.
    public static let slowMachine = 4.0

    public init(server: String, name: String = "twin") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("twin client could not connect to \(server)") }
        client = c
        let capacity = 1 << 14  // about 87 s of cycles at period 256, 48 kHz; older ones are overwritten
        let work = 2048
        state = .allocate(capacity: 1)
        state.initialize(to: TwinState(cycles: .allocate(capacity: capacity), capacity: capacity, count: .allocate(capacity: 1),
                                       work: .allocate(capacity: work), workLength: work))
        state.pointee.cycles.initialize(repeating: Cycle(start: 0, wall: 0, cpu: 0), count: capacity)
        state.pointee.work.initialize(repeating: 1, count: work)
        state.pointee.count.initialize(to: 0)
        try activateProbe(c, twinProcess, state, what: "the twin client", server: server) { Self.free(state) }
    }

    deinit {
        closeProbe(client) { Self.free(state) }
    }

    private static func free(_ state: UnsafeMutablePointer<TwinState>) {
        state.pointee.cycles.deallocate()
        state.pointee.work.deallocate()
        state.pointee.count.deallocate()
        state.deallocate()
    }

    /// One cycle of the twin: when its job began (monotonic ns), its wall and CPU time.
    public struct Cycle: Sendable, Equatable {
        public var start: UInt64, wall: UInt64, cpu: UInt64
    }

    /// The cycles recorded so far (the latest `capacity`), oldest first.
    // Thread: NRT (the test's)
    public var cycles: [Cycle] {
        let count = Int(podium_counter_load(state.pointee.count))
        let first = max(0, count - state.pointee.capacity)
        // The callback may be writing the newest slot: leave it out.
        return (first..<max(first, count - 1)).map { state.pointee.cycles[$0 % state.pointee.capacity] }
    }

    /// How many times slower than usual the twin's job ran in the slowest of its cycles that
    /// overlap `start ..< start + nanoseconds`, widened by `margin` on each side (usual: the
    /// median of every recorded cycle). Nil when no cycle overlaps.
    // Thread: NRT (the test's)
    public func slowdown(from start: UInt64, nanoseconds: UInt64, margin: UInt64) -> Double? {
        let all = cycles
        guard !all.isEmpty else { return nil }
        let usual = max(1, all.map(\.cpu).sorted()[all.count / 2])
        let from = start > margin ? start - margin : 0, to = start + nanoseconds + margin
        let overlapping = all.filter { $0.start < to && $0.start + $0.wall > from }
        return overlapping.map { Double($0.cpu) / Double(usual) }.max()
    }

    /// The slowdown in the cycles of a driver's longest callback (widened by a period each side).
    // Thread: NRT (the test's)
    public func slowdown(atLongestCallbackOf stats: DriverStats) -> Double? {
        slowdown(from: stats.maxCallbackStartNanoseconds, nanoseconds: UInt64(stats.maxCallbackMicroseconds * 1000),
                 margin: UInt64(stats.periodMicroseconds * 1000))
    }
}

struct TwinState {
    var cycles: UnsafeMutablePointer<MachineTwin.Cycle>
    var capacity: Int
    /// Cycles recorded (written by the callback only; read with `podium_counter_load`).
    var count: UnsafeMutablePointer<UInt64>
    var work: UnsafeMutablePointer<Double>
    var workLength: Int
}

/// The twin's process callback: the same fixed job every cycle (a few passes over a small
/// buffer), timed on the monotonic clock and the thread's CPU clock.
// Thread: RT (the twin client's JACK thread)
@_noLocks @_noAllocation
func twinProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: TwinState.self)
    let started = _unsafePerformance { podium_now_ns() }
    let startedCPU = _unsafePerformance { podium_thread_cpu_ns() }
    let w = s.pointee.work
    for _ in 0..<4 {
        for i in 0..<s.pointee.workLength { w[i] = w[i] * 0.999 + 0.001 }
    }
    let cpu = _unsafePerformance { podium_thread_cpu_ns() } &- startedCPU
    let wall = _unsafePerformance { podium_now_ns() } &- started
    let n = Int(_unsafePerformance { podium_counter_load(s.pointee.count) })
    s.pointee.cycles[n % s.pointee.capacity] = MachineTwin.Cycle(start: started, wall: wall, cpu: cpu)
    _unsafePerformance { podium_counter_store(s.pointee.count, UInt64(n + 1)) }
    return 0
}
