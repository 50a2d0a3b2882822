import CAtomics
import CJack

/// A JACK client without ports that notes, in every cycle, the cycle's first frame and when its
/// callback began (JACK's µs clock): the server's frame grid as this machine keeps it, for
/// placing a moment (a trigger's send) on the frame timeline.
///
/// Why not `jack_frame_time`: it extrapolates from the server's delay-locked loop, which a dummy
/// server's late wake-ups throw off by a period or more without an xrun (measured: latencies in
/// a sawtooth, some below 0). JACK2's timed drivers (dummy) sleep toward an anchored grid,
/// cycle n at anchor + n × period (JackTimedDriver), and wake late by a varying amount, never
/// early: so the grid is the lower envelope of the callbacks' start times. A client with no
/// ports runs in each cycle beside the sources it does not depend on, so the sources' own
/// work (Csound's k-cycle, scsynth's block) does not delay it.
public final class CycleClock: @unchecked Sendable {
    let client: OpaquePointer
    let state: UnsafeMutablePointer<CycleClockState>
    public let sampleRate: Double

    public init(server: String, name: String = "cycle-clock") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("cycle clock could not connect to \(server)") }
        client = c
        sampleRate = Double(jack_get_sample_rate(c))
        let capacity = 1 << 15  // about 0.9 s of cycles at period 64, 48 kHz; older ones are overwritten
        state = .allocate(capacity: 1)
        state.initialize(to: CycleClockState(client: c, cycles: .allocate(capacity: capacity), capacity: capacity, count: .allocate(capacity: 1)))
        state.pointee.cycles.initialize(repeating: CycleStart(frame: 0, micros: 0), count: capacity)
        state.pointee.count.initialize(to: 0)
        try activateProbe(c, cycleClockProcess, state, what: "the cycle clock", server: server) { Self.free(state) }
    }

    deinit {
        closeProbe(client) { Self.free(state) }
    }

    private static func free(_ state: UnsafeMutablePointer<CycleClockState>) {
        state.pointee.cycles.deallocate()
        state.pointee.count.deallocate()
        state.deallocate()
    }

    /// The frame (fractional) at JACK time `micros`, from the cycles whose callbacks began
    /// between `from` and `to` (µs): the earliest start relative to the grid is taken as the
    /// grid. Nil when fewer than `minimum` cycles fell there, or they do not agree on one grid:
    /// a cycle that woke a period or more after it (the dummy re-anchors its schedule after a
    /// late cycle, which the capture client's xrun count does not always show).
    // Thread: NRT (the bench's)
    public func frame(atMicros micros: UInt64, from: UInt64, to: UInt64, minimum: Int = 8) -> Double? {
        let count = Int(podium_counter_load(state.pointee.count))
        let first = max(0, count - state.pointee.capacity)
        let perFrame = 1e6 / sampleRate
        var reference: Int64? = nil
        var earliest = Double.infinity, latest = -Double.infinity
        var used = 0
        var step = Int64.max
        // The newest slot may be being written: left out.
        for i in first..<max(first, count - 1) {
            let cycle = state.pointee.cycles[i % state.pointee.capacity]
            let t = cycle.micros, f = cycle.frame
            guard t >= from, t <= to else { continue }
            let r = reference ?? f
            if f > r { step = min(step, f - r) }
            reference = reference ?? f
            // This cycle's start, moved back along the grid to the reference frame.
            let onGrid = Double(t) - Double(f - r) * perFrame
            earliest = min(earliest, onGrid)
            latest = max(latest, onGrid)
            used += 1
        }
        guard used >= minimum, let reference, step < Int64.max, latest - earliest < Double(step) * perFrame else { return nil }
        return Double(reference) + (Double(micros) - earliest) / perFrame
    }
}

/// One cycle as the clock noted it: its first frame and when its callback began (JACK µs).
struct CycleStart {
    var frame: Int64
    var micros: UInt64
}

struct CycleClockState {
    var client: OpaquePointer
    var cycles: UnsafeMutablePointer<CycleStart>
    var capacity: Int
    /// Cycles written so far (published after each slot).
    var count: UnsafeMutablePointer<UInt64>
}

/// Notes the cycle's first frame and the callback's start.
// Thread: RT (the cycle clock's JACK thread)
@_noLocks @_noAllocation
func cycleClockProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: CycleClockState.self)
    let now = _unsafePerformance { jack_get_time() }
    let frame = _unsafePerformance { Int64(jack_last_frame_time(s.pointee.client)) }
    let n = Int(_unsafePerformance { podium_counter_load(s.pointee.count) })
    s.pointee.cycles[n % s.pointee.capacity] = CycleStart(frame: frame, micros: now)
    _unsafePerformance { podium_counter_store(s.pointee.count, UInt64(n + 1)) }
    return 0
}
