import CJack
import PodiumEngine
import Synchronization

/// Indices of the audio thread's counters (relaxed 64-bit, read by anyone).
public enum StatIndex: Int, CaseIterable {
    case callbacks, cycles, commands, silentCallbacks, maxCallbackNs, lastPeriodFrames, lateCommands, scheduleFull, xruns, totalCallbackNs, recordNs, recordCycles
    /// Commands left for the next callback (the per-callback budget was spent); refused tables;
    /// output samples clipped at the limit; k-cycles silenced for a non-finite sample;
    /// MIDI events that were not one complete channel message (dropped before Csound).
    case deferredCommands, refusedTables, clippedSamples, silencedCycles, malformedMIDI
    /// The journal's k-cycle at the end of the longest callback (what it applied is there).
    case maxCallbackCycle
    /// Notes refused because the engine already had `maximumVoices` instances active.
    case voiceLimited
    /// Notes refused by the DSP load guard (the voices could not grow while the callback was busy).
    case loadLimited
    /// String stores put off to a later k-cycle (the channel's lock was held), and those dropped
    /// (the queue of put-off stores was full); port buffers JACK returned as NULL (skipped).
    case deferredStrings, droppedStrings, missingBuffers
    /// Handovers (engine, record tap, bindings): swapped directly while no callback could run,
    /// through the handshake with the callback, withdrawn after the handshake timed out (NRT counters).
    case directSwaps, handshakes, withdrawnHandovers
    /// Callbacks in which an async compile merged (a reload, or a host question), and the
    /// duration of the last one (its global code ran there).
    case merges, lastMergeCallbackNs
    /// Commands waiting for a beat, dropped when JACK transport relocated the clock (follow mode).
    case droppedOnLocate
    /// Ableton Link: tempos adopted from the session, phase corrections, tempos Podium committed;
    /// starts and stops taken from the session or sent to it (start/stop sync); rate trims.
    case linkTempoAdopted, linkPhaseCorrections, linkTempoCommitted, linkStartStops, linkRateTrims
    /// Slices of tables built off the audio thread that the callback took (copied, or refused
    /// when their table was gone: then also counted in `refusedTables`).
    case stagedSlices
    /// The longest callback's own CPU time (wall time less the time it waited to run), the notes
    /// it started and the voices active before it: what made it long.
    case maxCallbackCPUNs, maxCallbackNotes, maxCallbackVoices
    /// When the longest callback began (monotonic ns, `podium_now_ns`): what else the machine did
    /// then can be looked up (a test's twin client measures whether the whole machine was slow).
    case maxCallbackStartNs
    /// What else the longest callback did: whether an async compile merged in it (1 or 0), and
    /// the staged table slices it copied in.
    case maxCallbackMerged, maxCallbackSlices
    /// MIDI out (`podium:midi_out`): messages written to the port; messages the port's buffer
    /// had no room for; messages the orchestra sent that were refused (not a channel or
    /// real-time message) or did not fit in a k-cycle's queue.
    case midiOutSent, midiOutFull, midiOutRefused
    /// Hushes applied, and the waiting commands they dropped.
    case hushes, droppedByHush
    /// The longest callback's period in frames: a period change (PipeWire's quantum) leaves the
    /// maximum measured against the period it ran in.
    case maxCallbackFrames
}

/// The four states of a handover between the driver (NRT) and the callback (RT), one atomic
/// per handed-over thing: NRT writes the `pending…` value while idle and offers it; the callback
/// takes it (offered → taking: only the callback moves out of `offered` forward), swaps it
/// with the value it holds (so `pending…` then holds the old one) and marks it taken; NRT frees
/// the old value and sets idle. NRT may withdraw an offer the callback has not begun to take
/// (offered → idle). See `JackDriver.handOver`.
package enum HandoverState: Int {
    case idle = 0, offered = 1, taking = 2, taken = 3
}

