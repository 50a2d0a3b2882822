import CLinkBridge

// Ableton Link start/stop sync (`--link-start-stop`): the session's play state drives the
// beat clock's running state, as JACK transport does in follow mode (Transport.swift).
//   - The session stops → the clock stops at once (its beat freezes; nothing waits for a beat).
//   - The session plays → the clock starts at the session's first bar line (phase 0) at or after
//     the start time (where Link's requestBeatAtStartPlayingTime(0) puts beat 0 when there are
//     peers; alone, the start time itself), on that frame: the clock is located so that its next
//     bar line falls exactly there (bar + the session's beat from that line, still negative). A
//     session that was already playing is joined on its phase (bar + phase).
//   - Podium's own start or stop (`:link start|stop`, `/podium/link/play`: a `.clock` command)
//     goes to the session: a stop stops the clock now and the session with it; a start asks the
//     session to play from its next bar, and the clock starts with the session as above.
// Each start and stop is a re-anchoring journaled by `reportClock`, so a replay makes them
// too. Only the bridge's audio-thread calls are made here.

/// A `.clock` command's start or stop, while start/stop sync is on: sent to the session (the
/// next sync commits it). Returns false when Link does not take it (the clock changes itself).
// Thread: RT
@_noLocks @_noAllocation
func linkTakesRunning(_ s: UnsafeMutablePointer<RTState>, _ run: Bool) -> Bool {
    guard s.pointee.linkStartStopActive else { return false }
    s.pointee.linkPlayingToCommit = run ? 1 : 0
    if !run, s.pointee.clock.running { s.pointee.clock.setRunning(false) }
    return true
}

/// Start/stop sync for this period. Returns true when the period is done with (the clock is
/// stopped, or was just started on the session's phase): no phase following this period.
// Thread: RT
@_noLocks @_noAllocation
func followLinkPlaying(_ s: UnsafeMutablePointer<RTState>, _ link: OpaquePointer, _ timing: podium_link_timing, frames n: Int) -> Bool {
    let quantum = s.pointee.clock.quantum
    var t = timing
    if s.pointee.linkPlayingToCommit >= 0 {
        let play = s.pointee.linkPlayingToCommit == 1
        s.pointee.linkPlayingToCommit = -1
        // The session has it from this host time on, and `t` becomes the committed session: a
        // start whose bar line falls in this very period starts in it (alone in a session,
        // beat 0 is this period's own frame). Judged below, as a start seen from a peer is.
        let at = t.host_time_us
        _unsafePerformance { podium_link_audio_commit_playing(link, play, quantum, at, &t) }
        counterAdd(s, .linkStartStops, 1)
        if !play { return true }  // `linkTakesRunning` stopped the clock already
    }
    let clock = s.pointee.clock
    if !t.playing {
        if clock.running {
            s.pointee.clock.setRunning(false)
            counterAdd(s, .linkStartStops, 1)
            reportClock(s)
        }
        return true
    }
    if clock.running { return false }
    // The session plays: from its first bar line at or after the start (where a start that asked
    // for beat 0 put it; the start/stop state and the remapped beats may arrive in either order,
    // so the bar line is found from the start time's phase, not from beat 0). Start when that
    // line falls in this period, or at once on the session's phase if it has passed.
    let downbeat = BeatClock.ceil(t.start_beat / quantum - 1e-9) * quantum
    let offset = t.beat - downbeat
    let periodBeats = Double(n) * t.tempo / (60 * clock.sampleRate)
    if offset <= -periodBeats { return true }
    let bar = clock.nextGridBeat(quantum)
    if linkTempoDiffers(t.tempo, clock.tempo) { s.pointee.clock.setTempo(t.tempo) }
    s.pointee.clock.setRunning(true)
    s.pointee.clock.locate(offset <= 0 ? bar + offset : bar + t.phase)
    counterAdd(s, .linkStartStops, 1)
    reportClock(s)
    return true
}
