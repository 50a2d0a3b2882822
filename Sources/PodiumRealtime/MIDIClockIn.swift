import PodiumEngine

// MIDI clock in (`--midi-clock in`, on podium:midi_in): a drum machine or another program leads
// the beat clock. Start arms the clock at beat 0 and Continue where it stands (or where Song
// Position Pointer put it); the next tick is then that beat, on its own frame. The tempo comes
// from the ticks' frames through a least-squares line over the last four beats (96 ticks),
// taken once a beat: a tick's jitter moves a line through 96 points very little, as Link's rate
// trim averages its measurements. The beat is stepped back in line only when it is more than a
// quarter tick off. Stop stops the clock. Every change is a re-anchoring of the clock, journaled
// (`reportClock`), so the performance replays exactly without the device.

/// What MIDI clock in remembers between messages (RT-owned plain data).
package struct MIDIClockIn: BitwiseCopyable {
    /// The last ticks: each one's number since Start (ticks lost on the way are counted, not
    /// assumed away) and JACK frame, in a ring; how many it holds and where the next goes.
    var indices: InlineArray<96, Int64>
    var frames: InlineArray<96, Int64>
    var count = 0
    var head = 0
    var nextIndex: Int64 = 0
    /// Start or Continue came: the next tick is `position`.
    var armed = false
    var running = false
    /// The beat of the next tick.
    var position = 0.0
    /// Ticks since the tempo was last estimated.
    var sinceTempo = 0

    package init() {
        indices = InlineArray(repeating: 0)
        frames = InlineArray(repeating: 0)
    }

    static var capacity: Int { @_noLocks @_noAllocation get { 96 } }
    static var ticksPerBeat: Double { @_noLocks @_noAllocation get { 24 } }
    /// Beats the clock may be off a tick before it is stepped back in line (a quarter tick).
    static var phaseTolerance: Double { @_noLocks @_noAllocation get { 1.0 / 96 } }

    /// The ring's i-th oldest entry.
    // Thread: RT
    @_noLocks @_noAllocation
    func entry(_ i: Int) -> (index: Int64, frame: Int64) {
        let at = (head - count + i + 2 * MIDIClockIn.capacity) % MIDIClockIn.capacity
        return (indices[at], frames[at])
    }

    /// The median of the last (up to 8) intervals between ticks, in frames (nil before two ticks).
    // Thread: RT
    @_noLocks @_noAllocation
    func typicalInterval() -> Double? {
        guard count >= 2 else { return nil }
        var gaps: InlineArray<8, Double> = InlineArray(repeating: 0)
        let n = min(8, count - 1)
        for i in 0..<n {
            let a = entry(count - 2 - i), b = entry(count - 1 - i)
            gaps[i] = Double(b.frame - a.frame) / Double(max(1, b.index - a.index))
        }
        for i in 1..<max(1, n) {  // insertion sort of at most 8
            var j = i
            while j > 0 && gaps[j - 1] > gaps[j] { let t = gaps[j]; gaps[j] = gaps[j - 1]; gaps[j - 1] = t; j -= 1 }
        }
        return gaps[n / 2]
    }

    /// The tempo the ring's ticks give (nil with fewer than a beat of them): the slope of a
    /// least-squares line through (tick number, frame).
    // Thread: RT
    @_noLocks @_noAllocation
    func tempo(sampleRate: Double) -> Double? {
        guard count >= 24 else { return nil }
        let first = entry(0)
        var meanIndex = 0.0, meanFrame = 0.0
        for i in 0..<count {
            let e = entry(i)
            meanIndex += Double(e.index - first.index)
            meanFrame += Double(e.frame - first.frame)
        }
        meanIndex /= Double(count)
        meanFrame /= Double(count)
        var sxy = 0.0, sxx = 0.0
        for i in 0..<count {
            let e = entry(i)
            let dx = Double(e.index - first.index) - meanIndex
            sxy += dx * (Double(e.frame - first.frame) - meanFrame)
            sxx += dx * dx
        }
        guard sxx > 0, sxy > 0 else { return nil }
        return 60 * sampleRate / (MIDIClockIn.ticksPerBeat * (sxy / sxx))
    }

    /// A tick at `frame`; returns how many ticks before it were lost (a gap of more than one and
    /// a half typical intervals: a cycle the leader or JACK dropped).
    // Thread: RT
    @_noLocks @_noAllocation
    mutating func add(_ frame: Int64) -> Int64 {
        var lost: Int64 = 0
        if count > 0, let typical = typicalInterval(), typical > 0 {
            let gap = Double(frame - entry(count - 1).frame)
            if gap > 1.5 * typical { lost = Int64(BeatClock.floor(gap / typical + 0.5)) - 1 }
        }
        nextIndex += lost
        indices[head] = nextIndex
        frames[head] = frame
        nextIndex += 1
        head = (head + 1) % MIDIClockIn.capacity
        count = min(count + 1, MIDIClockIn.capacity)
        return lost
    }

    /// Forgets the ticks (Start, Continue).
    // Thread: RT
    @_noLocks @_noAllocation
    mutating func forget() {
        count = 0
        nextIndex = 0
    }
}

