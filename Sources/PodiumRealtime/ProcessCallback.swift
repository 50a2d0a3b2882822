import CAtomics
import CJack
import CThreads
import PodiumEngine

// The JACK process callback and everything it calls. Stage order per callback:
//   1. take what the driver offered (engine bundle, recording tap, bindings: Adoption.swift);
//      fetch each port buffer once (JackCallbacks.swift)
//   2. (transport follow mode: the transport moves the clock, Transport.swift)
//      drain every command ring: immediate commands apply now, future ones wait in `schedule`;
//      with Ableton Link on, follow (or lead) the session's tempo and phase (LinkSync.swift)
//   3. for each k-cycle in the period: apply due commands (by frame or by beat), publish the
//      beat clock to its channels, copy JACK in → spin,
//      csoundPerformKsmps, the orchestra's MIDI out → midi_out at the k-cycle's frame (MIDIOut.swift),
//      reset momentaries, note merged compiles, copy spout → JACK out
//   4. output levels for meters (OutputLevels.swift); publish the clock for other threads; statistics
//      (the callback's time against the period as a histogram and its max; for the longest
//      callback also its CPU time, the notes it started and the voices playing, so the stop line
//      tells a busy callback from a preempted one)
// Every applied command goes back on the *applied* ring with its absolute k-cycle and JACK frame
// (the supervisor journals it). `KCycle.perform` is shared with `SessionReplayer`, so a replay
// cannot take a k-cycle's steps in another order.
// No allocation, no locks, no reference counting, no Foundation: the compiler checks it.

/// The process callback JACK calls; `arg` is the `RTState`.
// Thread: RT (JACK process thread)
@_noLocks @_noAllocation
package func podiumProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: RTState.self)
    // Counted in before `paused` is read (the driver parks the callback the other way round).
    s.pointee.callbackSeq.add(1, ordering: .sequentiallyConsistent)
    defer { s.pointee.callbackSeq.add(1, ordering: .acquiringAndReleasing) }
    let started = _unsafePerformance { podium_now_ns() }
    let startedCPU = _unsafePerformance { podium_thread_cpu_ns() }
    let n = Int(nframes)
    adoptPendingEngine(s)
    adoptPendingTap(s)
    adoptPendingBindings(s)
    // An engine's first callback: its caches and the callback's own memory are cold. The init
    // passes of what starts at time 0 ran before it (Engine.performInitPass); not counted as the
    // voices' load either (below).
    let initPass = s.pointee.cycle == 0
    // Each port's buffer, fetched once for the whole callback.
    fetchBuffers(s, s.pointee.inPorts, into: s.pointee.inBuffers, count: s.pointee.inCount, frames: n)
    fetchBuffers(s, s.pointee.outPorts, into: s.pointee.outBuffers, count: s.pointee.outCount, frames: n)

    var performed = false
    if let engine = s.pointee.engine, !s.pointee.paused.load(ordering: .sequentiallyConsistent) {
        if n % engine.ksmps != 0 {
            s.pointee.misalignedPeriod.store(n, ordering: .releasing)
        } else {
            engine.console.claimCurrentThread()
            perform(s, engine, frames: n)
            performed = true
        }
    }
    if !performed {
        silence(s, frames: n)
        counterAdd(s, .silentCallbacks, 1)
    }
    let elapsed = _unsafePerformance { podium_now_ns() } &- started
    let cpu = _unsafePerformance { podium_thread_cpu_ns() } &- startedCPU
    recordDuration(s, started: started, nanoseconds: elapsed, cpu: cpu, frames: n)
    s.pointee.slicesThisCallback = 0
    // The load guard counts the CPU time this thread used, not time it waited to be scheduled,
    // and not a callback in which Csound merged a compile: that cost is the compile's, once (a
    // `:load` then a note at once had the note refused for the merge's 11 ms), not the voices'.
    // Nor an engine's first callback: when it still ran the init passes, it once took 862 ms of
    // CPU in a loaded test run (1.3–1.8 ms otherwise), and the guard refused the first note.
    if performed, n > 0, !initPass, !s.pointee.mergedThisCallback, let engine = s.pointee.engine {
        s.pointee.loadGuard.observe(load: Double(cpu) * s.pointee.sampleRate / (Double(n) * 1e9),
                                    voices: RTEngine.load(engine.voices))
    }
    if s.pointee.mergedThisCallback {
        s.pointee.mergedThisCallback = false
        counterAdd(s, .merges, 1)
        _unsafePerformance { podium_counter_store(s.pointee.stats + StatIndex.lastMergeCallbackNs.rawValue, elapsed) }
    }
    return 0
}

