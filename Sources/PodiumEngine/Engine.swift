import Foundation
import Synchronization

/// A Csound instance with host-implemented audio. The only type that drives Csound.
///
/// Threads: everything is NRT (the owner) except `performKsmps`, `spin`, `spout` and
/// cached channel pointers, which belong to whoever performs (JACK callback or offline driver).
///
/// Csound 6.18 facts the design rests on (the audio thread's side: RTEngine.swift):
/// - Not `--realtime`: that mode moves every note's init pass to a helper thread polled once a
///   k-period, so notes would start late, at a timing-dependent k-cycle (no exact replay).
///   Without it `csoundPerformKsmps` and `csoundScoreEvent` take Csound's API lock, on the audio
///   thread only: during a performance orchestra code goes through `csoundCompileOrcAsync`
///   (parsed on the caller, merged by the audio thread), score text through
///   `csoundReadScoreAsync`, channel values through cached `csoundGetChannelPtr` pointers with
///   atomic stores, so the lock is never contended.
/// - An async compile's global code runs when the audio thread merges it: the host appends
///   `chnset <marker>, "podium.merged"` so the callback sees when it merged; score text gets a
///   marker note. Named instruments publish their numbers in `podium.instr.NAME` channels.
/// - Most of Csound's chatter carries the ERROR attribute: `Console.classify` keeps the lines
///   that read as errors. Compile errors are captured on the compiling thread and come back as
///   `CompileFailure` (`FILE:LINE: message`, Csound's lines kept).
/// - A CSD's orchestra compiles inside `csoundStart`, so the host's own code (marker, number
///   exports, `seed`) compiles after start; `f 0 z` and daemon mode hold a live performance open
///   (`forPerformance`). `sr` is JACK's, ksmps divides the period, nothing buffers in between.
public final class Engine: @unchecked Sendable {
    public let console: Console
    /// Host-implemented MIDI input (the queue the performing thread fills each k-cycle).
    public let midi = MIDIInput()
    /// Host-implemented MIDI output (what the orchestra sent in the last k-cycle).
    public let midiOut = MIDIOutput()
    public let options: EngineOptions
    let api: CsoundAPI
    /// Csound's host data: the console's and the MIDI queue's state.
    let hostData: UnsafeMutablePointer<EngineHostData>
    public private(set) var started = false
    /// What compiled so far: added by the compiling thread, read by every surface's (a note's
    /// instrument is checked here, a loop's or a session's orchestra read).
    let compiled = Mutex(Compiled())
    struct Compiled {
        var instruments = InstrumentTable()
        var identifiers: Set<String> = []
        var orchestraTexts: [String] = []
        /// Whole orchestras compiled before start, learnt when first asked (`learn(whole:)`).
        var unlearnt: [String] = []
        /// The size the host grew Csound's table of instruments to, and the numbers of the empty
        /// instruments that grew it (`makeRoom`, InstrumentTableGrowth.swift).
        var tableGrown = 0
        var roomInstruments: Set<Int> = []
    }
    /// The orchestra text that compiled, in order (sessions keep it): a copy.
    // Thread: any
    public var orchestraTexts: [String] { compiled.withLock { $0.orchestraTexts } }
    /// The sampler's first instrument (`podium_sampler`; `podium_orbits` is
    /// `SamplerOrchestra.orbitsNumber(first:)`), when the performance has sample banks.
    public internal(set) var samplerInstrument: Int?
    /// SuperDirt's synths not compiled because the orchestra has an instrument of that name;
    /// nil when none was compiled (the orchestra's numbers leave no room: `DirtSynths.compile`).
    public internal(set) var dirtSynthsKeptByOrchestra: [String]? = []
    /// The score text handed over at compile (for length estimates).
    public private(set) var scoreText: String = ""
    /// The csound `--port` a .csd's `<CsOptions>` asked for: Csound's own server is not started
    /// (it would listen on every address, unjournaled); Podium's csound port takes the port.
    public private(set) var csoundPortFromOptions: Int?
    /// `<CsOptions>` that asked for another performing mode than the host's, set back
    /// (`--realtime`: exact replay needs it off).
    public private(set) var modesFromOptions: [String] = []
    /// Audio and MIDI devices or files a .csd's `<CsOptions>` name (`-odac:hw:1`, `-o take.wav`,
    /// `-M hw:2`): the host's audio and MIDI take their place, Csound opens none of them.
    public private(set) var devicesFromOptions: [String] = []

