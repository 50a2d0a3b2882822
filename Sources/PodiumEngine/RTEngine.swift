import CCsound

/// The slice of an `Engine` the audio thread uses: plain pointers and numbers, no ARC.
/// Copied by value into the real-time state; valid while its `Engine` lives.
///
/// Csound 6.18 facts the audio thread's side rests on (the rest: Engine.swift):
/// - `csoundScoreEvent` is called on the audio thread itself, with p-fields that live in the
///   command record (the async version keeps only a pointer). It succeeds even for an undefined
///   instrument, so the host checks numbers and names first (`InstrumentTable`, kept with the
///   compiled texts under one lock). Numbers go to 9999 (`OrchestraCheck.instrumentNumbers`):
///   the voice count walks every number up to the highest, and `instr 999999` took 105 % of a
///   period.
/// - A score event ties onto a MIDI-started note of the same p1 and Csound then never returns
///   from `csoundPerformKsmps`: once a note-on came, `scoreEvent` moves a whole p1 by 1e-9
///   (`untied`).
/// - With sample-accurate events Csound rounds an event's time to the nearest k-cycle: the
///   callback asks for one ksmps earlier when needed, plus a quarter sample (CommandSchedule.swift).
public struct RTEngine: @unchecked Sendable {
    public let csound: OpaquePointer
    /// Interleaved `ksmps * inputChannels` input samples, 0dBFS units.
    public let spin: UnsafeMutablePointer<Double>
    /// Interleaved `ksmps * outputChannels` output samples, 0dBFS units.
    public let spout: UnsafeMutablePointer<Double>
    public let ksmps: Int
    public let inputChannels: Int
    public let outputChannels: Int
    /// Multiply JACK input (-1…1) by this; multiply Csound output by `outputScale`.
    public let inputScale: Double
    public let outputScale: Double
    /// `podium.merged`: written by the global code of each async compile when the audio
    /// thread merges it (its value is the compile's sequence number).
    public let mergedMarker: UnsafeMutablePointer<Double>
    /// `podium.scored`: written by the marker note after each async score text.
    public let scoredMarker: UnsafeMutablePointer<Double>
    /// `podium.voices`: the instances active at the last k-cycle (0 outside a performance).
    public let voices: UnsafeMutablePointer<Double>
    /// The beat clock's channels (`podium.tempo`, `podium.beat` …), set before every k-cycle.
    public let clock: ClockChannels
    /// The engine's console, for claiming the audio thread.
    public let console: RealtimeConsoleHandle
    /// The engine's MIDI input queue, filled before each k-cycle.
    public let midi: RealtimeMIDIInput
    /// The engine's MIDI output queue: what the orchestra sent in the last k-cycle.
    public let midiOut: RealtimeMIDIOutput
    /// The host's own long-running instrument (`podium_voices`), which a hush spares.
    public let voicesInstrument: Double

    /// One k-cycle. True when the score has ended. (Takes Csound's uncontended API lock.)
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation @inline(__always)
    public func performKsmps() -> Bool {
        _unsafePerformance { csoundPerformKsmps(csound) != 0 }
    }

    /// A score event now (p2 is relative to the current k-cycle). The p-fields are read
    /// before it returns. Takes Csound's API lock, as csoundPerformKsmps does on this same
    /// thread; no other thread takes it during a performance (the host then uses only
    /// Csound's async calls and cached channel pointers), so it is never contended.
    /// Once MIDI notes play, p1 is first made `untied` (written back into `pfields`, so that
    /// what is journaled is what Csound got).
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation @inline(__always)
    public func scoreEvent(_ pfields: UnsafeMutablePointer<Double>, count: Int) {
        if count > 0, midi.queue.pointee.noteOnSeen { pfields[0] = RTEngine.untied(pfields[0]) }
        _unsafePerformance { _ = csoundScoreEvent(csound, CChar(UInt8(ascii: "i")), pfields, count) }
    }

    /// A whole instrument number moved by 1e-9 (away from zero), any other p1 as it is.
    /// Csound 6.18 ties a score event onto a playing instance of indefinite duration with the
    /// same p1, and a MIDI-started note is one (p1 = its instrument's number): the tie makes it
    /// a score note but leaves it in the key's MIDI list, and the key's note-off then frees it
    /// a second time. Csound's free list, then its active list, becomes a cycle and
    /// `csoundPerformKsmps` never returns (reproduced with libcsound alone: note-on on channel 2,
    /// `i2 0 0.002`, note-off, `i2 0 1`, `i2 0 0.002`; found by the fuzz). So once an engine has
    /// had a note-on, events from the surfaces never carry a whole p1: they start their own
    /// instances, and ties among them (`i1 0 -1`, then `i1 0 2` or `i -1`) still meet, the same
    /// nudge on both. The orchestra reads p1 as 1.000000001: `int(p1)` and `active` are unchanged.
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation @inline(__always)
    public static func untied(_ p1: Double) -> Double {
        guard p1 != 0, p1 > -1_000_000, p1 < 1_000_000, Double(Int64(p1)) == p1 else { return p1 }
        return p1 > 0 ? p1 + 1e-9 : p1 - 1e-9
    }