// Thread: RT
@_noLocks @_noAllocation
func perform(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, frames n: Int) {
    let client = s.pointee.client
    let frameTime = _unsafePerformance { Int64(jack_last_frame_time(client)) }
    let ksmps = engine.ksmps
    let ins = min(s.pointee.inCount, engine.inputChannels)
    let outs = min(s.pointee.outCount, engine.outputChannels)
    let inputs = s.pointee.inBuffers, outputs = s.pointee.outBuffers

    s.pointee.budget = s.pointee.eventsPerCallback
    s.pointee.refusalsLeft = s.pointee.refusalsReported
    let voices = RTEngine.load(engine.voices)
    s.pointee.voicesBefore = voices >= 0 && voices < 1e9 ? Int(voices) : 0  // (NaN fails both)
    // Follow mode: JACK transport moves the clock before any command reads it.
    if s.pointee.transportMode == 2 { followTransport(s, frames: n) }
    drainCommands(s, engine, cycleStart: frameTime, ksmps: ksmps)
    syncWithLink(s, frameTime: frameTime, frames: n)  // Ableton Link, when on (LinkSync.swift)
    // MIDI from the JACK MIDI port: each k-cycle gets the messages timed inside it.
    var midiBuffer: UnsafeMutableRawPointer? = nil
    var midiEvents = 0
    var midiNext = 0
    if let port = s.pointee.midiPort {
        midiBuffer = _unsafePerformance { jack_port_get_buffer(port, jack_nframes_t(n)) }
        if let b = midiBuffer { midiEvents = Int(_unsafePerformance { jack_midi_get_event_count(b) }) }
        else { counterAdd(s, .missingBuffers, 1) }
    }

    let midiOut = beginMIDIOut(s, frames: n)

    var k = 0
    while k < n {
        let cycleStart = frameTime + Int64(k)
        if s.pointee.deferredStringCount > 0 { retryDeferredStrings(s) }
        if s.pointee.scheduled > 0 { applyDue(s, engine, cycleStart: cycleStart, ksmps: ksmps) }

        // JACK input (-1…1 floats, one buffer per port) → spin (interleaved, 0dBFS units).
        let spin = engine.spin
        let tap = s.pointee.tap
        let recording = tap.map { ksmps <= $0.scratchFrames && $0.outputs == engine.outputChannels && $0.inputs == engine.inputChannels } ?? false
        for c in 0..<engine.inputChannels {
            if c < ins, let input = inputs[c] {
                let buf = input + k
                if recording, let tap {
                    // Each sample read once: after an xrun the upstream client may already be
                    // writing this buffer, and the recording must hold what Csound was given.
                    for f in 0..<ksmps {
                        let v = buf[f]
                        spin[f * engine.inputChannels + c] = Double(v) * engine.inputScale
                        tap.scratch[f * tap.channels + tap.outputs + c] = v
                    }
                } else {
                    for f in 0..<ksmps { spin[f * engine.inputChannels + c] = Double(buf[f]) * engine.inputScale }
                }
            } else {
                for f in 0..<ksmps { spin[f * engine.inputChannels + c] = 0 }
                if recording, let tap {
                    for f in 0..<ksmps { tap.scratch[f * tap.channels + tap.outputs + c] = 0 }
                }
            }
        }

        engine.midi.clear()
        if let b = midiBuffer {
            midiNext = queueMIDI(s, engine, b, events: midiEvents, from: midiNext, before: k + ksmps, cycleStart: cycleStart, periodStart: frameTime)
        }
        // Csound's k-cycle, as the session replayer runs it (KCycle.swift).
        let clockAtStart = s.pointee.clock
        _ = KCycle.perform(engine, clock: &s.pointee.clock, momentary: &s.pointee.momentary)
        writeOrchestraMIDI(s, engine, midiOut, frame: k)
        if let midiOut {
            if let table = s.pointee.bindings { sendFeedback(s, table, midiOut, frame: k) }
            if s.pointee.hushMIDI { sendAllNotesOff(s, midiOut, frame: k) }
            if s.pointee.midiClockMode == 1 { midiClockOut(s, midiOut, clock: clockAtStart, frame: k, ksmps: ksmps) }
        }
        s.pointee.hushMIDI = false
        if let table = s.pointee.bindings { readBoundOutputs(table) }
        s.pointee.cycle += 1
        noteMarkers(s, engine, frame: cycleStart)

        // spout → JACK output, through the output guard (silence for a non-finite k-cycle,
        // clipping at the performer's limit).
        let limit = s.pointee.outputLimit
        let outcome = KCycle.checkOutput(engine, limit: limit)
        if outcome.silenced {
            counterAdd(s, .silencedCycles, 1)
            s.pointee.sawNonFinite.store(true, ordering: .relaxed)
        } else if outcome.clipped > 0 {
            counterAdd(s, .clippedSamples, UInt64(outcome.clipped))
            s.pointee.sawClipping.store(true, ordering: .relaxed)
        }
        for c in 0..<outs {
            guard let out = outputs[c] else { continue }
            let buf = out + k
            if outcome.silenced {
                buf.update(repeating: 0, count: ksmps)
            } else {
                for f in 0..<ksmps { buf[f] = KCycle.output(engine, outcome, frame: f, channel: c, limit: limit) }
            }
        }
        if recording, let tap {
            let began = _unsafePerformance { podium_now_ns() }
            defer {
                counterAdd(s, .recordNs, _unsafePerformance { podium_now_ns() } &- began)
                counterAdd(s, .recordCycles, 1)
            }
            for c in 0..<engine.outputChannels {
                for f in 0..<ksmps {
                    tap.scratch[f * tap.channels + c] = KCycle.output(engine, outcome, frame: f, channel: c, limit: limit)
                }
            }
            writeTap(tap, cycle: s.pointee.cycle - 1, frames: ksmps, generation: s.pointee.generation)
        }
        k += ksmps
    }
    // Meters: each port's peak and energy this period (what JACK gets), for readers to take.
    for c in 0..<outs { if let out = outputs[c] { s.pointee.levels.measure(out, port: c, frames: n) } }
    publishClock(s, frame: frameTime + Int64(n))
    s.pointee.cycleNow.store(s.pointee.cycle, ordering: .releasing)  // after this period's reports
    // Ports beyond the orchestra's channels stay silent.
    for c in outs..<s.pointee.outCount { outputs[c]?.update(repeating: 0, count: n) }
    counterAdd(s, .cycles, UInt64(n / ksmps))
}

