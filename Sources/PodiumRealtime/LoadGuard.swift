/// The DSP load guard: while the callback is busy for more than `limit` of the period (the CPU
/// time its thread used, so a callback that waited to be scheduled does not count, nor one in
/// which a compile merged, nor an engine's first, its init passes; the load rises at once and falls slowly), the engine's voices may not grow. The voice count when the load crossed the
/// limit becomes a cap: a new note starts only as another ends (one in, one out), so a heavy
/// but steady performance keeps playing, and a flood of notes cannot push the callback into
/// overruns. The cap lifts once the load is back below `limit - hysteresis`. Releases
/// (negative p1) always pass. A refused note is never applied, so it is not journaled and a
/// replay stays exact. Plain data the callback owns (`RTState.loadGuard`).
public struct LoadGuard: Sendable {
    /// The default limit: 75 % of the period.
    public static let defaultLimit = 0.75
    /// How fast the load falls back: about 16 callbacks (85 ms at period 256).
    static var smoothing: Double { 1.0 / 16 }
    static var hysteresis: Double { 0.1 }

    /// A fraction of the period; `.infinity`: no guard.
    public var limit: Double
    /// The load: a busier callback raises it at once; a quieter one lowers it slowly
    /// (callback CPU time / period, each callback counted at most as 1).
    public private(set) var level = 0.0
    /// The voices allowed while over the limit (`.infinity`: no cap).
    public private(set) var cap = Double.infinity

    // Thread: any
    public init(limit: Double? = LoadGuard.defaultLimit) {
        self.limit = limit ?? .infinity
    }

    /// One callback's load (its time over the period) and the engine's voices after it.
    // Thread: RT (the callback's end)
    @_noLocks @_noAllocation
    public mutating func observe(load: Double, voices: Double) {
        let sample = load >= 0 ? min(load, 1) : 0  // NaN counts as an idle callback
        level = sample > level ? sample : level + (sample - level) * LoadGuard.smoothing
        if level > limit {
            if cap == .infinity { cap = max(voices, 1) }
        } else if level < limit - LoadGuard.hysteresis {
            cap = .infinity
        }
    }

    /// Whether a new note may start with `voices` already active (or started this callback).
    // Thread: RT
    @_noLocks @_noAllocation
    public func admits(voices: Double) -> Bool { voices < cap }
}
