import CJack
import PodiumEngine

// JACK transport (`--transport master|follow|off`). The beat clock (`BeatClock`, owned by the
// callback) stays the one source of musical time; the transport only reads it (master) or moves
// it through its ordinary re-anchorings (follow), each journaled by `reportClock`, so a session
// played under either mode replays bit for bit.
//
// Threads:
// - master: `podiumTimebase` fills JACK's BBT from `RTState.clock`. JACK2 calls a timebase
//   callback on the client's process thread right after its process callback returned
//   (JackClient::CycleSignalAux → CallTimebaseCallbackAux), so it reads the clock the process
//   callback has just advanced, with no other thread in between. The position it fills is
//   JACK's *pending* one: `pos->frame` is the first frame of the next period, whose beat is the
//   clock's beat after this period's k-cycles.
// - follow: `followTransport` runs in the process callback before the command rings are drained
//   (`jack_transport_query` is real-time safe: it copies the position from shared memory).
// - registration, `jack_transport_start`, `jack_release_timebase`: NRT, through `JackAPI`.
//   Master mode registers the timebase before `jack_activate`, starts the transport once the
//   ports are connected and releases the timebase before deactivating; a start JACK2 holds in
//   Starting is located again by the supervisor (`TransportStartWatch`).
// Follow: stopped or starting stops the clock, rolling runs it; a frame that is not where the last
// period left it, or a master's BBT more than 3 ticks from where its last BBT and BPM put it, is
// a `locate` (to the BBT's beat, with `tick_double` when given, else frame / sr × tempo / 60);
// a master's BPM and beats per bar become the clock's. While the clock is stopped nothing
// waiting for a beat starts (`isDue`) and the loops post nothing; a relocation drops the
// commands waiting for a beat (`dropBeatTimed`, counted as `droppedOnLocate`).

/// How Podium meets JACK transport.
public enum TransportMode: String, Sendable, CaseIterable {
    /// Podium's clock runs on its own; the transport is left alone.
    case off
    /// Podium is timebase master: it starts the transport and publishes bar, beat, tick and BPM.
    case master
    /// Transport start, stop and relocation start, stop and move Podium's clock; a master's BBT
    /// (position, BPM, beats per bar) is taken as it is.
    case follow

    /// As the callback stores it (`RTState.transportMode`).
    package var code: Int { self == .off ? 0 : self == .master ? 1 : 2 }
}

/// What the follower remembers between two periods (RT-owned plain data).
package struct TransportFollower: BitwiseCopyable {
    /// A transport position was seen before (the first one is always taken).
    var seen = false
    /// The transport frame of the last period and whether it was rolling then.
    var lastFrame: Int64 = 0
    var lastRolling = false
    /// The beat the master's BBT gave last period, and its BPM (-1: no BBT then).
    var lastBeat = -1.0
    var lastTempo = 0.0

    /// JACK's usual resolution: 1920 ticks a beat.
    static var ticksPerBeat: Double { 1920 }
    /// A master's BBT that lands more than this many ticks from where its last BBT and BPM put
    /// it is a jump (a relocation in musical time); less is the master's own rounding.
    static var jumpTicks: Double { 3 }

    /// The beat a BBT position describes (bar and beat count from 1).
    // Thread: any
    @_noLocks @_noAllocation
    static func beat(bar: Int32, beat: Int32, tick: Double, beatsPerBar: Double, ticksPerBeat: Double) -> Double {
        Double(bar - 1) * beatsPerBar + Double(beat - 1) + tick / ticksPerBeat
    }
}

extension TransportFollower {
    /// Nothing seen yet (the driver resets the follower before activation).
    package static var fresh: TransportFollower { TransportFollower() }
}

/// Whole, clamped to Int32 (a C field must never trap the audio thread).
// Thread: any
@_noLocks @_noAllocation @inline(__always)
func clampedInt32(_ x: Double) -> Int32 {
    x >= 2_147_483_647 ? Int32.max : x <= -2_147_483_648 ? Int32.min : Int32(x)
}

/// Fills `pos`'s BBT fields with the clock's position: the clock's beat is the beat at `pos.frame`.
// Thread: RT (timebase callback) or any, on a caller's position
@_noLocks @_noAllocation
func fillBBT(_ pos: UnsafeMutablePointer<jack_position_t>, from clock: BeatClock) {
    let ticksPerBeat = TransportFollower.ticksPerBeat
    let beat = max(0, clock.beat), quantum = clock.quantum
    let bars = BeatClock.floor(beat / quantum)
    let inBar = max(0, beat - bars * quantum)
    let beats = BeatClock.floor(inBar)
    let ticks = min(ticksPerBeat - 1, BeatClock.floor((inBar - beats) * ticksPerBeat))
    pos.pointee.bar = clampedInt32(bars + 1)
    pos.pointee.beat = clampedInt32(beats + 1)
    pos.pointee.tick = clampedInt32(ticks)
    // The tick with its fraction (a tick is 12.5 frames at 120 BPM and 48 kHz): a follower that
    // reads it lands its beats on the master's frames, not up to a tick late.
    pos.pointee.tick_double = min(ticksPerBeat, max(0, (inBar - beats) * ticksPerBeat))
    pos.pointee.bar_start_tick = bars * quantum * ticksPerBeat
    pos.pointee.beats_per_bar = Float(quantum)
    pos.pointee.beat_type = 4
    pos.pointee.ticks_per_beat = ticksPerBeat
    pos.pointee.beats_per_minute = clock.tempo
    pos.pointee.valid = jack_position_bits_t(rawValue: pos.pointee.valid.rawValue | _unsafePerformance { JackPositionBBT.rawValue | JackTickDouble.rawValue })
}

