import CJack
import PodiumEngine

// `podium:midi_out`, written in the process callback: JACK's MIDI buffer is cleared once per
// period and filled in increasing frame order — each k-cycle's messages from the orchestra (its
// MIDI opcodes, at the k-cycle's first frame: where Csound computed them), then that k-cycle's
// clock ticks at their own frames. A full buffer (ENOBUFS) is counted, never waited for.

/// The MIDI output port's buffer for this period, cleared; nil without the port (counted when
/// JACK returns none).
// Thread: RT
@_noLocks @_noAllocation
func beginMIDIOut(_ s: UnsafeMutablePointer<RTState>, frames n: Int) -> UnsafeMutableRawPointer? {
    guard let port = s.pointee.midiOutPort else { return nil }
    guard let buffer = _unsafePerformance({ jack_port_get_buffer(port, jack_nframes_t(n)) }) else {
        counterAdd(s, .missingBuffers, 1)
        return nil
    }
    _unsafePerformance { jack_midi_clear_buffer(buffer) }
    return buffer
}

/// Writes one message at `frame` (within the period); false (counted) when the buffer is full.
// Thread: RT
@_noLocks @_noAllocation
@discardableResult
func sendMIDI(_ s: UnsafeMutablePointer<RTState>, _ buffer: UnsafeMutableRawPointer, frame: Int, _ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
    let rc = _unsafePerformance { jack_midi_event_write(buffer, jack_nframes_t(frame), bytes, count) }
    counterAdd(s, rc == 0 ? .midiOutSent : .midiOutFull, 1)
    return rc == 0
}

/// What the orchestra sent in the k-cycle just performed, at its first frame; the queue is then
/// emptied. Without a port the messages are dropped silently (nothing listens).
// Thread: RT
@_noLocks @_noAllocation
func writeOrchestraMIDI(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, _ buffer: UnsafeMutableRawPointer?, frame: Int) {
    let out = engine.midiOut
    let refused = out.refused &+ out.overflowed
    if refused != s.pointee.midiOutRefusedSeen {
        counterAdd(s, .midiOutRefused, refused &- s.pointee.midiOutRefusedSeen)
        s.pointee.midiOutRefusedSeen = refused
    }
    let count = out.count
    guard count > 0 else { return }
    defer { out.clear() }
    guard let buffer else { return }
    let bytes = out.bytes
    var i = 0
    while i < count {
        let n = RealtimeMIDIOutput.length(status: bytes[i])
        guard n > 0, i + n <= count else { break }  // the queue holds whole messages only
        sendMIDI(s, buffer, frame: frame, bytes + i, count: n)
        i += n
    }
}
