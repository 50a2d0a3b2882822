import CAtomics
import CJack
import CLinkBridge

// The callback's half of Ableton Link: once a period, the beat clock meets the Link session.
//
// Link answers in host time (its clock, µs); the clock counts performed frames. The bridge maps
// the period's first frame to host time with Link's HostTimeFilter (fed with JACK's estimate of
// the cycle's start, `cycleStart`) and adds the output latency of Podium's ports, so the question asked is "which beat does the session play when this
// period's first frame is *heard*". The local clock then follows the session:
//   - a tempo that differs → `setTempo` (re-anchored, the beat does not jump);
//   - a phase (beats into the quantum) that differs → `locate` by the difference, wrapped into
//     ±quantum/2, when `LinkPhaseFollower` says so (deadband, confirmation, one step after an
//     xrun): only the phase is shared, the beat number stays Podium's (loops keep their beats);
//   - with start/stop sync, the session's play state starts and stops the clock (LinkStartStop.swift);
// each journaled by `reportClock`, so a replay (which never asks Link) makes the same moves.
// Podium's own tempo changes (`.clock` commands: `:tempo`, `/podium/tempo`, scripts) are
// committed to the session from here, at the same host time, so peers follow. On the first
// sync after Link is enabled, Podium proposes its tempo and its beat (`requestBeatAtTime`): alone,
// the session takes them; in a session with peers, Link keeps the session's phase.
// Only the bridge's audio-thread calls are made here (capture/commit of the audio session state).
// The filter is a linear regression over the last 512 (frame, host µs) pairs, fed JACK's cycle
// start (`cycleStart`) and restarted after an xrun. Fed each client's wake-up time instead, as
// Link's JACK example does, two hosts on one server differed by their order in the graph (a
// steady 5 frames) and by up to 100 frames under xruns. Rate and phase: LinkRate.swift and
// LinkFollower.swift; the app side, the bridge's lifetime and measurements: LinkDriver.swift.

/// A session tempo to adopt: one that differs from the clock's by more than Link's resolution
/// (Link carries tempo as µs per beat; differences below 0.0005 BPM are its rounding).
// Thread: RT
@_noLocks @_noAllocation
func linkTempoDiffers(_ session: Double, _ clock: Double) -> Bool {
    session > 0 && abs(session - clock) > 0.000_5
}

/// When this period's first frame began, in Link's clock (µs): JACK's own estimate of the
/// cycle's start (its DLL: smooth, and the same for every client of the cycle), moved from JACK's
/// clock to Link's (`CLOCK_MONOTONIC_RAW`) by their difference, read back to back each period (a
/// read the scheduler interrupted is not used). Without cycle times: Link's clock now.
// Thread: RT
@_noLocks @_noAllocation
func cycleStart(_ s: UnsafeMutablePointer<RTState>, _ link: OpaquePointer) -> Int64 {
    let client = s.pointee.client
    var frames: jack_nframes_t = 0, current: jack_time_t = 0, next: jack_time_t = 0
    var period: Float = 0
    let r1 = _unsafePerformance { podium_link_clock_micros(link) }
    let jackNow = _unsafePerformance { Int64(jack_get_time()) }
    let r2 = _unsafePerformance { podium_link_clock_micros(link) }
    if r2 - r1 <= 20 || s.pointee.linkClockOffset == .min { s.pointee.linkClockOffset = (r1 + r2) / 2 - jackNow }
    let ok = _unsafePerformance { jack_get_cycle_times(client, &frames, &current, &next, &period) } == 0
    return ok && current > 0 ? Int64(current) + s.pointee.linkClockOffset : r1
}

