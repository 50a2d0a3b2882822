import Foundation

// How a live performance's engine starts (the JACK driver's and a session replay's alike): its
// options, the host's code, the sampler and SuperDirt's synths, then the live code so far.
extension Engine {
    /// Csound's daemon mode: the end of the score does not end the performance (musmon.c's
    /// sensevents stops reading at its `e`). Without it, a score whose notes are all held
    /// (`i "verb" 0 -1`, an effect's usual line) ended at its first k-cycle, and from then on
    /// csoundPerformKsmps returned at once: silence, live notes included.
    static let daemonFlag = "--daemon"

    /// An engine started the way every live performance starts — the JACK driver's, and a
    /// session replay's, so that the two perform alike sample for sample: not `--realtime`,
    /// sample-accurate events, the score held open (daemon mode, and `f 0 z`), then
    /// `liveOrchestras` (code compiled during the performance so far) compiled in order.
    // Thread: NRT (owner)
    public static func forPerformance(source: EngineSource, options: EngineOptions, sampleRate: Int, ksmps: Int,
                                      liveOrchestras: [String] = []) throws -> Engine {
        var o = options
        o.realtime = false
        o.sampleAccurate = true
        o.midiInput = true
        o.midiOutput = true
        o.sampleRate = sampleRate
        o.ksmps = ksmps
        if !o.extra.contains(Engine.daemonFlag) { o.extra.append(Engine.daemonFlag) }
        let engine = try Engine(options: o)
        try engine.compile(source)
        try OrchestraCheck.instrumentNumbers(engine.instruments, source: source.displayName)
        try engine.start()
        engine.reserveStringChannels()
        // A live performance never ends by itself. Read after start: before it, Csound 6.18
        // takes this text as the whole score of a CSD and ends at once.
        try engine.readScore("f 0 z\n", source: "podium")
        // Host code, one compile: `podium_voices` counts the voices for the audio thread's limit
        // (silent, the same in replay). And vco2 builds its band-limited tables at its first
        // note, inside the callback (17–23 ms of a 5.3 ms period measured here); built now,
        // before the client is activated, the first callback takes 0.3 ms. The same tables:
        // vco2init's defaults are what vco2 builds itself. Not when the orchestra calls vco2init
        // itself (again while its tables exist crashes).
        // What Csound compiled decides (an included library's vco2 counts); live code replayed
        // after this is read for the word.
        let vco2 = (engine.uses("vco2") || liveOrchestras.contains { OrchestraCheck.mentions($0, "vco2") })
            && !engine.uses("vco2init") && !liveOrchestras.contains { OrchestraCheck.mentions($0, "vco2init") }
        let host = Engine.voicesInstrument + (vco2 ? "\ngiPodiumVco2 vco2init 31\n" : "\n")
        try engine.compileHostCode(host)
        // The sampler's instruments, named (their numbers published as any named instrument's).
        if options.sampler {
            let first = engine.freeSamplerPair(from: SamplerOrchestra.firstNumber(after: engine.instruments))
            try engine.compileOrchestra(SamplerOrchestra.text(first: first), source: "podium sampler")
            engine.samplerInstrument = first
        }
        // SuperDirt's synths by name, but those the orchestra defines itself (DirtSynths.swift).
        engine.dirtSynthsKeptByOrchestra = try DirtSynths.compile(into: engine)
        // (Their named instruments fit Csound's table as they did the first time: compileOrchestra.)
        for text in liveOrchestras { try engine.compileOrchestra(text, source: "live") }
        engine.performInitPass()
        return engine
    }

    /// Csound's k-cycle 0, here, on the thread that built the engine: what the score and the
    /// global code started at time 0 runs its init pass now (the orbits' effects, the sampler's
    /// frames, the orchestra's held instruments and their first touch of memory), not in the
    /// audio thread's first callback. That callback took 1.9–2.1 ms of its own CPU here with
    /// the sampler (0.8 without), and 5.3–6 ms in 4 of 10 runs of the demo on a slower machine,
    /// over a whole period. The k-cycle's output is dropped (nothing is connected yet); a
    /// replay's engine starts here too, so the two stay alike sample for sample, Csound's clock
    /// one k-cycle ahead of the callbacks' in both.
    // Thread: NRT (owner)
    func performInitPass() {
        precondition(started, "init pass of an engine that has not started")
        _ = api.performKsmps()
        for i in 0..<(api.ksmps * api.nchnls) { api.spout[i] = 0 }
    }
}