    /// What `<CsOptions>` name that the host takes over: the audio output and input Csound
    /// parsed, and the MIDI devices (`-M`, `-Q`, `--midi-device=`, `--midi-out=`) as written.
    static func devices(output: String?, input: String?, options: String) -> [String] {
        var found: [String] = []
        if let output { found.append("-o \(output)") }
        if let input { found.append("-i \(input)") }
        let words = options.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        for (i, w) in words.enumerated() {
            for flag in ["-M", "-Q", "--midi-device=", "--midi-out="] where w.hasPrefix(flag) {
                let value = w.count > flag.count ? String(w.dropFirst(flag.count)) : (i + 1 < words.count ? words[i + 1] : "")
                if !value.isEmpty, !(flag.hasPrefix("-") && flag.count == 2 && w == flag && value.hasPrefix("-")) { found.append("\(flag.hasSuffix("=") ? flag : flag + " ")\(value)") }
            }
        }
        return found
    }
    /// What compile errors call the orchestra (its path, or the text's name).
    private var sourceName = "orchestra"
    /// The Csound options this engine was given (its flags, its search paths): a scratch Csound
    /// that learns what an orchestra defines is given the same.
    var appliedOptions: [String] = []
    /// Csound 6.18 adds a CSD's `<CsInstruments>` line to the line numbers of every later
    /// compile into this engine (REPL, OSC, hot reload): taken off again in their errors.
    private var lineOffset = 0

    // Thread: NRT (owner)
    public init(options: EngineOptions = EngineOptions(), console: Console = Console()) throws {
        try options.validate()
        self.console = console
        self.options = options
        hostData = .allocate(capacity: 1)
        hostData.initialize(to: EngineHostData(console: console.shared, midi: midi.queue, midiOut: midiOut.queue))
        do { api = try CsoundAPI.create(hostData: UnsafeMutableRawPointer(hostData)) } catch {
            hostData.deallocate()
            throw error
        }
        api.setMessageCallback(consoleMessageCallback)
        api.useHostAudio()
        for flag in options.csoundFlags { try api.setOption(flag) }
        appliedOptions = options.csoundFlags
        if options.midiInput {
            api.useHostMIDI(open: midiOpenCallback, read: midiReadCallback)
            try api.setOption("-M0")
        }
        if options.midiOutput {
            api.useHostMIDIOutput(open: midiOutOpenCallback, write: midiWriteCallback, close: midiOutCloseCallback)
            try api.setOption("-Q0")
        }
    }

    deinit {
        if started { api.cleanup() }
        api.destroy()
        hostData.deallocate()
    }

    public static var csoundVersion: String {
        let v = Int(CsoundAPI.version)
        return "\(v / 1000).\((v / 10) % 100).\(v % 10)"
    }

    // MARK: compile — Thread: NRT (owner)

    /// Compiles the source (before `start`). Errors carry Csound's own lines.
    public func compile(_ source: EngineSource) throws {
        // Files an orchestra names (soundin, GEN01, #include) are found beside it, as the
        // csound CLI finds them.
        switch source {
        case let .csd(path), let .orchestra(path, _): try searchBeside(path)
        case .text: break
        }
        switch source {
        case let .csd(path):
            sourceName = path
            let text = try Engine.read(path)
            try CSDSections.check(text, source: path)
            let sections = CSDSections(text)
            try checked(source: path) { api.compileCsd(path: path) }
            csoundPortFromOptions = api.takeServerPort(daemon: options.csoundFlags.contains(Engine.daemonFlag))
            modesFromOptions = api.takeBackModes(realtime: options.realtime, sampleAccurate: options.sampleAccurate)
            devicesFromOptions = Engine.devices(output: api.namedOutput, input: api.namedInput, options: sections.options)
            lineOffset = CSDSections.lineOf("<CsInstruments>", in: text) ?? 0
            keep(sections.orchestra)
            learn(whole: sections.orchestra)
            scoreText = sections.score
        case let .orchestra(path, score):
            sourceName = path
            try compileOrchestra(try Engine.read(path), source: path)
            if let score { try readScore(try Engine.read(score), source: score) }
        case let .text(orchestra, score, name):
            sourceName = name
            try compileOrchestra(orchestra, source: name)
            if let score { try readScore(score, source: name) }
        }
    }