/// Follows (or leads) the Link session for this period. Call after the period's commands were
/// drained (a tempo set now is committed at the period's start) and before its first k-cycle.
// Thread: RT
@_noLocks @_noAllocation
func syncWithLink(_ s: UnsafeMutablePointer<RTState>, frameTime: Int64, frames n: Int) {
    let bits = s.pointee.linkHandle.load(ordering: .acquiring)
    guard bits != 0, let link = OpaquePointer(bitPattern: bits) else { return }
    var t = podium_link_timing()
    let latency = Double(s.pointee.linkLatencyUs.load(ordering: .relaxed))
    let quantum = s.pointee.clock.quantum
    let start = cycleStart(s, link)
    // After an xrun JACK restarts its cycle-time estimate: the filter starts afresh too.
    let xruns = _unsafePerformance { podium_counter_load(s.pointee.stats + StatIndex.xruns.rawValue) }
    let restart = xruns != s.pointee.linkXrunsSeen
    s.pointee.linkXrunsSeen = xruns
    let frame32 = UInt32(truncatingIfNeeded: frameTime)
    s.pointee.linkSampleTime = s.pointee.linkSampleTime < 0 ? Int64(frame32)
        : s.pointee.linkSampleTime + Int64(frame32 &- s.pointee.linkLastFrame)
    s.pointee.linkLastFrame = frame32
    let sampleTime = Double(s.pointee.linkSampleTime)
    let captured = _unsafePerformance { podium_link_audio_capture(link, sampleTime, start, restart, latency, quantum, &t) }
    if restart { s.pointee.linkFollower.discontinuity(sampleRate: s.pointee.clock.sampleRate) }
    // Stopped without start/stop sync (JACK transport): the clock is not Link's to move.
    let latencyUs = Int64(latency)
    if restart || latencyUs != s.pointee.linkLastLatencyUs { s.pointee.linkRate.reset() }
    s.pointee.linkLastLatencyUs = latencyUs
    guard captured, s.pointee.clock.running || t.start_stop_sync else {
        // Left (or stopped by JACK transport): the clock runs on its own frames again.
        if !captured, s.pointee.clock.rate != 1 {
            s.pointee.clock.setRate(1)
            reportClock(s)
        }
        s.pointee.linkJoined = false
        s.pointee.linkTempoToCommit = false
        s.pointee.linkStartStopActive = false
        s.pointee.linkPlayingToCommit = -1
        return
    }
    if !s.pointee.linkJoined || s.pointee.linkTempoToCommit {
        let first = !s.pointee.linkJoined
        s.pointee.linkJoined = true
        s.pointee.linkTempoToCommit = false
        s.pointee.linkStartStopActive = t.start_stop_sync
        let tempo = s.pointee.clock.tempo, beat = s.pointee.clock.beat
        _unsafePerformance { podium_link_audio_commit(link, tempo, first, beat, quantum, t.host_time_us) }
        counterAdd(s, .linkTempoCommitted, 1)
        if first {
            s.pointee.linkFollower.discontinuity(sampleRate: s.pointee.clock.sampleRate)
            s.pointee.linkRate.reset()
        }
        return  // the session holds our tempo from this host time; its phase is checked next period
    }
    s.pointee.linkStartStopActive = t.start_stop_sync
    if t.start_stop_sync {
        if followLinkPlaying(s, link, t, frames: n) { return }
    } else {
        s.pointee.linkPlayingToCommit = -1
    }
    followLinkPhase(s, t, frames: n, at: sampleTime, host: Double(t.host_time_us - latencyUs))
}

/// The session's tempo and phase at the heard time → Podium's clock (a running clock, joined);
/// the frames' rate in host time (`frames` at `host` µs: the period's first) → the clock's rate.
// Thread: RT
@_noLocks @_noAllocation
func followLinkPhase(_ s: UnsafeMutablePointer<RTState>, _ t: podium_link_timing, frames n: Int, at frames: Double, host: Double) {
    var changed = false
    let here = s.pointee.clock, quantum = here.quantum
    if linkTempoDiffers(t.tempo, here.tempo) {
        s.pointee.clock.setTempo(t.tempo)
        counterAdd(s, .linkTempoAdopted, 1)
        changed = true
    }
    let settled = s.pointee.linkFollower.holdOff == 0
    let trim = s.pointee.linkRate.update(frames: frames, host: host, sampleRate: here.sampleRate, settled: settled, current: here.rate)
    s.pointee.linkMeasuredRatePpb.store(Int64((s.pointee.linkRate.measured - 1) * 1e9), ordering: .relaxed)
    if let rate = trim {
        s.pointee.clock.setRate(rate)
        counterAdd(s, .linkRateTrims, 1)
        changed = true
    }
    var d = t.phase - here.phase
    if d > quantum / 2 { d -= quantum } else if d <= -quantum / 2 { d += quantum }
    let seconds = t.tempo > 0 ? d * 60 / t.tempo : 0
    if let step = s.pointee.linkFollower.correction(error: seconds, frames: n) {
        s.pointee.clock.locate(s.pointee.clock.beat + step * t.tempo / 60)
        counterAdd(s, .linkPhaseCorrections, 1)
        s.pointee.linkLastCorrectionUs.store(Int64(step * 1e6), ordering: .relaxed)
        changed = true
    }
    if changed { reportClock(s) }
}
