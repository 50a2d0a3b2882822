// The beat clock's rate against Link's clock (LinkSync.swift).
//
// Podium's beat counts performed frames at the nominal sample rate; the Link session's beat
// runs in host time (CLOCK_MONOTONIC_RAW). A sound card's crystal, or JACK's dummy driver timed
// by CLOCK_MONOTONIC (which NTP slews), runs some parts per million off Link's clock: measured
// here, JACK's dummy driver (not real-time, on a loaded 2-core machine) ran up to 3 % slow: 30 ms
// a second. Left alone that drift is a phase step every few periods. So the follower measures
// the frames' rate in host time — the host-time filter's map of the period's first frame, over
// a window of 0.5 s after a discontinuity, then 1 and 2 s — and
// trims the clock (`BeatClock.setRate`, journaled) when it is more than `tolerance` off; the
// phase follower then has only jitter and xruns left. Plain data the callback owns.
package struct LinkRateEstimator: BitwiseCopyable, Equatable {
    /// The window's first point: frames (unwrapped JACK frame time) and host µs; frames < 0: none.
    var anchorFrames: Double = -1
    var anchorHost: Double = 0
    /// The last rate measured (1 until a window was complete).
    var measured: Double = 1
    /// This window's length (seconds of frames): short after a reset, doubled up to `span`.
    var window: Double = LinkRateEstimator.firstSpan

    /// The window (seconds of frames) a rate is measured over: the first after a reset is short,
    /// each next one twice as long, up to `span`.
    static var firstSpan: Double { 0.5 }
    static var span: Double { 2 }
    /// A measured rate this far from the clock's (relative) is taken: 10 ppm drift 0.01 ms a second.
    static var tolerance: Double { 0.000_010 }
    /// A rate further than this from 1 is a broken measurement, not a clock. (A sound card is
    /// within 0.01 %; JACK's dummy driver, not real-time on a loaded machine, ran 3 % slow here.)
    static var limit: Double { 0.1 }

    // Thread: any (plain data; the callback's copy is RT)
    @_noLocks @_noAllocation
    init() {}

    /// Forgets the window (an xrun, a join: the filter restarted; a new output latency).
    // Thread: RT (or any, on its own copy)
    @_noLocks @_noAllocation
    mutating func reset() {
        anchorFrames = -1
        window = LinkRateEstimator.firstSpan
    }

    /// This period's first frame (`frames`) and its host time (`host`, µs, from the filter):
    /// the clock's rate to set now, or nil (no window yet, or the clock's `current` rate is right).
    /// `settled`: the filter is past its hold-off (its first points would bend the window).
    // Thread: RT (or any, on its own copy)
    @_noLocks @_noAllocation
    mutating func update(frames: Double, host: Double, sampleRate: Double, settled: Bool, current: Double) -> Double? {
        guard settled else {
            anchorFrames = -1
            return nil
        }
        guard anchorFrames >= 0 else {
            anchorFrames = frames
            anchorHost = host
            return nil
        }
        let spanFrames = frames - anchorFrames
        guard spanFrames >= window * sampleRate else { return nil }
        let rate = (host - anchorHost) / 1e6 / (spanFrames / sampleRate)
        window = min(LinkRateEstimator.span, window * 2)
        anchorFrames = frames
        anchorHost = host
        measured = rate
        guard abs(rate - 1) < LinkRateEstimator.limit, abs(rate - current) > LinkRateEstimator.tolerance else { return nil }
        return rate
    }
}
