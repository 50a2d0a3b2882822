import PodiumHost

/// Maps OSC timetags to JACK frames. JACK's own smoothed clock (its DLL) gives the frame for a
/// moment, but its estimate wanders (on a dummy server in a VM, by up to a period between two
/// readings), so two timetags N frames apart could land N±250 apart. Podium anchors a burst's
/// first timetag to JACK's frame and counts the rest of the burst from that anchor at the
/// nominal rate: bundles N frames apart start exactly N frames apart (as in scsynth). A new
/// anchor is taken after two seconds without timetags, or when the two clocks drift more than
/// 20 ms apart. (A quarter second re-anchored every event of a sparse stream — Tidal's `bd*4`
/// at 0.5625 cps sends one bundle every 0.44 s — so each landed where JACK's wandering estimate
/// put it: measured 162 frames off under load.)
struct TimetagClock {
    var anchorNTP = 0.0
    var anchorFrame: Int64 = 0
    var lastUse: ContinuousClock.Instant?
    var idle: Duration = .seconds(2)
    var tolerance: Int64 = 960

    // Thread: NRT (OSC)
    mutating func frame(ntp t: Double, now: Double, jack driver: JackDriver) -> Int64? {
        guard let jackFrame = driver.frame(secondsFromNow: t - now) else { return nil }
        let sr = driver.engine.sampleRate
        let clockNow = ContinuousClock.now
        defer { lastUse = clockNow }
        if let last = lastUse, clockNow - last < idle {
            let counted = anchorFrame + Int64(((t - anchorNTP) * sr).rounded())
            if abs(counted - jackFrame) <= tolerance { return counted }
        }
        anchorNTP = t
        anchorFrame = jackFrame
        return jackFrame
    }
}