    /// Runs a Csound call that compiles or reads, capturing what it prints on this thread:
    /// on failure the lines become the error; on success they go back into the console stream.
    @discardableResult
    func checked(source: String, shift: Int = 0, _ call: () -> Int32) throws -> [ConsoleLine] {
        let (rc, lines) = console.capturing(call)
        if rc != 0 { throw EngineError.compile(CompileFailure(source: source, diagnostics: Engine.errors(lines)).shifted(by: shift)) }
        console.post(lines)
        return lines
    }

    /// Compiles orchestra code now, merging it at once (before start, or while nothing
    /// performs). A failure leaves every existing instrument as it was.
    @discardableResult
    public func compileOrchestra(_ text: String, source: String) throws -> [ConsoleLine] {
        try OrchestraCheck.lexical(text, source: source)
        guard started else {
            let lines = try checked(source: source, shift: -lineOffset) { api.compileOrc(text + "\n") }
            keep(text)
            learn(whole: text)
            return lines
        }
        // Its global code runs inside this call, where only Csound's own call catches the longjmp
        // of a failed allocation (`memdie`): compiled so, then learnt in a scratch Csound when it
        // includes files (it may use the globals of what compiled before, which a scratch lacks).
        let declared = InstrumentTable.declared(in: text).names
        let found = included(text)
        // Room in Csound's table for its new named instruments (the host's own too: the sampler,
        // SuperDirt's synths), then the anchor (InstrumentTableGrowth.swift).
        let defined = definedInstruments(in: text, included: found)
        for number in try room(for: defined, source: source).steps { try growInstrumentTable(at: number) }
        let anchor = self.anchor(for: defined)
        let lines = try checked(source: source, shift: -lineOffset - (anchor == nil ? 0 : 2)) {
            api.compileOrc((anchor.map(Engine.roomInstrument) ?? "") + text + "\n" + Engine.exports(declared))
        }
        keep(text)
        let included = learn(text, parsed: found).names.filter { !declared.contains($0) }
        if !included.isEmpty { try checked(source: "podium host code") { api.compileOrc(Engine.exports(included)) } }
        return lines
    }

    /// Adds score text (sorted with the rest when read before start).
    public func readScore(_ text: String, source: String = "score") throws {
        try checked(source: source) { api.readScore(text) }
        if !started { scoreText += "\n" + text }
    }

    /// Channels the host creates before start (markers the audio thread watches).
    static let mergedMarker = "podium.merged"
    static let scoredMarker = "podium.scored"
    /// Instances active in the engine (all instruments), written every k-cycle by the host's
    /// `podium_voices` instrument in a performance; the audio thread reads it for the voice limit.
    static let voicesChannel = "podium.voices"
    /// `podium_voices`'s number (a hush spares it).
    static let voicesInstrumentChannel = "podium.voices.instr"
    static let voicesInstrument = """
    instr podium_voices
      chnset active:k(0), "\(voicesChannel)"
    endin
    prealloc "podium_voices", 1
    event_i "i", "podium_voices", 0, -1
    chnset nstrnum("podium_voices"), "\(voicesInstrumentChannel)"
    """
    private var nextMarker = 0.0

    /// Code that marks when the audio thread has applied an async compile or score text.
    static let markerName = "podium_score_marker"
    static let markerInstrument = """
    instr podium_score_marker
      chnset p4, "\(scoredMarker)"
      turnoff
    endin
    """

    /// Global code that publishes named instruments' numbers (`podium.instr.NAME`).
    static func exports(_ names: [String]) -> String {
        names.map { "chnset nstrnum(\"\($0)\"), \"podium.instr.\($0)\"\n" }.joined()
    }