/// What adopting an engine changes, published together through one handshake.
package struct EngineBundle {
    package var engine: RTEngine?
    package var generation: UInt32 = 0
    package var sampleRate = 48000.0
    package var sampleAccurate = false

    package init() {}
    package init(engine: RTEngine?, generation: UInt32, sampleRate: Double, sampleAccurate: Bool) {
        self.engine = engine
        self.generation = generation
        self.sampleRate = sampleRate
        self.sampleAccurate = sampleAccurate
    }
}
/// Constants the audio thread reads: computed properties, so no lazy global initialisation.
package enum RTLimits {
    package static var histogramBuckets: Int { 400 }
    /// The callback duration histogram follows the named counters: buckets of 0.5 % of the period.
    package static var histogramStart: Int { StatIndex.allCases.count }
    package static var statCount: Int { histogramStart + histogramBuckets }
    package static var maxPorts: Int { 64 }
    package static var maxRings: Int { 12 }
    package static var scheduleCapacity: Int { 1024 }
    package static var momentaryCapacity: Int { 256 }
    /// Instrument numbers a hush releases (the lowest ones when an orchestra defines more).
    package static var hushCapacity: Int { 4096 }
    /// Notes and tables one callback starts at most: more wait for the next callback (counted),
    /// so that no burst of input can make one callback overrun by much.
    package static var eventsPerCallback: Int { 128 }
    /// Refused notes reported by their id a callback (`Applied.Kind.noteRefused`: the slot that
    /// sent one is told); the rest are only counted, so that a flood of refusals never crowds
    /// the applied ring the journal reads.
    package static var refusalsReported: Int { 4 }
    /// Active instances (every instrument) beyond which new notes are refused, counted: a
    /// stream of long notes must not grow memory and CPU without end (scsynth: 1024 nodes).
    package static var maximumVoices: Double { 1000 }
    /// String stores waiting for their channel's lock (retried at each k-cycle).
    package static var deferredStringCapacity: Int { 64 }
    /// f statements from score text: table numbers and sizes (GEN routines run on the audio thread).
    package static var maximumTableNumber: Double { 10_000 }
    package static var maximumTableSize: Double { 65_536 }
}

