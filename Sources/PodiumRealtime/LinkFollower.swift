// When the callback moves Podium's clock onto the Link session's phase (LinkSync.swift).
//
// Every correction is a step of the clock (`locate`) and a journal line, so the follower makes as
// few as it can while keeping the heard beat on the session's:
//   - a deadband: an error within `tolerance` is host-time-filter jitter, left alone;
//   - confirmation: an error beyond it must last `confirm` periods in a row, on one side, and
//     the step is their mean (a single noisy period never moves the clock);
//   - a hold-off after a discontinuity (an xrun, a join): the host-time filter restarts and
//     JACK's cycle-time estimate settles for a while, so for `holdOffSeconds` of audio only a
//     displacement beyond `jump` is corrected, once, at once (an xrun loses at least a period
//     of performed frames: a real displacement, several milliseconds); what is left after the
//     hold-off goes through the deadband and confirmation.
// So an xrun costs one step (two at most: the jump, then a residue beyond the deadband); quiet,
// none. Plain data the callback owns.
package struct LinkPhaseFollower: BitwiseCopyable, Equatable {
    /// Frames of audio still in the hold-off (0: following normally).
    var holdOff = 0
    /// The hold-off's one jump was made.
    var jumped = false
    /// Periods in a row whose error exceeded the tolerance on one side, and their sum (seconds).
    var over = 0
    var sum = 0.0

    /// The largest error (seconds) left uncorrected.
    static var tolerance: Double { 0.000_25 }
    /// Periods an error beyond the tolerance must last before it is corrected.
    static var confirm: Int { 4 }
    /// Audio (seconds) after a discontinuity during which only a jump is corrected.
    static var holdOffSeconds: Double { 0.25 }
    /// An error (seconds) corrected at once even in the hold-off: frames really lost.
    static var jump: Double { 0.002 }

    // Thread: any (plain data; the callback's copy is RT)
    @_noLocks @_noAllocation
    init() {}

    /// The host-time filter restarted (an xrun, a join): hold off for `holdOffSeconds`.
    // Thread: RT (or any, on its own copy)
    @_noLocks @_noAllocation
    mutating func discontinuity(sampleRate: Double) {
        holdOff = Int(LinkPhaseFollower.holdOffSeconds * sampleRate)
        jumped = false
        over = 0
        sum = 0
    }

    /// This period's error (seconds: the session's heard phase minus Podium's, wrapped) →
    /// the step to make now (seconds), or nil. `frames`: the period's length.
    // Thread: RT (or any, on its own copy)
    @_noLocks @_noAllocation
    mutating func correction(error e: Double, frames: Int) -> Double? {
        if holdOff > 0 {
            holdOff = max(0, holdOff - frames)
            guard !jumped, abs(e) > LinkPhaseFollower.jump else { return nil }
            jumped = true
            return e
        }
        guard abs(e) > LinkPhaseFollower.tolerance else {
            over = 0
            sum = 0
            return nil
        }
        if over > 0, (sum > 0) != (e > 0) {  // the other side: noise, start counting again
            over = 0
            sum = 0
        }
        over += 1
        sum += e
        guard over >= LinkPhaseFollower.confirm else { return nil }
        let mean = sum / Double(over)
        over = 0
        sum = 0
        return abs(mean) > LinkPhaseFollower.tolerance ? mean : nil
    }
}
