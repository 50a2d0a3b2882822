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
    mutating func frame(ntp t: Double, jack driver: JackDriver, now: () -> Double = { LoParser.ntpNow }) -> Int64? {
        guard let jackFrame = TimetagClock.reading(ntp: t, jack: driver, now: now) else { return nil }
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

    /// JACK's frame for the timetag `t`, from a reading of the two clocks close together: the
    /// system clock, JACK's, the system clock again. A thread preempted between them (or waiting
    /// for the driver's lock) puts the frame late by as long as it waited; past the tolerance that
    /// re-anchors the burst and every later event moves with it (SuperDirt's flood test saw two
    /// beats 23 and 32 ms short beside three other test processes). Up to four readings; the one
    /// whose system clock moved least is used.
    // Thread: NRT (OSC)
    static func reading(ntp t: Double, jack driver: JackDriver, now: () -> Double) -> Int64? {
        var best: (frame: Int64, spread: Double)?
        for _ in 0..<4 {
            let before = now()
            guard let frame = driver.frame(secondsFromNow: t - before) else { return nil }
            let spread = now() - before
            if best == nil || spread < best!.spread { best = (frame, spread) }
            if spread < 0.0005 { break }
        }
        return best?.frame
    }
}
