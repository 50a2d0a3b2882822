import CAtomics
import CJack
import PodiumEngine

// The callback's commands: reading the producers' rings, the schedule of commands that wait
// for their frame or beat, and applying one command to the engine.
//
// A `Command`'s `timing`: `.frame`; `.grid` (the next multiple of `beat` beats, found when the
// callback drains the command, so "the next bar" is the next bar when the audio thread reads
// it); or `.beat` (an absolute beat). Such commands wait by beat; in the k-cycle their beat falls
// in, `isDue` makes them frame-timed at the first frame at or after the beat and turns p3 from
// beats into seconds at the tempo then, so a tempo change moves waiting notes with the music.
// Surfaces choose the timing: `TimePrefix` (`@bar`, `@beat`, `@Nbeats`, `@now`) and the
// performance-wide `driver.quantization` (`:quant`, `/podium/quant`).
// Limits here: 128 notes a callback (the rest waits in its ring, in order; an `f` statement
// weighs by its GEN's work, TableCost.swift), 1000 active voices (counted each k-cycle by the
// host's `podium_voices` instrument; refused notes are counted, never journaled), the
// `LoadGuard`, and an `f` statement that redefines a table at another size refused.

/// Reads every producer's ring. Commands due now apply before the first k-cycle; later ones wait.
// Thread: RT
@_noLocks @_noAllocation
func drainCommands(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, cycleStart: Int64, ksmps: Int) {
    let count = s.pointee.ringCount.load(ordering: .acquiring)
    var command = Command.zero
    for r in 0..<count {
        guard let ring = s.pointee.rings[r] else { continue }
        // Past the budget, what is left waits in the ring for the next callback (in order).
        while s.pointee.budget > 0, withUnsafeMutableBytes(of: &command, { ring.read(into: $0.baseAddress!) }) {
            if command.generation != s.pointee.generation {
                report(s, Applied(kind: .stale, id: command.id, cycle: s.pointee.cycle, frame: cycleStart))
                continue
            }
            // Musical timing: the grid point is found now (the beat at this callback's start),
            // then the command waits for its beat in the schedule (tempo changes move it with the music).
            if command.onGrid {
                command.beat = s.pointee.clock.nextGridBeat(command.beat)
                command.timing = .beat
            }
            if command.onBeat, command.isEvent, command.count > 1 {
                command.beat += command.pfields[1]
                command.pfields[1] = 0
            }
            if command.onBeat || command.frame > cycleStart + Int64(ksmps) - 1 {
                if s.pointee.scheduled < s.pointee.scheduleCapacity {
                    s.pointee.schedule[s.pointee.scheduled] = command
                    s.pointee.scheduled += 1
                    continue
                }
                counterAdd(s, .scheduleFull, 1)
                report(s, Applied(kind: .scheduleFull, id: command.id, cycle: s.pointee.cycle, frame: cycleStart))
                if command.onBeat { startNow(s, &command, cycleStart: cycleStart, offset: 0) }
            } else if command.frame != 0 && command.frame < cycleStart {
                counterAdd(s, .lateCommands, 1)
            }
            apply(s, engine, &command, cycleStart: cycleStart)
        }
        if s.pointee.budget <= 0, ring.hasRecord { counterAdd(s, .deferredCommands, 1) }
    }
}

/// Applies scheduled commands whose frame falls in this k-cycle (or has passed).
// Thread: RT
@_noLocks @_noAllocation
func applyDue(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, cycleStart: Int64, ksmps: Int) {
    var i = 0
    while i < s.pointee.scheduled {
        if s.pointee.budget <= 0 {
            counterAdd(s, .deferredCommands, 1)  // due commands stay scheduled for the next callback
            return
        }
        if isDue(s, &s.pointee.schedule[i], cycleStart: cycleStart, ksmps: ksmps) {
            var command = s.pointee.schedule[i]
            s.pointee.scheduled -= 1
            s.pointee.schedule[i] = s.pointee.schedule[s.pointee.scheduled]
            apply(s, engine, &command, cycleStart: cycleStart)
        } else {
            i += 1
        }
    }
}