    /// Starts Csound, then adds the host's own code. A CSD's orchestra is compiled inside
    /// csoundStart, so nothing may be compiled before it (it would become the header).
    public func start() throws {
        _ = try controlChannelPointer(Engine.mergedMarker, create: true)
        _ = try controlChannelPointer(Engine.scoredMarker, create: true)
        _ = try controlChannelPointer(Engine.voicesChannel, create: true)
        _ = try controlChannelPointer(Engine.voicesInstrumentChannel, create: true)
        for name in ClockChannels.names { _ = try controlChannelPointer(name, create: true) }
        for name in TableStaging.channels { _ = try controlChannelPointer(name, create: true) }
        let (result, lines) = console.capturing { () -> Result<Void, Error> in Result { try api.start() } }
        if case let .failure(error) = result {
            let errs = Engine.errors(lines)
            if errs.isEmpty { throw error }
            // The orchestra's global code ran here (an ftgen that cannot open its file): its name.
            throw EngineError.compile(CompileFailure(source: sourceName, diagnostics: errs))
        }
        console.post(lines)
        started = true
        compiled.withLock { learnPending(&$0) }
        // Runs before the first k-cycle, after the orchestra's own global code: the seed wins.
        // The orchestra's named instruments' numbers first (global code only), so that the
        // marker's compile knows what Csound's table of instruments holds.
        let names = instruments.names
        if !names.isEmpty { try checked(source: "podium host code") { api.compileOrc(Engine.exports(names)) } }
        var host = Engine.markerInstrument + "\n" + Engine.exports([Engine.markerName])
        if let seed = options.seed { host += "seed \(seed)\n" }
        // Csound 6.18 numbers a named instrument with the lowest number free, from 1
        // (csound_orc_compile.c, named_instr_assign_numbers): the host's own named instruments
        // (this marker, `podium_voices`, SuperDirt's synths) would take 1, 3, 4 …, and a
        // performer's `instr 3` typed later replaced one (`i "supersquare"` then played the
        // performer's instr 5, measured). Empty instruments of the host's hold every number
        // free from 1 to 99 (where live coders number instruments; the sampler's are 100 or
        // more), so the host's names come after them; a performer's `instr N` replaces an empty
        // one, as it does a table's growth step. Not every number below a high one: an
        // orchestra's instr 9999 would have made 9,900 of them.
        try holdNumbers(upTo: 99)
        // Host code: not the performer's, so not listed among instruments or session orchestras.
        try compileHostCode(host)
    }

    /// The host's own code compiled now, its named instruments given room in Csound's table of
    /// instruments first (InstrumentTableGrowth.swift: an orchestra of 199 named instruments
    /// left the host's past the table).
    // Thread: NRT (owner)
    func compileHostCode(_ code: String) throws {
        for number in try room(for: InstrumentTable.declared(in: code), source: "podium host code").steps { try growInstrumentTable(at: number) }
        _ = try checked(source: "podium host code") { api.compileOrc(code) }
    }

    /// The pointers and numbers the audio thread needs (valid while this engine lives).
    public var realtime: RTEngine {
        precondition(started, "realtime view of an engine that has not started")
        return RTEngine(csound: api.raw, spin: api.spin, spout: api.spout, ksmps: api.ksmps,
                        inputChannels: api.nchnlsInput, outputChannels: api.nchnls,
                        inputScale: api.zeroDBFS, outputScale: 1 / api.zeroDBFS,
                        mergedMarker: try! controlChannelPointer(Engine.mergedMarker),
                        scoredMarker: try! controlChannelPointer(Engine.scoredMarker),
                        voices: try! controlChannelPointer(Engine.voicesChannel),
                        clock: ClockChannels(ClockChannels.names.map { try! controlChannelPointer($0) }),
                        console: console.realtimeHandle, midi: midi.realtimeHandle, midiOut: midiOut.realtimeHandle,
                        voicesInstrument: (try? control(Engine.voicesInstrumentChannel)) ?? -1)
    }