/// One MIDI clock message from midi_in at JACK frame `at`, read before the k-cycle that starts
/// at `cycleStart` (at ≥ cycleStart). False when it is not a clock message (the caller goes on).
// Thread: RT
@_noLocks @_noAllocation
func midiClockIn(_ s: UnsafeMutablePointer<RTState>, _ bytes: UnsafePointer<UInt8>, count: Int, at: Int64, cycleStart: Int64) -> Bool {
    var input = s.pointee.clockIn
    var changed = false
    let beatsPerFrame = s.pointee.clock.beatsPerCycle / Double(max(1, s.pointee.clock.ksmps))
    let status = bytes[0]
    if status == MIDIRealTime.start {
        input.position = 0
        input.armed = true
        input.forget()
    } else if status == MIDIRealTime.resume {
        input.armed = true
        input.forget()
    } else if status == MIDIRealTime.stop {
        input.armed = false
        input.running = false
        if s.pointee.clock.running { s.pointee.clock.setRunning(false); changed = true }
    } else if status == MIDIRealTime.songPosition && count == 3 {
        // Sixteenths since the start; a device sends it while stopped.
        input.position = Double(Int(bytes[1] & 0x7F) | Int(bytes[2] & 0x7F) << 7) / 4
        if !input.running { s.pointee.clock.locate(input.position); changed = true }
    } else if status == MIDIRealTime.tick {
        if input.armed {
            // This tick is `position`: the beat at the k-cycle's start is as far before it.
            input.armed = false
            input.running = true
            s.pointee.clock.locate(input.position - Double(at - cycleStart) * beatsPerFrame)
            s.pointee.clock.setRunning(true)
            changed = true
            _ = input.add(at)
            input.sinceTempo = 0
        } else if input.running {
            // Ticks the leader sent that never came still count for its position.
            input.position += Double(input.add(at)) / MIDIClockIn.ticksPerBeat
            input.sinceTempo += 1
            if input.sinceTempo >= 24, let bpm = input.tempo(sampleRate: s.pointee.sampleRate) {
                input.sinceTempo = 0
                if bpm >= 1, bpm <= 999, abs(bpm - s.pointee.clock.tempo) > 0.005 { s.pointee.clock.setTempo(bpm); changed = true }
                // The clock's beat at this tick against the tick's own beat.
                let ours = s.pointee.clock.beat + Double(at - cycleStart) * s.pointee.clock.beatsPerCycle / Double(max(1, s.pointee.clock.ksmps))
                let error = ours - input.position
                if abs(error) > MIDIClockIn.phaseTolerance { s.pointee.clock.locate(s.pointee.clock.beat - error); changed = true }
            }
        }
        if input.running { input.position += 1 / MIDIClockIn.ticksPerBeat }
    } else {
        return false
    }
    s.pointee.clockIn = input
    if changed { reportClock(s) }
    return true
}
