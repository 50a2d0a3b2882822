import PodiumEngine

// MIDI clock out (`--midi-clock out`): 24 ticks a beat from the beat clock, each on its own
// frame inside the period (not rounded to the k-cycle), Start/Continue/Stop with the clock,
// Song Position Pointer after a locate. Ticks are computed per k-cycle from the clock as it
// stood at the k-cycle's start (it is linear within one) and written after that k-cycle's own
// messages, so JACK's buffer stays in frame order. Compensated by latency: a device's clock
// reaches it `midiOutLatency` frames after it is written, Podium's sound reaches the speakers
// `audioLatency` after; ticks go out `audioLatency - midiOutLatency` frames after the frame of
// their beat (the supervisor stores that in `RTState.midiClockOffset`), so the device's beat and
// Podium's sound coincide, as Link's latency compensation makes Link's.

/// What MIDI clock out remembers between k-cycles (RT-owned plain data).
package struct MIDIClockOut: BitwiseCopyable {
    /// The clock ran at the last k-cycle.
    var wasRunning = false
    /// The next tick to send: tick m marks beat m / 24.
    var nextTick: Int64 = 0
    /// The beat the next k-cycle should start at if nothing moved the clock (NaN: none yet).
    var expectedBeat = Double.nan
    /// The position last sent with Song Position Pointer while stopped (NaN: none).
    var stoppedAt = Double.nan

    package static var ticksPerBeat: Double { @_noLocks @_noAllocation get { 24 } }
    package init() {}
}

/// MIDI clock's one-byte messages.
enum MIDIRealTime {
    static var tick: UInt8 { @_noLocks @_noAllocation get { 0xF8 } }
    static var start: UInt8 { @_noLocks @_noAllocation get { 0xFA } }
    static var resume: UInt8 { @_noLocks @_noAllocation get { 0xFB } }
    static var stop: UInt8 { @_noLocks @_noAllocation get { 0xFC } }
    static var songPosition: UInt8 { @_noLocks @_noAllocation get { 0xF2 } }
}

/// The clock's messages for the k-cycle at `frame` (within the period), from `clock` as it was
/// at that k-cycle's start.
// Thread: RT
@_noLocks @_noAllocation
func midiClockOut(_ s: UnsafeMutablePointer<RTState>, _ buffer: UnsafeMutableRawPointer, clock: BeatClock, frame k: Int, ksmps: Int) {
    var out = s.pointee.clockOut
    let beat = clock.beat
    let offset = Int(s.pointee.midiClockOffset.load(ordering: .relaxed))
    // A jump of a tick or more is a locate; smaller steps (Link's phase corrections) only move
    // the next tick's frame.
    let moved = !out.expectedBeat.isNaN && abs(beat - out.expectedBeat) >= 1 / MIDIClockOut.ticksPerBeat
    if clock.running {
        if !out.wasRunning || moved {
            if out.wasRunning { sendByte(s, buffer, MIDIRealTime.stop, frame: k) }
            // Start from the top; elsewhere, the next sixteenth: Song Position Pointer, then Continue.
            let sixteenth = max(0, BeatClock.ceil(beat * 4 - 1e-9))
            if sixteenth == 0 {
                sendByte(s, buffer, MIDIRealTime.start, frame: k)
            } else {
                sendSongPosition(s, buffer, sixteenths: sixteenth, frame: k)
                sendByte(s, buffer, MIDIRealTime.resume, frame: k)
            }
            out.nextTick = Int64(sixteenth * 6)
        }
        // Every tick whose (compensated) frame falls in this k-cycle; one that is already late goes now.
        while true {
            let tickBeat = Double(out.nextTick) / MIDIClockOut.ticksPerBeat
            let at = Int(clamping: clock.framesUntil(tickBeat)) &+ offset
            if at >= ksmps { break }
            sendByte(s, buffer, MIDIRealTime.tick, frame: k + max(0, at))
            out.nextTick += 1
        }
        out.expectedBeat = beat + clock.beatsPerCycle
        out.stoppedAt = .nan
    } else {
        if out.wasRunning { sendByte(s, buffer, MIDIRealTime.stop, frame: k) }
        // Stopped somewhere new (a locate, or the start): where the device should continue from.
        if out.stoppedAt.isNaN || abs(beat - out.stoppedAt) > 1e-9 {
            sendSongPosition(s, buffer, sixteenths: max(0, BeatClock.ceil(beat * 4 - 1e-9)), frame: k)
            out.stoppedAt = beat
        }
        out.expectedBeat = beat
    }
    out.wasRunning = clock.running
    s.pointee.clockOut = out
}

// Thread: RT
@_noLocks @_noAllocation
func sendByte(_ s: UnsafeMutablePointer<RTState>, _ buffer: UnsafeMutableRawPointer, _ byte: UInt8, frame: Int) {
    var b = byte
    sendMIDI(s, buffer, frame: frame, &b, count: 1)
}

/// Song Position Pointer: sixteenths since the start, 14 bits.
// Thread: RT
@_noLocks @_noAllocation
func sendSongPosition(_ s: UnsafeMutablePointer<RTState>, _ buffer: UnsafeMutableRawPointer, sixteenths: Double, frame: Int) {
    let p = Int(min(sixteenths, 16383))
    var message: InlineArray<3, UInt8> = [MIDIRealTime.songPosition, UInt8(p & 0x7F), UInt8((p >> 7) & 0x7F)]
    withUnsafeBytes(of: &message) { sendMIDI(s, buffer, frame: frame, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 3) }
}