/// JACK's timebase callback (master mode): BBT of the next period's first frame.
// Thread: RT (JACK's process thread, right after `podiumProcess`; see the top of this file)
@_noLocks @_noAllocation
package func podiumTimebase(_ state: jack_transport_state_t, _ nframes: jack_nframes_t, _ pos: UnsafeMutablePointer<jack_position_t>?,
                    _ newPosition: Int32, _ arg: UnsafeMutableRawPointer?) {
    guard let pos, let arg else { return }
    fillBBT(pos, from: arg.assumingMemoryBound(to: RTState.self).pointee.clock)
}

/// Follow mode: the transport's state and position move the clock, before this period's
/// commands are drained. Stopped (or starting) freezes the beat, rolling runs it. A relocation
/// — the frame is not where the last period left it, or a master's BBT jumped (it is not where
/// its last BBT and BPM put it) — locates the clock: to the BBT's beat when a master gives one,
/// else to the frame at the clock's tempo. A master's BPM and beats per bar are taken as they
/// change. Between jumps the clock counts frames at the master's BPM: a master whose ticks drift
/// from its own BPM (jack_transport's example timebase truncates its ticks every period) is not
/// chased. Every change is a re-anchoring of the clock, journaled once for the period.
// Thread: RT
@_noLocks @_noAllocation
func followTransport(_ s: UnsafeMutablePointer<RTState>, frames n: Int) {
    guard let client = s.pointee.client else { return }
    var pos = jack_position_t()
    let state = _unsafePerformance { jack_transport_query(client, &pos) }
    let rolling = state.rawValue == _unsafePerformance { JackTransportRolling.rawValue }
    let frame = Int64(pos.frame)
    let last = s.pointee.follower
    let rate = pos.frame_rate > 0 ? Double(pos.frame_rate) : s.pointee.clock.sampleRate
    var relocated = !last.seen || frame != last.lastFrame + (last.lastRolling ? Int64(n) : 0)
    var changed = false
    var next = TransportFollower(seen: true, lastFrame: frame, lastRolling: rolling)

    let bbt = pos.valid.rawValue & _unsafePerformance { JackPositionBBT.rawValue } != 0
        && pos.ticks_per_beat > 0 && pos.beats_per_bar > 0 && pos.bar >= 1 && pos.beat >= 1
    var target = -1.0
    if bbt {
        let bpm = pos.beats_per_minute, perBar = Double(pos.beats_per_bar)
        if bpm >= 1, bpm <= 999, bpm != s.pointee.clock.tempo { s.pointee.clock.setTempo(bpm); changed = true }
        if perBar <= 64, perBar != s.pointee.clock.quantum { s.pointee.clock.setQuantum(perBar); changed = true }
        // A master that gives the tick's fraction (JackTickDouble, as Podium's does) is followed to it.
        let fine = pos.valid.rawValue & _unsafePerformance { JackTickDouble.rawValue } != 0
            && pos.tick_double.isFinite && pos.tick_double >= 0 && pos.tick_double <= pos.ticks_per_beat
        let beat = TransportFollower.beat(bar: pos.bar, beat: pos.beat, tick: fine ? pos.tick_double : Double(pos.tick), beatsPerBar: perBar,
                                          ticksPerBeat: pos.ticks_per_beat)
        let expected = last.lastBeat + (last.lastRolling ? Double(n) * last.lastTempo / (60 * rate) : 0)
        let jump = TransportFollower.jumpTicks / pos.ticks_per_beat
        if last.lastBeat < 0 || beat - expected > jump || expected - beat > jump { relocated = true }
        if relocated { target = beat }
        next.lastBeat = beat
        next.lastTempo = bpm
    } else if relocated {
        target = Double(frame) / rate * s.pointee.clock.tempo / 60
    }
    if target >= 0, target != s.pointee.clock.beat {
        s.pointee.clock.locate(target)
        dropBeatTimed(s)
        changed = true
    }
    if rolling != s.pointee.clock.running { s.pointee.clock.setRunning(rolling); changed = true }
    s.pointee.follower = next
    if changed { reportClock(s) }
}

/// A relocation cancels the commands waiting for a beat: a note for beat 41 must neither sound
/// when the beat comes round again after a jump back (the loops post it again) nor all at once
/// after a jump forward. Never applied, so never journaled (replay agrees); counted.
// Thread: RT
@_noLocks @_noAllocation
func dropBeatTimed(_ s: UnsafeMutablePointer<RTState>) {
    var i = 0
    while i < s.pointee.scheduled {
        if s.pointee.schedule[i].onBeat {
            s.pointee.scheduled -= 1
            s.pointee.schedule[i] = s.pointee.schedule[s.pointee.scheduled]
            counterAdd(s, .droppedOnLocate, 1)
        } else {
            i += 1
        }
    }
}