/// Whether a scheduled command starts in this k-cycle. A command waiting for a beat that
/// falls in it becomes a frame-timed one at that beat's frame (the first frame at or after the
/// beat), p3 turned from beats into seconds at the tempo it starts with.
// Thread: RT
@_noLocks @_noAllocation
func isDue(_ s: UnsafeMutablePointer<RTState>, _ command: inout Command, cycleStart: Int64, ksmps: Int) -> Bool {
    guard command.onBeat else { return command.frame < cycleStart + Int64(ksmps) }
    // A stopped clock (JACK transport stopped, in follow mode) never reaches the beat: it waits.
    guard s.pointee.clock.running else { return false }
    let offset = s.pointee.clock.framesUntil(command.beat)
    guard offset < Int64(ksmps) else { return false }
    if offset < 0 { counterAdd(s, .lateCommands, 1) }
    startNow(s, &command, cycleStart: cycleStart, offset: max(0, offset))
    return true
}

/// A command timed in beats, made to start `offset` frames into this k-cycle.
// Thread: RT
@_noLocks @_noAllocation
func startNow(_ s: UnsafeMutablePointer<RTState>, _ command: inout Command, cycleStart: Int64, offset: Int64) {
    command.frame = cycleStart + offset
    command.timing = .frame
    if command.isEvent, command.count > 2, command.pfields[2] > 0 {
        command.pfields[2] *= 60 / s.pointee.clock.tempo
    }
}

