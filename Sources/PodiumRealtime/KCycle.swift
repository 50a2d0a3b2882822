import PodiumEngine

/// Control channels set for one k-cycle only (`momentary`, a button's press): back to 0 once
/// that k-cycle has been performed. Preallocated; a k-cycle that sets more than `capacity` of
/// them keeps the rest at their value (the live callback and the replayer alike).
public struct MomentaryChannels: ~Copyable {
    let slots: UnsafeMutablePointer<UnsafeMutablePointer<Double>?>
    public let capacity: Int
    public private(set) var count = 0

    // Thread: NRT (owner), before the first k-cycle
    public init(capacity: Int) {
        self.capacity = capacity
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: nil, count: capacity)
    }

    deinit { slots.deallocate() }

    /// Sets `channel` to `value` for the coming k-cycle.
    // Thread: RT (JACK callback) or NRT (session replayer)
    @_noLocks @_noAllocation
    public mutating func set(_ channel: UnsafeMutablePointer<Double>, _ value: Double) {
        RTEngine.store(channel, value)
        guard count < capacity else { return }
        slots[count] = channel
        count += 1
    }

    /// The channels set for the k-cycle just performed go back to 0.
    // Thread: RT (JACK callback) or NRT (session replayer)
    @_noLocks @_noAllocation
    public mutating func release() {
        for i in 0..<count { if let ch = slots[i] { RTEngine.store(ch, 0) } }
        count = 0
    }

    /// Forgets the channels (they belonged to an engine that was replaced).
    // Thread: RT (adoption of a new engine)
    @_noLocks @_noAllocation
    public mutating func forget() { count = 0 }
}

/// One k-cycle of a performance, as every driver of one runs it — the JACK callback and the
/// session replayer — so that a replay cannot drift from what was played: the beat clock is
/// published to the orchestra, Csound performs, the clock advances, momentary channels go back
/// to 0; then the output is checked and converted as JACK gets it (`OutputGuard`). What comes
/// before (commands or journal lines applied, input copied into `spin`) is each driver's own.
/// (`podium render` runs plain Csound k-cycles: it has no clock, no commands and no guard, as
/// the csound CLI it must equal.)
public enum KCycle {
    /// Performs the k-cycle; returns Csound's end-of-score flag.
    // Thread: RT (JACK callback) or NRT (session replayer)
    @_noLocks @_noAllocation
    public static func perform(_ engine: RTEngine, clock: inout BeatClock, momentary: inout MomentaryChannels) -> Bool {
        clock.publish(engine.clock)  // the orchestra reads the beat of this k-cycle
        let ended = engine.performKsmps()
        clock.advance()
        momentary.release()
        return ended
    }

    /// The performed k-cycle's output checked as JACK gets it: silenced if it holds a
    /// non-finite sample, else clipped at `limit`.
    // Thread: RT (JACK callback) or NRT (session replayer)
    @_noLocks @_noAllocation
    public static func checkOutput(_ engine: RTEngine, limit: Float) -> OutputGuard.Outcome {
        OutputGuard.check(engine.spout, count: engine.ksmps * engine.outputChannels, scale: engine.outputScale, limit: limit)
    }

    /// Frame `frame` of output channel `channel` of the checked k-cycle, as JACK gets it.
    // Thread: RT (JACK callback) or NRT (session replayer)
    @_noLocks @_noAllocation @inline(__always)
    public static func output(_ engine: RTEngine, _ outcome: OutputGuard.Outcome, frame: Int, channel: Int, limit: Float) -> Float {
        outcome.silenced ? 0 : OutputGuard.sample(engine.spout[frame * engine.outputChannels + channel], scale: engine.outputScale, limit: limit)
    }
}
