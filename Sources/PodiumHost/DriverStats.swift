import CAtomics
import CJack
import PodiumRealtime

/// A snapshot of the audio thread's counters.
public struct DriverStats: Sendable, CustomStringConvertible {
    public var callbacks: UInt64
    public var cycles: UInt64
    public var commands: UInt64
    public var silentCallbacks: UInt64
    public var lateCommands: UInt64
    public var xruns: UInt64
    public var maxCallbackMicroseconds: Double
    /// The journal's k-cycle that ended the longest callback.
    public var maxCallbackCycle: UInt64
    /// The longest callback's CPU time, the notes it started and the voices playing before it.
    public var maxCallbackCPUMicroseconds: Double
    public var maxCallbackNotes: UInt64
    public var maxCallbackVoices: UInt64
    /// Whether an async compile merged in the longest callback, and the staged slices it copied.
    public var maxCallbackMerged: Bool
    public var maxCallbackSlices: UInt64
    /// When the longest callback began (monotonic ns, as `podium_now_ns` reads it).
    public var maxCallbackStartNanoseconds: UInt64
    /// Mean time per recorded k-cycle spent handing audio to the recording (interleave + ring write).
    public var recordMicrosecondsPerCycle: Double
    /// Mean callback time since the last `resetCallbackTimes`.
    public var meanCallbackMicroseconds: Double
    public var periodMicroseconds: Double
    /// The period the longest callback ran in (the period can change: PipeWire's quantum).
    public var maxCallbackPeriodMicroseconds: Double
    /// Callback time as a fraction of the period, from the histogram (0.5 % steps).
    public var p50: Double
    public var p99: Double
    public var dspLoad: Double
    public var overflows: UInt64
    public var consoleDropped: Int
    /// The last callback's period, in frames.
    public var lastPeriod: Int
    /// The last callback performed (its period divided by ksmps).
    public var lastPeriodIsAligned: Bool
    /// Times a callback left commands for the next one (its budget of notes was spent).
    public var deferredCommands: UInt64
    /// f statements refused (their table exists with another size).
    public var refusedTables: UInt64
    /// Output samples clipped at the safety limit; k-cycles silenced for a non-finite sample.
    public var clippedSamples: UInt64
    public var silencedCycles: UInt64
    /// MIDI events dropped before Csound: not one complete channel message (a status byte
    /// 0x80–0xEF and exactly its data bytes, each below 0x80).
    public var malformedMIDI: UInt64
    /// Notes refused at the voice limit (1000 active instances).
    public var voiceLimited: UInt64
    /// Notes refused by the DSP load guard (the voices could not grow while the callback was busy).
    public var loadLimited: UInt64
    /// String stores the audio thread put off to a later k-cycle (their channel's lock was
    /// held) and those it dropped (the queue of put-off stores was full).
    public var deferredStrings: UInt64
    public var droppedStrings: UInt64
    /// Port buffers JACK returned as NULL (that port's copy skipped).
    public var missingBuffers: UInt64
    /// Handovers to the audio thread (engine, recording tap, bindings): swapped directly while
    /// no callback could run, taken by the callback through the handshake, withdrawn after a timeout.
    public var directSwaps: UInt64
    public var handshakes: UInt64
    public var withdrawnHandovers: UInt64
    /// Callbacks in which a compile merged, and the last one's duration (its global code ran there).
    public var merges: UInt64
    public var lastMergeCallbackMicroseconds: Double
    /// Beat-timed commands a transport relocation cancelled (follow mode).
    public var droppedOnLocate: UInt64
    /// MIDI out: messages written to `podium:midi_out`, those its buffer had no room for, and
    /// those the orchestra sent that were refused (not a channel or real-time message, or more
    /// than a k-cycle's queue holds).
    public var midiOutSent: UInt64, midiOutFull: UInt64, midiOutRefused: UInt64
    /// Hushes applied, and the waiting commands they dropped.
    public var hushes: UInt64, droppedByHush: UInt64

