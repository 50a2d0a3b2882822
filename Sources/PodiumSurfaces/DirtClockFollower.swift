/// Follows TidalCycles' clock from its events (`/dirt/play`): Tidal sends no tempo message to
/// SuperDirt, but each slot's event carries `cps` and the `cycle` of its onset, and its timetag
/// says when that onset sounds. While the tempo holds, `frame − cycle/cps` (the frame of Tidal's
/// cycle 0) is the same for every event: a new `cps`, or that frame moved (`resetCycles`,
/// `nudgeAll`, a `setcps` to the same tempo), is a new segment of Tidal's timeline, and Podium's
/// clock is set to it there (a cycle is a bar, as for patterns).
///
/// The frames come from timetags, which JACK's clock maps with some jitter (up to a period on
/// a virtual machine): the onset frame must move by more than `tolerance` seconds to count.
public struct DirtClockFollower: Sendable {
    var cps: Double?
    var zeroFrame: Double = 0
    public var tolerance = 0.02

    public init() {}

    /// Whether this event (tempo `cps`, onset `cycle` on JACK frame `frame`) starts a new
    /// segment of Tidal's timeline: then Podium's clock should move to it.
    // Thread: any (one owner)
    public mutating func observe(cps: Double, cycle: Double, frame: Int64, sampleRate: Double) -> Bool {
        let zero = Double(frame) - cycle / cps * sampleRate
        if let known = self.cps, abs(known - cps) <= 1e-6 * cps, abs(zero - zeroFrame) <= tolerance * sampleRate { return false }
        self.cps = cps
        zeroFrame = zero
        return true
    }
}