/// Hands Csound the MIDI messages timed before frame `end` of the period; returns the next event.
// Thread: RT
@_noLocks @_noAllocation
func queueMIDI(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, _ buffer: UnsafeMutableRawPointer, events: Int,
               from first: Int, before end: Int, cycleStart: Int64, periodStart: Int64) -> Int {
    var i = first
    var event = jack_midi_event_t()
    while i < events {
        guard _unsafePerformance({ jack_midi_event_get(&event, buffer, UInt32(i)) }) == 0 else { i += 1; continue }
        if Int(event.time) >= end { break }
        i += 1
        let size = Int(event.size)
        guard size > 0, let bytes = event.buffer else { continue }
        // MIDI clock in: the leader's ticks, Start, Continue, Stop and Song Position move the clock.
        if s.pointee.midiClockMode == 2, bytes[0] >= 0xF0,
           midiClockIn(s, bytes, count: size, at: periodStart + Int64(event.time), cycleStart: cycleStart) { continue }
        // Only complete channel messages reach Csound: its MIDI parser indexes tables with
        // data bytes, and a stray byte ≥ 0x80 there crashed libcsound (fuzz, issue 18).
        // SysEx and system messages are not for Csound's MIDI input either.
        guard MIDIMessage.isChannelMessage(bytes, count: size) else {
            counterAdd(s, .malformedMIDI, 1)
            continue
        }
        if size == 3, bytes[0] & 0xF0 == 0xB0, let table = s.pointee.bindings {
            applyControlChange(s, table, status: bytes[0], controller: bytes[1], value: bytes[2], cycleStart: cycleStart)
        }
        // All notes off from a controller: a hush (Csound gets the message too, for its own MIDI notes).
        if size == 3, bytes[0] & 0xF0 == 0xB0, bytes[1] == 123 { hushNow(s, engine, cycleStart: cycleStart) }
        if engine.midi.add(bytes, count: size) {
            var record = Applied(kind: .midi, id: 0, cycle: s.pointee.cycle, frame: cycleStart)
            record.command.count = Int32(size)
            withUnsafeMutableBytes(of: &record.command.pfields) { p in
                for j in 0..<size { p[j] = bytes[j] }
            }
            report(s, record)
        }
    }
    return i
}