/// Everything the JACK process callback touches, allocated once and reached through the
/// callback's `arg` pointer. Plain data: no references, no reference counting.
///
/// Ownership: fields marked RT are written only by the audio thread; fields marked NRT
/// are written by the driver only while the client is inactive or under the handshakes below.
package struct RTState: ~Copyable {
    // RT: the engine performing now, with its generation, sample rate and sample accuracy
    // (adopted together from `pendingEngine`; commands carry the generation they were made for).
    package var engine: RTEngine?
    package var generation: UInt32 = 0
    package var sampleRate = 48000.0
    package var sampleAccurate = false
    // NRT while `engineHandover` is idle: the bundle to adopt (after adoption: the old one).
    package var pendingEngine = EngineBundle()
    /// A `HandoverState`.
    package let engineHandover = Atomic<Int>(0)
    /// NRT: false while no callback can run (client inactive or closed): handovers then swap
    /// directly. Set true (under the driver's handover lock) just before activation.
    package let callbacksMayRun = Atomic<Bool>(false)
    /// NRT: true while the engine must not perform (rebuilding, stopping). RT outputs silence.
    package let paused = Atomic<Bool>(false)
    /// RT → NRT: the period no longer divides by ksmps (value: the new period; 0 = fine).
    package let misalignedPeriod = Atomic<Int>(0)

    // NRT (while inactive): the client and its ports.
    package var client: OpaquePointer?
    package let inPorts: UnsafeMutablePointer<OpaquePointer?>
    package let outPorts: UnsafeMutablePointer<OpaquePointer?>
    package var inCount = 0
    package var outCount = 0
    /// RT: each port's buffer for this callback (fetched once; nil when JACK gave none).
    package let inBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    package let outBuffers: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>
    /// The MIDI input port (read in the same callback, handed to Csound per k-cycle).
    package var midiPort: OpaquePointer?
    /// `podium:midi_out` (JACK MIDI output), written in this callback (MIDIOut.swift).
    package var midiOutPort: OpaquePointer?
    /// The engine's refusal counts already reported (reset when an engine is adopted).
    package var midiOutRefusedSeen: UInt64 = 0
    /// The highest instrument number the orchestra defines (the driver stores it after each
    /// compile; a hush journals it, and a replay releases the defined instruments up to it).
    package let instrumentBound = Atomic<Int>(0)
    /// NRT → RT: the instrument numbers the orchestra defines, ascending (`RTLimits.hushCapacity`
    /// slots, each a relaxed atomic; `hushCount` of them valid, stored after the slots): what a
    /// hush releases. A hush racing a compile reads each number whole, from either list.
    package let hushNumbers: UnsafeMutablePointer<UInt64>
    package let hushCount = Atomic<Int>(0)
    /// A hush applied before this k-cycle: all notes off goes out on midi_out after its messages.
    package var hushMIDI = false
    /// MIDI clock: 0 off, 1 out (MIDIClockOut.swift), 2 in (MIDIClockIn.swift); set before activation.
    package var midiClockMode = 0
    package var clockOut = MIDIClockOut()
    package var clockIn = MIDIClockIn()
    /// Frames MIDI clock ticks go out after their beat's frame: the output's audio latency less
    /// midi_out's (the supervisor stores it once a second).
    package let midiClockOffset = Atomic<Int64>(0)
    /// NRT (before activation): the output safety limit (`Float.infinity`: no clipping).
    package var outputLimit: Float = 1

    /// RT: notes and tables this callback may still start (see RTLimits.eventsPerCallback).
    package var budget = 0
    /// RT: refused notes this callback may still report by id (RTLimits.refusalsReported).
    package var refusalsLeft = 0
    package let refusalsReported = RTLimits.refusalsReported
    /// RT: the engine's active instances when this callback began (for the longest callback's record).
    package var voicesBefore = 0
    package let eventsPerCallback = RTLimits.eventsPerCallback
    package let maximumVoices = RTLimits.maximumVoices
    /// RT (its limit set by NRT before activation): the DSP load guard.
    package var loadGuard = LoadGuard()
    package let maximumTableNumber = RTLimits.maximumTableNumber
    package let maximumTableSize = RTLimits.maximumTableSize
    /// RT → NRT: set once when the first non-finite output or the first clipped sample is
    /// met, so the supervisor reports each once.
    package let sawNonFinite = Atomic<Bool>(false)
    package let sawClipping = Atomic<Bool>(false)

    // Command rings (one per producer), published with `ringCount`.
    package let rings: UnsafeMutablePointer<RawRing?>
    package let ringCount = Atomic<Int>(0)
    // RT → NRT: what was applied when.
    package let applied: RawRing

    // Capacities, as stored values the audio thread can read (see RTLimits).
    package let scheduleCapacity = RTLimits.scheduleCapacity
    package let histogramBuckets = RTLimits.histogramBuckets
    package let histogramStart = RTLimits.histogramStart
    /// JACK told us it is shutting down (set from its thread; the driver reconnects).
    package let serverGone = Atomic<Bool>(false)

    // RT: commands waiting for their frame; momentary channels to reset after this k-cycle.
    package let schedule: UnsafeMutablePointer<Command>
    package var scheduled = 0
    package var momentary = MomentaryChannels(capacity: RTLimits.momentaryCapacity)
    /// RT: k-cycles performed by the current engine (the stamp sessions replay by).
    package var cycle: Int64 = 0
    package var lastMerged = 0.0
    /// RT: an async compile merged during this callback (its duration is noted at the end).
    package var mergedThisCallback = false
    /// RT: staged table slices taken during this callback.
    package var slicesThisCallback = 0
    package var lastScored = 0.0

    /// RT: the recording's ring while one runs (adopted from `pendingTap`, like the engine).
    package var tap: RecordTapRT?
    /// NRT while `tapHandover` is idle: the tap to adopt (nil: stop recording).
    package var pendingTap: RecordTapRT?
    package let tapHandover = Atomic<Int>(0)
    /// RT: the bindings table (adopted from `pendingBindings` like the tap).
    package var bindings: BindingTableRT?
    package var pendingBindings: BindingTableRT?
    package let bindingsHandover = Atomic<Int>(0)

    /// RT: string stores that found their channel's lock held, retried at each k-cycle.
    package let deferredStrings: UnsafeMutablePointer<Command>
    package var deferredStringCount = 0
    package let deferredStringCapacity = RTLimits.deferredStringCapacity
    /// RT → NRT: the k-cycle of the first block of the tap adopted last.
    package let tapStartCycle = Atomic<Int64>(0)
    /// RT → NRT: the k-cycle the engine is on (for stamping what does not pass through commands).
    package let cycleNow = Atomic<Int64>(0)
    /// RT: incremented when a callback starts and when it ends (odd: inside one). Lets the
    /// NRT side change what Csound reads between two callbacks (string channels).
    package let callbackSeq = Atomic<UInt64>(0)

    /// RT: the beat clock (tempo, quantum, the beat of each k-cycle). NRT sets the first tempo
    /// before activation; after that only the callback changes it (`.clock` commands).
    package var clock = BeatClock()
    /// RT → NRT: the clock once a period, for the surfaces and the loop scheduler.
    package let clockPublished = PublishedClock()
    /// NRT (before activation): JACK transport, a `TransportMode.code` (0 off, 1 master, 2 follow).
    package var transportMode = 0
    /// RT: follow mode's memory of the last period's transport (`Transport.swift`).
    package var follower = TransportFollower()

    /// Ableton Link (LinkSync.swift): the bridge's pointer bits, 0 until `:link on` or `--link`
    /// first creates it (NRT, once; freed only after the client is closed).
    package let linkHandle = Atomic<Int>(0)
    /// NRT → RT: the output latency of Podium's playback ports, microseconds (the supervisor
    /// reads it from JACK once a second while Link is on).
    package let linkLatencyUs = Atomic<Int64>(0)
    /// RT: a `.clock` command changed the tempo since the last Link sync (commit it to the session).
    package var linkTempoToCommit = false
    /// RT: Link was enabled at the last sync (false: the next sync is the first of a join).
    package var linkJoined = false
    /// RT: Link's clock minus JACK's (µs), sampled every period (LinkSync.swift); .min: not yet.
    package var linkClockOffset = Int64.min
    /// RT: the xrun count at the last Link sync (an xrun restarts Link's host-time filter).
    package var linkXrunsSeen: UInt64 = 0
    /// RT: JACK's 32-bit frame time, unwrapped (it wraps after 24.8 hours at 48 kHz), for the
    /// filter; -1: not yet.
    package var linkSampleTime: Int64 = -1
    package var linkLastFrame: UInt32 = 0
    /// RT: when a phase error is corrected (deadband, confirmation, hold-off after an xrun).
    package var linkFollower = LinkPhaseFollower()
    /// RT: the frames' rate in Link's clock, which trims the beat clock's (LinkRate.swift).
    package var linkRate = LinkRateEstimator()
    /// RT → NRT: the last rate measured, parts per billion off 1 (for `:link`).
    package let linkMeasuredRatePpb = Atomic<Int64>(0)
    /// RT: the output latency (µs) at the last sync (a change restarts the rate's window).
    package var linkLastLatencyUs: Int64 = 0
    /// RT: start/stop sync was on at the last sync while joined (a `.clock` start or stop then
    /// goes to the session: LinkStartStop.swift).
    package var linkStartStopActive = false
    /// RT: a start (1) or stop (0) to commit to the session at the next sync; -1: none.
    package var linkPlayingToCommit: Int8 = -1
    /// RT → NRT: the last phase correction, microseconds (signed; for `:link`).
    package let linkLastCorrectionUs = Atomic<Int64>(0)

    /// Counters (relaxed atomics): see `StatIndex`.
    package let stats: UnsafeMutablePointer<UInt64>
    /// RT → NRT: each output port's peak and sum of squares since a reader took them (meters).
    package let levels = OutputLevels(ports: RTLimits.maxPorts)


    package init(applied: RawRing) {
        inPorts = .allocate(capacity: RTLimits.maxPorts)
        inPorts.initialize(repeating: nil, count: RTLimits.maxPorts)
        outPorts = .allocate(capacity: RTLimits.maxPorts)
        outPorts.initialize(repeating: nil, count: RTLimits.maxPorts)
        inBuffers = .allocate(capacity: RTLimits.maxPorts)
        inBuffers.initialize(repeating: nil, count: RTLimits.maxPorts)
        outBuffers = .allocate(capacity: RTLimits.maxPorts)
        outBuffers.initialize(repeating: nil, count: RTLimits.maxPorts)
        rings = .allocate(capacity: RTLimits.maxRings)
        rings.initialize(repeating: nil, count: RTLimits.maxRings)
        schedule = .allocate(capacity: RTLimits.scheduleCapacity)
        deferredStrings = .allocate(capacity: RTLimits.deferredStringCapacity)
        stats = .allocate(capacity: RTLimits.statCount)
        stats.initialize(repeating: 0, count: RTLimits.statCount)
        hushNumbers = .allocate(capacity: RTLimits.hushCapacity)
        hushNumbers.initialize(repeating: 0, count: RTLimits.hushCapacity)
        self.applied = applied
    }

    deinit {
        inPorts.deallocate()
        outPorts.deallocate()
        inBuffers.deallocate()
        outBuffers.deallocate()
        rings.deallocate()
        schedule.deallocate()
        deferredStrings.deallocate()
        stats.deallocate()
        hushNumbers.deallocate()
        levels.deallocate()
    }
}
