import CAtomics
import PodiumEngine

// Hush (`:hush`, `/podium/hush`, the page's button, CC 123 on midi_in): in the k-cycle it
// applies in, every playing note of each instrument the orchestra defines is released with its
// release segment (`RTEngine.release`, over `RTState.hushNumbers`), every
// command waiting in the schedule is dropped (notes timed for later, loop iterations already
// posted), and all notes off goes out on every channel of midi_out after that k-cycle's
// messages. The live loops stop on their own thread (the supervisor sees the `.hush` record).
// Journaled with its instrument bound, so a replay releases the same instruments.

/// Hush now, before the k-cycle starting at `cycleStart`.
// Thread: RT
@_noLocks @_noAllocation
func hushNow(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, cycleStart: Int64) {
    let bound = s.pointee.instrumentBound.load(ordering: .relaxed)
    let count = s.pointee.hushCount.load(ordering: .acquiring)
    var i = 0
    while i < count {  // the driver stores at most RTLimits.hushCapacity
        let number = _unsafePerformance { podium_counter_load(s.pointee.hushNumbers + i) }
        engine.release(instrument: number < 1 << 31 ? Int(number) : 0)
        i += 1
    }
    if s.pointee.scheduled > 0 {
        counterAdd(s, .droppedByHush, UInt64(s.pointee.scheduled))
        s.pointee.scheduled = 0
    }
    s.pointee.hushMIDI = true
    counterAdd(s, .hushes, 1)
    var record = Applied(kind: .hush, id: 0, cycle: s.pointee.cycle, frame: cycleStart)
    record.command.value = Double(bound)
    report(s, record)
}

/// All notes off (controller 123) on the 16 channels of midi_out, at `frame`.
// Thread: RT
@_noLocks @_noAllocation
func sendAllNotesOff(_ s: UnsafeMutablePointer<RTState>, _ buffer: UnsafeMutableRawPointer, frame: Int) {
    var message: InlineArray<3, UInt8> = [0xB0, 123, 0]
    for channel in 0..<16 {
        message[0] = 0xB0 | UInt8(channel)
        withUnsafeBytes(of: &message) { sendMIDI(s, buffer, frame: frame, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 3) }
    }
}