/// A marker as a command id; 0 for anything that is not a marker the host wrote (the
/// conversion must never trap on the audio thread).
// Thread: RT
@_noLocks @_noAllocation
@inline(__always)
func markerID(_ v: Double) -> UInt64 {
    v >= 1 && v < 9.0e18 ? UInt64(v) : 0
}

/// Async compiles and score texts write their marker when the audio thread takes them in.
// Thread: RT
@_noLocks @_noAllocation
func noteMarkers(_ s: UnsafeMutablePointer<RTState>, _ engine: RTEngine, frame: Int64) {
    let merged = RTEngine.load(engine.mergedMarker)
    if merged != s.pointee.lastMerged {
        s.pointee.lastMerged = merged
        s.pointee.mergedThisCallback = true
        // The merge happened at the start of the k-cycle just performed.
        report(s, Applied(kind: .compileMerged, id: markerID(merged), cycle: s.pointee.cycle - 1, frame: frame))
    }
    let scored = RTEngine.load(engine.scoredMarker)
    if scored != s.pointee.lastScored {
        s.pointee.lastScored = scored
        // Csound reads queued score text in the k-cycle's kperf, after that cycle's sensevents:
        // its events (the marker note among them) start one k-cycle later. The text was read
        // in the cycle before the one just performed.
        report(s, Applied(kind: .scoreRead, id: markerID(scored), cycle: s.pointee.cycle - 2, frame: frame))
    }
}

// Thread: RT
@_noLocks @_noAllocation
func report(_ s: UnsafeMutablePointer<RTState>, _ applied: Applied) {
    var a = applied
    _ = withUnsafeBytes(of: &a) { s.pointee.applied.write($0.baseAddress!) }
}

// Thread: RT
@_noLocks @_noAllocation
func counterAdd(_ s: UnsafeMutablePointer<RTState>, _ index: StatIndex, _ value: UInt64) {
    _unsafePerformance { podium_counter_add(s.pointee.stats + index.rawValue, value) }
}

/// Callback time against the period budget: a histogram in 0.5 % steps, and the maximum.
// Thread: RT
@_noLocks @_noAllocation
func recordDuration(_ s: UnsafeMutablePointer<RTState>, started: UInt64, nanoseconds: UInt64, cpu: UInt64, frames n: Int) {
    let budget = Double(n) / s.pointee.sampleRate * 1e9
    let bucket = min(Int(Double(nanoseconds) / budget * 200), s.pointee.histogramBuckets - 1)
    let notes = UInt64(max(0, s.pointee.eventsPerCallback - s.pointee.budget))
    let voices = UInt64(max(0, s.pointee.voicesBefore))
    _unsafePerformance {
        // Which callback was the longest: when it began, the journal's k-cycle that ended it,
        // its CPU time, the notes it started and the voices that were playing.
        if nanoseconds > podium_counter_load(s.pointee.stats + StatIndex.maxCallbackNs.rawValue) {
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackStartNs.rawValue, started)
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackCycle.rawValue, UInt64(max(0, s.pointee.cycle)))
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackCPUNs.rawValue, cpu)
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackNotes.rawValue, notes)
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackVoices.rawValue, voices)
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackMerged.rawValue, s.pointee.mergedThisCallback ? 1 : 0)
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackSlices.rawValue, UInt64(s.pointee.slicesThisCallback))
            podium_counter_store(s.pointee.stats + StatIndex.maxCallbackFrames.rawValue, UInt64(n))
        }
        podium_counter_add(s.pointee.stats + StatIndex.callbacks.rawValue, 1)
        podium_counter_max(s.pointee.stats + StatIndex.maxCallbackNs.rawValue, nanoseconds)
        podium_counter_add(s.pointee.stats + StatIndex.totalCallbackNs.rawValue, nanoseconds)
        podium_counter_store(s.pointee.stats + StatIndex.lastPeriodFrames.rawValue, UInt64(n))
        podium_counter_add(s.pointee.stats + s.pointee.histogramStart + bucket, 1)
    }
}