    /// An `f` statement (a function table) now, as `scoreEvent` (the GEN routine runs here).
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation @inline(__always)
    public func tableEvent(_ pfields: UnsafePointer<Double>, count: Int) {
        _unsafePerformance { _ = csoundScoreEvent(csound, CChar(UInt8(ascii: "f")), pfields, count) }
    }

    /// The length of function table `number`, or -1 when there is none (reads Csound's table list).
    // Thread: RT (the thread that creates tables), or NRT while nothing performs
    @_noLocks @_noAllocation @inline(__always)
    public func tableLength(_ number: Int32) -> Int32 {
        _unsafePerformance { csoundTableLength(csound, number) }
    }

    /// Copies `count` values of `source` from index `offset` into the same indices of table
    /// `number` (its guard point, at its length, included). False when the table does not
    /// exist or the slice does not fit in it.
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation
    public func fillTable(_ number: Int32, from source: UnsafePointer<Double>, offset: Int, count: Int) -> Bool {
        var table: UnsafeMutablePointer<Double>? = nil
        let length = _unsafePerformance { csoundGetTable(csound, &table, number) }
        guard length > 0, let table, offset >= 0, count >= 0, offset + count <= Int(length) + 1 else { return false }
        _unsafePerformance { (table + offset).update(from: source + offset, count: count) }
        return true
    }

    /// Hush, one instrument: every instance of instrument `number` released, with its release
    /// segment (Csound's `csoundKillInstance`, mode 0 — all instances — with release); the host's
    /// `podium_voices` is spared. A number that is not defined or has no instance is passed over
    /// by Csound before it does anything. Takes Csound's API lock, as `scoreEvent` does: call it
    /// between k-cycles, on the performing thread. A hush calls it for each instrument the
    /// orchestra defines (a list the driver keeps), never for every number up to the highest:
    /// an `instr 999999` would make that a million calls inside one callback.
    // Thread: RT (JACK process callback) or offline driver
    @_noLocks @_noAllocation
    public func release(instrument number: Int) {
        guard number >= 1, Double(number) != voicesInstrument else { return }
        _unsafePerformance { _ = csoundKillInstance(csound, Double(number), nil, 0, 1) }
    }

    /// Atomic store into a cached control channel.
    // Thread: RT
    @_noLocks @_noAllocation @inline(__always)
    public static func store(_ channel: UnsafeMutablePointer<Double>, _ value: Double) {
        _unsafePerformance { podium_channel_store(channel, value) }
    }

    /// What a string store did: stored, did not fit, or found the channel's lock held.
    public enum StringStore: Int32 { case busy = -1, tooLong = 0, stored = 1 }

    /// Stores `count` bytes into a string channel's reserved storage (no allocation). Tries the
    /// channel's spin lock (which Csound's own chnget/chnset take) once and never waits for it:
    /// `.busy` when another thread holds it (the caller retries at a later k-cycle).
    // Thread: RT
    @_noLocks @_noAllocation @inline(__always)
    public static func tryStoreString(_ storage: UnsafeMutableRawPointer, lock: UnsafeMutablePointer<Int32>?,
                                      _ bytes: UnsafePointer<CChar>, count: Int) -> StringStore {
        let rc = _unsafePerformance { podium_string_try_store(storage, lock, bytes, Int32(count)) }
        return rc > 0 ? .stored : rc < 0 ? .busy : .tooLong
    }

    /// The bytes a string channel's storage can hold.
    // Thread: any
    public static func stringCapacity(_ storage: UnsafeMutableRawPointer) -> Int {
        Int(podium_string_capacity(storage))
    }

    /// Atomic load from a cached control channel.
    // Thread: RT
    @_noLocks @_noAllocation @inline(__always)
    public static func load(_ channel: UnsafeMutablePointer<Double>) -> Double {
        _unsafePerformance { podium_channel_load(channel) }
    }
}

/// The channels through which an orchestra reads the host's beat clock.
public struct ClockChannels: @unchecked Sendable {
    public static let names = ["podium.tempo", "podium.beat", "podium.bar", "podium.phase", "podium.quantum"]
    /// Beats per minute.
    public let tempo: UnsafeMutablePointer<Double>
    /// Beats since the performance began, at the k-cycle's first frame (fractional).
    public let beat: UnsafeMutablePointer<Double>
    /// Whole bars before this k-cycle (0 in the first bar).
    public let bar: UnsafeMutablePointer<Double>
    /// Beats into the bar, 0 ≤ phase < quantum.
    public let phase: UnsafeMutablePointer<Double>
    /// Beats per bar.
    public let quantum: UnsafeMutablePointer<Double>

    public init(_ pointers: [UnsafeMutablePointer<Double>]) {
        precondition(pointers.count == ClockChannels.names.count)
        tempo = pointers[0]
        beat = pointers[1]
        bar = pointers[2]
        phase = pointers[3]
        quantum = pointers[4]
    }
}
