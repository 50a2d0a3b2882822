import CJack
import CLinkBridge

// The callback's half of Ableton Link: once a period, the beat clock meets the Link session.
//
// Link answers in host time (its clock, µs); the clock counts performed frames. The bridge maps
// the period's first frame to host time with Link's HostTimeFilter (fed with JACK's estimate of
// the cycle's start, `cycleStart`) and adds the output latency of Podium's ports, so the question asked is "which beat does the session play when this
// period's first frame is *heard*". The local clock then follows the session:
//   - a tempo that differs → `setTempo` (re-anchored, the beat does not jump);
//   - a phase (beats into the quantum) that differs by more than `LinkSync.tolerance` seconds →
//     `locate` by the difference, wrapped into ±quantum/2: only the phase is shared, the beat
//     number stays Podium's (loops keep their beats);
// each journaled by `reportClock`, so a replay (which never asks Link) makes the same moves.
// Podium's own tempo changes (`.clock` commands: `:tempo`, `/podium/tempo`, scripts) are
// committed to the session from here, at the same host time, so peers follow. On the first
// sync after Link is enabled, Podium proposes its tempo and its beat (`requestBeatAtTime`): alone,
// the session takes them; in a session with peers, Link keeps the session's phase.
// Only the bridge's audio-thread calls are made here (capture/commit of the audio session state).

enum LinkSync {
    /// The largest phase difference (seconds) left uncorrected: corrections are re-anchorings,
    /// journaled; smaller ones are host-time-filter jitter.
    static var tolerance: Double { 0.000_25 }
    /// The smallest tempo difference (BPM) adopted (Link carries tempo as µs per beat).
    static var tempoTolerance: Double { 0.000_5 }
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
func syncWithLink(_ s: UnsafeMutablePointer<RTState>, frameTime: Int64) {
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
    guard captured, s.pointee.clock.running else {
        s.pointee.linkJoined = false
        s.pointee.linkTempoToCommit = false
        return
    }
    if !s.pointee.linkJoined || s.pointee.linkTempoToCommit {
        let first = !s.pointee.linkJoined
        s.pointee.linkJoined = true
        s.pointee.linkTempoToCommit = false
        let tempo = s.pointee.clock.tempo, beat = s.pointee.clock.beat
        _unsafePerformance { podium_link_audio_commit(link, tempo, first, beat, quantum, t.host_time_us) }
        counterAdd(s, .linkTempoCommitted, 1)
        return  // the session holds our tempo from this host time; its phase is checked next period
    }
    var changed = false
    let here = s.pointee.clock
    if abs(t.tempo - here.tempo) > LinkSync.tempoTolerance, t.tempo > 0 {
        s.pointee.clock.setTempo(t.tempo)
        counterAdd(s, .linkTempoAdopted, 1)
        changed = true
    }
    var d = t.phase - here.phase
    if d > quantum / 2 { d -= quantum } else if d <= -quantum / 2 { d += quantum }
    if abs(d) > LinkSync.tolerance * t.tempo / 60 {
        s.pointee.clock.locate(s.pointee.clock.beat + d)
        counterAdd(s, .linkPhaseCorrections, 1)
        s.pointee.linkLastCorrectionUs.store(Int64(d * 60 / t.tempo * 1e6), ordering: .relaxed)
        changed = true
    }
    if changed { reportClock(s) }
}