    init(counters: UnsafeMutablePointer<UInt64>, sampleRate: Double, ksmps: Int, dspLoad: Double?, overflows: UInt64, consoleDropped: Int) {
        func c(_ i: StatIndex) -> UInt64 { podium_counter_load(counters + i.rawValue) }
        callbacks = c(.callbacks)
        cycles = c(.cycles)
        commands = c(.commands)
        silentCallbacks = c(.silentCallbacks)
        lateCommands = c(.lateCommands)
        xruns = c(.xruns)
        maxCallbackMicroseconds = Double(c(.maxCallbackNs)) / 1000
        maxCallbackCycle = c(.maxCallbackCycle)
        maxCallbackCPUMicroseconds = Double(c(.maxCallbackCPUNs)) / 1000
        maxCallbackNotes = c(.maxCallbackNotes)
        maxCallbackVoices = c(.maxCallbackVoices)
        maxCallbackMerged = c(.maxCallbackMerged) != 0
        maxCallbackSlices = c(.maxCallbackSlices)
        maxCallbackStartNanoseconds = c(.maxCallbackStartNs)
        periodMicroseconds = Double(c(.lastPeriodFrames)) / sampleRate * 1e6
        maxCallbackPeriodMicroseconds = c(.maxCallbackFrames) > 0 ? Double(c(.maxCallbackFrames)) / sampleRate * 1e6 : periodMicroseconds
        lastPeriod = Int(c(.lastPeriodFrames))
        deferredCommands = c(.deferredCommands)
        refusedTables = c(.refusedTables)
        clippedSamples = c(.clippedSamples)
        silencedCycles = c(.silencedCycles)
        malformedMIDI = c(.malformedMIDI)
        voiceLimited = c(.voiceLimited)
        loadLimited = c(.loadLimited)
        deferredStrings = c(.deferredStrings)
        droppedStrings = c(.droppedStrings)
        missingBuffers = c(.missingBuffers)
        directSwaps = c(.directSwaps)
        handshakes = c(.handshakes)
        withdrawnHandovers = c(.withdrawnHandovers)
        merges = c(.merges)
        lastMergeCallbackMicroseconds = Double(c(.lastMergeCallbackNs)) / 1000
        droppedOnLocate = c(.droppedOnLocate)
        midiOutSent = c(.midiOutSent)
        midiOutFull = c(.midiOutFull)
        midiOutRefused = c(.midiOutRefused)
        hushes = c(.hushes)
        droppedByHush = c(.droppedByHush)
        lastPeriodIsAligned = ksmps > 0 && lastPeriod % ksmps == 0
        let histogram = (0..<RTLimits.histogramBuckets).map { podium_counter_load(counters + RTLimits.histogramStart + $0) }
        let total = histogram.reduce(0, +)
        recordMicrosecondsPerCycle = c(.recordCycles) > 0 ? Double(c(.recordNs)) / Double(c(.recordCycles)) / 1000 : 0
        meanCallbackMicroseconds = total > 0 ? Double(c(.totalCallbackNs)) / Double(total) / 1000 : 0
        func percentile(_ q: Double) -> Double {
            guard total > 0 else { return 0 }
            let target = UInt64((Double(total) * q).rounded(.up))
            var seen: UInt64 = 0
            for (i, n) in histogram.enumerated() {
                seen += n
                if seen >= target { return Double(i + 1) / 200 }
            }
            return 2
        }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        // No load from the server (pipewire-jack's jack_cpu_load is not to be trusted): the
        // callbacks' mean time against the period instead.
        self.dspLoad = dspLoad ?? (periodMicroseconds > 0 ? meanCallbackMicroseconds / periodMicroseconds * 100 : 0)
        self.overflows = overflows
        self.consoleDropped = consoleDropped
    }

    public var description: String {
        let pct = { (x: Double) in String(format: "%.1f%%", x * 100) }
        return "callbacks \(callbacks), k-cycles \(cycles), xruns \(xruns), commands \(commands) (late \(lateCommands)), "
            + "callback p50 ≤\(pct(p50)) p99 ≤\(pct(p99)) max \(String(format: "%.0f", maxCallbackMicroseconds)) µs of \(String(format: "%.0f", maxCallbackPeriodMicroseconds)) µs (k-cycle \(maxCallbackCycle), CPU \(String(format: "%.0f", maxCallbackCPUMicroseconds)) µs, \(maxCallbackNotes) notes started, \(maxCallbackVoices) voices\(maxCallbackMerged ? ", a compile merged" : "")\(maxCallbackSlices > 0 ? ", \(maxCallbackSlices) table slices copied" : "")), "
            + "DSP load \(String(format: "%.1f", dspLoad))%, ring overflows \(overflows), console lines dropped \(consoleDropped), "
            + "deferred \(deferredCommands), clipped samples \(clippedSamples), silenced k-cycles \(silencedCycles), "
            + (refusedTables > 0 ? "refused tables \(refusedTables), " : "")
            + (malformedMIDI > 0 ? "malformed MIDI dropped \(malformedMIDI), " : "")
            + (voiceLimited > 0 ? "notes refused at the voice limit \(voiceLimited), " : "")
            + (loadLimited > 0 ? "notes refused at the DSP load limit \(loadLimited), " : "")
            + (deferredStrings + droppedStrings > 0 ? "string stores deferred \(deferredStrings) (dropped \(droppedStrings)), " : "")
            + (missingBuffers > 0 ? "missing port buffers \(missingBuffers), " : "")
            + (withdrawnHandovers > 0 ? "withdrawn handovers \(withdrawnHandovers), " : "")
            + (merges > 0 ? "last reload's callback \(String(format: "%.0f", lastMergeCallbackMicroseconds)) µs, " : "")
            + (droppedOnLocate > 0 ? "beat-timed commands dropped by transport relocations \(droppedOnLocate), " : "")
            + (hushes > 0 ? "hushes \(hushes) (waiting commands dropped \(droppedByHush)), " : "")
            + (midiOutSent + midiOutFull + midiOutRefused > 0 ? "MIDI out \(midiOutSent) (buffer full \(midiOutFull), refused \(midiOutRefused)), " : "")
            + "silent callbacks \(silentCallbacks)"
    }
}