// Thread: RT
@_noLocks @_noAllocation
func apply(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, _ command: inout Command, cycleStart: Int64) {
    switch command.kind {
    case .event:
        // The voice limit: the engine's active instances at the last k-cycle, plus the notes
        // this callback started since. Releases (negative p1) always pass. Not applied, not journaled.
        // The DSP load guard: while the callback is busy, the voices may not grow (LoadGuard.swift).
        if command.pfields[0] > 0 {
            let voices = RTEngine.load(engine.voices) + Double(s.pointee.eventsPerCallback - s.pointee.budget)
            if voices >= s.pointee.maximumVoices {
                counterAdd(s, .voiceLimited, 1)
                reportRefusal(s, command, reason: 1, cycleStart: cycleStart)
                return
            }
            if !s.pointee.loadGuard.admits(voices: voices) {
                counterAdd(s, .loadLimited, 1)
                reportRefusal(s, command, reason: 2, cycleStart: cycleStart)
                return
            }
        }
        // With --sample-accurate the event starts at its own frame inside the k-cycle.
        // Csound turns p2 back into a sample count by truncation: a start that lands a hair
        // below a whole sample (floating point) would become the previous sample, which
        // Csound reads as the last frame of the cycle. A quarter sample keeps it on its frame.
        // And Csound 6.18 picks the k-cycle that activates an event by rounding its time to the
        // nearest k-cycle, then places it at (time mod ksmps) inside that cycle: an offset in
        // the second half of a cycle would sound one k-cycle late. Asking for one ksmps earlier
        // (a negative p2) activates it now, at the same offset.
        // Csound 6.18 crashes (a negative copy length in kperf) when a note started with a
        // negative p2 ends, by its p2 + p3, inside the k-cycle it starts in (measured: p2 = -96,
        // p3 = 240 frames at ksmps 256). Such a note — shorter than about one and a half
        // k-cycles — is lengthened to end one sample after the k-cycle.
        if s.pointee.sampleAccurate && command.count > 1 {
            var offset = command.frame > cycleStart ? Double(command.frame - cycleStart) : 0
            let ksmps = Double(engine.ksmps)
            if offset >= ksmps / 2 && (command.count <= 2 || command.pfields[2] != 0) {
                offset -= ksmps
                if command.count > 2 && command.pfields[2] > 0 {
                    let sr = s.pointee.sampleRate
                    let minimum = ksmps - (offset + 0.25) + 1   // p2 + p3 past the end of the k-cycle
                    if command.pfields[2] * sr < minimum { command.pfields[2] = minimum / sr }
                }
            }
            command.pfields[1] += (offset + 0.25) / s.pointee.sampleRate
        }
        let count = Int(command.count)
        withUnsafeMutableBytes(of: &command.pfields) { p in
            engine.scoreEvent(p.baseAddress!.assumingMemoryBound(to: Double.self), count: count)
        }
        s.pointee.budget -= 1
    case .table:
        // A table weighs on the budget by its work: two of the largest score text may build
        // fill a callback's budget (the GEN routine runs here, on the audio thread).
        s.pointee.budget -= 1 + Int(TableStatement.cost(gen: command.pfields[3], size: command.pfields[2],
                                                          arguments: Int(command.count) - 4) / 1024)
        // Csound 6.18 frees a table that an f statement redefines at another size, under any
        // note reading it: such a redefinition is refused (checked producers keep the numbers
        // whole and in range). The same size rewrites the table in place.
        let number = command.pfields[0], size = command.pfields[2]
        guard number >= 1, number <= s.pointee.maximumTableNumber, size >= 1, size <= s.pointee.maximumTableSize else { return }
        let existing = engine.tableLength(Int32(number))
        let wanted = Int32(size)
        let length = wanted > 1 && (wanted - 1) & (wanted - 2) == 0 ? wanted - 1 : wanted  // a guard point is not counted
        if existing > 0 && existing != length {
            var refused = Applied(kind: .tableRefused, id: command.id, cycle: s.pointee.cycle, frame: cycleStart, command: command)
            refused.command.value = Double(existing)
            report(s, refused)
            counterAdd(s, .refusedTables, 1)
            return
        }
        let count = Int(command.count)
        withUnsafeBytes(of: &command.pfields) { p in
            engine.tableEvent(p.baseAddress!.assumingMemoryBound(to: Double.self), count: count)
        }
    case .tableFill:
        // A slice of a table computed off the audio thread (TableStaging): a copy, at most
        // TableStaging.sliceLength values, two slices a callback at most.
        s.pointee.budget -= s.pointee.eventsPerCallback / 2
        // Counted once the copy is done: the sender frees the values when every slice is counted.
        guard let values = command.storage,
              engine.fillTable(Int32(command.pfields[0]), from: values.assumingMemoryBound(to: Double.self),
                               offset: Int(command.pfields[1]), count: Int(command.pfields[2])) else {
            counterAdd(s, .refusedTables, 1)
            _unsafePerformance { podium_counter_add_release(s.pointee.stats + StatIndex.stagedSlices.rawValue, 1) }
            return
        }
        _unsafePerformance { podium_counter_add_release(s.pointee.stats + StatIndex.stagedSlices.rawValue, 1) }
        s.pointee.slicesThisCallback += 1
    case .setControl:
        if let ch = command.channel { RTEngine.store(ch, command.value) }
    case .setString:
        storeString(s, command)
    case .clock:
        applyClockChange(s, command)
        counterAdd(s, .commands, 1)
        return  // journaled as the clock's new state (`reportClock`)
    case .momentary:
        if let ch = command.channel { s.pointee.momentary.set(ch, command.value) }
    case .hush:
        counterAdd(s, .commands, 1)
        hushNow(s, engine, cycleStart: cycleStart)
        return  // journaled as `.hush`, with its bound
    }
    counterAdd(s, .commands, 1)
    report(s, Applied(kind: .command, id: command.id, cycle: s.pointee.cycle, frame: cycleStart, command: command))
}

/// A refused note by its id (1: the voice limit, 2: the DSP load guard), while this callback
/// may still report one (RTLimits.refusalsReported).
// Thread: RT
@_noLocks @_noAllocation
func reportRefusal(_ s: UnsafeMutablePointer<RTState>, _ command: Command, reason: Double, cycleStart: Int64) {
    guard s.pointee.refusalsLeft > 0 else { return }
    s.pointee.refusalsLeft -= 1
    var refused = Applied(kind: .noteRefused, id: command.id, cycle: s.pointee.cycle, frame: cycleStart, command: command)
    refused.command.value = reason
    report(s, refused)
}