    /// Compiles orchestra code while the engine performs: parsed and checked here (errors
    /// come back at once, nothing changes), merged by the audio thread at its next k-cycle.
    /// Returns the marker value the audio thread writes to `podium.merged` when it merges.
    // Thread: NRT (one producer)
    public func compileOrchestraAsync(_ text: String, source: String, register keep: Bool = true) throws -> Double {
        try OrchestraCheck.lexical(text, source: source)
        nextMarker += 1
        let marker = nextMarker
        // One compile, one merge (the journal's k-cycle for it): the text, the numbers Csound
        // gives the instruments it names, and the marker.
        let declared = InstrumentTable.declared(in: text).names
        guard keep else {
            // The host's own code, as Csound's own call compiles it.
            let code = text + "\n" + Engine.exports(declared) + "chnset \(InstrumentTable.format(marker)), \"\(Engine.mergedMarker)\"\n"
            try checked(source: source, shift: -lineOffset) { api.compileOrcAsync(code) }
            if let number = InstrumentTableGrowth.roomNumber(in: text) { noteRoomInstrument(number) }
            return marker
        }
        // First, an empty instrument that makes the compile's table as large as the performance's.
        let anchor = self.anchor(for: definedInstruments(in: text))
        let code = (anchor.map(Engine.roomInstrument) ?? "") + text + "\n" + Engine.exports(declared)
            + "chnset \(InstrumentTable.format(marker)), \"\(Engine.mergedMarker)\"\n"
        var parsed: CompiledOrchestra?
        try checked(source: source, shift: -lineOffset - (anchor == nil ? 0 : 2)) { () -> Int32 in
            let r = api.compileParsedAsync(code)
            parsed = r.found
            return r.code
        }
        if let anchor { parsed?.numbers.remove(anchor) }
        self.keep(text)
        // Named instruments of the files it includes: their numbers published by a second
        // compile (silent: channels only, for a hush's list and notes by name).
        let included = learn(text, parsed: parsed).names.filter { !declared.contains($0) }
        if !included.isEmpty { try checked(source: "podium host code") { api.compileOrcAsync(Engine.exports(included)) } }
        return marker
    }

    /// Grows Csound's table of instruments by a block with an empty instrument at `number`,
    /// compiled now as the host's code (an engine that is not performing: a rebuilt one, a check's).
    // Thread: NRT (owner)
    public func growInstrumentTable(at number: Int) throws {
        _ = try checked(source: "podium host code") { api.compileOrc(Engine.roomInstrument(number)) }
        noteRoomInstrument(number)
    }

    /// Score text while the engine performs (copied by Csound, read by the audio thread at its
    /// next k-cycle). Returns the marker value written to `podium.scored` when it was read.
    // Thread: NRT (one producer)
    public func readScoreAsync(_ text: String) -> Double {
        nextMarker += 1
        let marker = nextMarker
        api.readScoreAsync(text + "\ni \"podium_score_marker\" 0 0.001 \(InstrumentTable.format(marker))\n")
        return marker
    }

    // MARK: perform — Thread: RT or offline driver

    /// One k-cycle. True when the score has ended.
    @inline(__always)
    public func performKsmps() -> Bool { api.performKsmps() }

    /// Interleaved `ksmps * nchnls_i` input samples (0dBFS units).
    public var spin: UnsafeMutablePointer<Double> { api.spin }
    /// Interleaved `ksmps * nchnls` output samples (0dBFS units).
    public var spout: UnsafeMutablePointer<Double> { api.spout }

    // MARK: properties

    public var sampleRate: Double { api.sampleRate }
    public var ksmps: Int { api.ksmps }
    public var outputChannels: Int { api.nchnls }
    public var inputChannels: Int { api.nchnlsInput }
    public var zeroDBFS: Double { api.zeroDBFS }
    public var framesPerformed: Int64 { api.currentTimeSamples }
    public var scoreTime: Double { api.scoreTime }
    /// Opcode names this Csound knows (for completion).
    public func opcodeNames() -> [String] { api.opcodeNames() }

    // MARK: events — Thread: the performing thread, or NRT while not performing

    /// A score event for a numbered instrument (p1 may be fractional: 1.060).
    public func scoreEvent(instrument: Double, start: Double, duration: Double, _ rest: [Double] = []) throws {
        guard defines(number: instrument) else {
            throw EngineError.unknownInstrument(InstrumentTable.format(instrument))
        }
        var p = [instrument, start, duration] + rest
        let rc = p.withUnsafeMutableBufferPointer { api.scoreEvent(CChar(UInt8(ascii: "i")), $0.baseAddress!, $0.count) }
        if rc != 0 { throw EngineError.call("csoundScoreEvent", code: rc) }
    }

    /// A score event for a named instrument.
    public func scoreEvent(instrument name: String, start: Double, duration: Double, _ rest: [Double] = []) throws {
        guard defines(name: name) else { throw EngineError.unknownInstrument("\"\(name)\"") }
        let fields = ([start, duration] + rest).map { InstrumentTable.format($0) }.joined(separator: " ")
        try readScore("i \"\(name)\" \(fields)\n", source: "event")
    }
}
