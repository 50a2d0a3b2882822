import CCsound
import CThreads
import Glibc

/// The one file through which every Csound C call passes (swift-system style).
/// Everything above it speaks Swift types; every failure names the call.
/// Csound 7 renames some of these calls: only this file changes then.
public struct CsoundAPI: @unchecked Sendable {
    /// The CSOUND* handle. Owned by `Engine`; destroyed in `destroy()`.
    public let raw: OpaquePointer

    // MARK: life cycle — Thread: NRT (engine owner)

    static let initialized: Bool = {
        // No signal handlers or atexit hooks: the host owns Ctrl-C and exit.
        _ = csoundInitialize(CSOUNDINIT_NO_SIGNAL_HANDLER | CSOUNDINIT_NO_ATEXIT)
        return true
    }()

    // Thread: NRT (engine owner)
    static func create(hostData: UnsafeMutableRawPointer?) throws -> CsoundAPI {
        _ = initialized
        guard podium_myflt_size() == MemoryLayout<Double>.size else {
            throw EngineError.call("csoundCreate (MYFLT is not double in this libcsound)", code: -1)
        }
        guard let cs = csoundCreate(hostData) else { throw EngineError.call("csoundCreate", code: -1) }
        return CsoundAPI(raw: cs)
    }

    // Thread: NRT (engine owner)
    func destroy() { csoundDestroy(raw) }

    static var version: Int32 { csoundGetVersion() }

    // Thread: NRT (engine owner)
    func setOption(_ option: String) throws {
        let rc = csoundSetOption(raw, option)
        if rc != CSOUND_SUCCESS.rawValue { throw EngineError.badOption(option, reason: "csoundSetOption returned \(rc)") }
    }

    // Thread: NRT (engine owner), before start
    func useHostAudio() { csoundSetHostImplementedAudioIO(raw, 1, 0) }

    // Thread: NRT (engine owner)
    func setMessageCallback(_ cb: @convention(c) (OpaquePointer?, Int32, UnsafePointer<CChar>?) -> Void) {
        csoundSetMessageStringCallback(raw, cb)
    }

    // Thread: any (reads a field)
    static func hostData(_ cs: OpaquePointer) -> UnsafeMutableRawPointer? { csoundGetHostData(cs) }

    /// The UDP port a .csd's `<CsOptions>` asked Csound's own server to open (`--port=N`, as
    /// Csound parsed it: its `daemon` parameter), which is then switched off: Csound would bind
    /// it to every address, take code from anyone and journal nothing. Nil when none was asked.
    // Thread: NRT (engine owner), after the CSD compiled and before start
    func takeServerPort(daemon: Bool) -> Int? {
        var p = CSOUND_PARAMS()
        csoundGetParams(raw, &p)
        guard p.daemon > 1 else { return nil }
        let port = Int(p.daemon)
        // 1: daemon mode without a server (a live performance's; see Engine.forPerformance).
        p.daemon = daemon ? 1 : 0
        csoundSetParams(raw, &p)
        return port
    }

    /// A .csd's `<CsOptions>` that would change how the engine performs are set back to the
    /// host's choice: `--realtime` (Csound's realtime mode breaks exact replay) and
    /// `--sample-accurate` off. Returns the options that were taken back, as written.
    // Thread: NRT (engine owner), after the CSD compiled and before start
    func takeBackModes(realtime: Bool, sampleAccurate: Bool) -> [String] {
        var p = CSOUND_PARAMS()
        csoundGetParams(raw, &p)
        var taken: [String] = []
        if (p.realtime_mode != 0) != realtime { taken.append(realtime ? "no --realtime" : "--realtime"); p.realtime_mode = realtime ? 1 : 0 }
        if (p.sample_accurate != 0) != sampleAccurate { taken.append(sampleAccurate ? "no --sample-accurate" : "--sample-accurate"); p.sample_accurate = sampleAccurate ? 1 : 0 }
        if !taken.isEmpty { csoundSetParams(raw, &p) }
        return taken
    }

    /// The sound output and input a .csd's `<CsOptions>` named (`-o dac:hw:1`, `-o take.wav`,
    /// `-i adc`): with the host's audio, Csound opens neither (nil when none was named).
    // Thread: NRT (engine owner)
    var namedOutput: String? { csoundGetOutputName(raw).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
    var namedInput: String? { csoundGetInputName(raw).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }

    // MARK: compile — Thread: NRT (engine owner)

    /// Csound 6.18's parser numbers the labels of its `if`/`while` in one counter shared by every
    /// instance (`genlabs`, csound_orc_expressions.c, a static): two parses at once, in two
    /// engines of one process (the tests', or a performance's and a table staging's), made the
    /// same label twice ("Variable '__synthetic_740' used before defined", seen). Every parse of
    /// the process holds this lock.
    static let parser = ParserLock()

    func compileOrc(_ text: String) -> Int32 { CsoundAPI.parser.withLock { _ in csoundCompileOrc(raw, text) } }
    /// Parses on the caller; the merge runs on the audio thread at the next k-cycle.
    ///
    /// Csound 6.18 guards every allocation with one spin lock (`memlock`, memalloc.c), and
    /// after handing the merge over this call frees its parse tree — while the audio thread
    /// merges, allocating. A caller preempted holding that lock made the audio thread spin:
    /// merges of 3 to 14 ms of CPU in one loaded run in twelve (the samples' load test beside
    /// stress-ng), against 0.3 ms. So the call runs at SCHED_FIFO 1 when the process may:
    /// no ordinary thread preempts it then.
    func compileOrcAsync(_ text: String) -> Int32 {
        let saved = podium_fifo_begin()
        defer { podium_fifo_end(saved) }
        return CsoundAPI.parser.withLock { _ in csoundCompileOrcAsync(raw, text) }
    }
    func compileCsd(path: String) -> Int32 { CsoundAPI.parser.withLock { _ in csoundCompileCsd(raw, path) } }
    func compileCsdText(_ text: String) -> Int32 { CsoundAPI.parser.withLock { _ in csoundCompileCsdText(raw, text) } }
    func readScore(_ text: String) -> Int32 { csoundReadScore(raw, text) }
    /// Csound copies the text; the audio thread reads it at its next k-cycle.
    func readScoreAsync(_ text: String) { csoundReadScoreAsync(raw, text) }
    func evalCode(_ text: String) -> Double { CsoundAPI.parser.withLock { _ in csoundEvalCode(raw, text) } }

    func start() throws {
        let rc = csoundStart(raw)
        if rc != CSOUND_SUCCESS.rawValue { throw EngineError.call("csoundStart", code: rc) }
    }

    func cleanup() { _ = csoundCleanup(raw) }

    // MARK: performance — Thread: RT (audio thread) or the offline driver

    /// Returns true when the score has ended (or Csound stopped).
    // Thread: RT (JACK callback) or offline driver
    @inline(__always)
    func performKsmps() -> Bool { csoundPerformKsmps(raw) != 0 }

    var spin: UnsafeMutablePointer<Double> { csoundGetSpin(raw) }
    var spout: UnsafeMutablePointer<Double> { csoundGetSpout(raw) }

    // MARK: properties — Thread: any (plain reads)

    var sampleRate: Double { csoundGetSr(raw) }
    var ksmps: Int { Int(csoundGetKsmps(raw)) }
    var nchnls: Int { Int(csoundGetNchnls(raw)) }
    var nchnlsInput: Int { Int(csoundGetNchnlsInput(raw)) }
    var zeroDBFS: Double { csoundGet0dBFS(raw) }
    var currentTimeSamples: Int64 { csoundGetCurrentTimeSamples(raw) }
    var scoreTime: Double { csoundGetScoreTime(raw) }

    // MARK: channels

    /// Thread: NRT. Creates nothing when `type` is 0: returns the existing type or an error.
    func channelPointer(_ name: String, type: Int32) -> (UnsafeMutablePointer<Double>?, Int32) {
        var p: UnsafeMutablePointer<Double>?
        let rc = csoundGetChannelPtr(raw, &p, name, type)
        return (p, rc)
    }

    /// A string channel's storage (STRINGDAT) and its spin lock, for stores without allocation.
    // Thread: NRT
    func stringChannelStorage(_ name: String) -> (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?)? {
        var p: UnsafeMutablePointer<Double>?
        let type: Int32 = 3 | 16  // CSOUND_STRING_CHANNEL | CSOUND_INPUT_CHANNEL
        guard csoundGetChannelPtr(raw, &p, name, type) == 0, let p else { return nil }
        return (UnsafeMutableRawPointer(p), csoundGetChannelLock(raw, name))
    }

    /// MIDI input from the host (before start): Csound calls `read` once per k-cycle.
    // Thread: NRT (before start)
    func useHostMIDI(open: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?) -> Int32,
                     read: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32) {
        csoundSetHostImplementedMIDIIO(raw, 1)
        csoundSetExternalMidiInOpenCallback(raw, open)
        csoundSetExternalMidiReadCallback(raw, read)
    }

    /// MIDI output to the host (before start): Csound calls `write` for each message it sends.
    // Thread: NRT (before start)
    func useHostMIDIOutput(open: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?, UnsafePointer<CChar>?) -> Int32,
                           write: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int32) -> Int32,
                           close: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32) {
        csoundSetHostImplementedMIDIIO(raw, 1)
        csoundSetExternalMidiOutOpenCallback(raw, open)
        csoundSetExternalMidiWriteCallback(raw, write)
        csoundSetExternalMidiOutCloseCallback(raw, close)
    }

    // Thread: NRT
    func listChannels() -> [ChannelInfo] {
        var list: UnsafeMutablePointer<controlChannelInfo_t>?
        let n = csoundListChannels(raw, &list)
        guard n > 0, let list else { return [] }
        defer { csoundDeleteChannelList(raw, list) }
        return (0..<Int(n)).map { i in
            let e = list[i]
            let h = e.hints
            let kind: ChannelInfo.Kind
            switch e.type & Int32(CSOUND_CHANNEL_TYPE_MASK.rawValue) {
            case Int32(CSOUND_CONTROL_CHANNEL.rawValue): kind = .control
            case Int32(CSOUND_AUDIO_CHANNEL.rawValue): kind = .audio
            case Int32(CSOUND_STRING_CHANNEL.rawValue): kind = .string
            default: kind = .other
            }
            let hasHints = h.behav != CSOUND_CONTROL_CHANNEL_NO_HINTS
            return ChannelInfo(
                name: String(cString: e.name),
                kind: kind,
                isInput: e.type & Int32(CSOUND_INPUT_CHANNEL.rawValue) != 0,
                isOutput: e.type & Int32(CSOUND_OUTPUT_CHANNEL.rawValue) != 0,
                range: hasHints ? ChannelInfo.Range(minimum: h.min, maximum: h.max, defaultValue: h.dflt,
                                                    curve: ChannelInfo.Curve(behaviour: h.behav.rawValue)) : nil,
                place: hasHints && h.width > 0 && h.height > 0
                    ? ChannelInfo.Place(x: Int(h.x), y: Int(h.y), width: Int(h.width), height: Int(h.height)) : nil,
                attributes: hasHints ? h.attributes.map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } : nil)
        }
    }

    // Thread: NRT (takes Csound's channel spin lock)
    /// Table `number`'s values and its length without the guard point (nil: no such table).
    func table(_ number: Int32) -> (values: UnsafeMutablePointer<Double>, length: Int)? {
        var p: UnsafeMutablePointer<Double>?
        let n = csoundGetTable(raw, &p, number)
        guard n > 0, let p else { return nil }
        return (p, Int(n))
    }

    func setControlChannel(_ name: String, _ value: Double) { csoundSetControlChannel(raw, name, value) }
    // Thread: NRT
    func controlChannel(_ name: String) -> (Double, Int32) {
        var err: Int32 = 0
        let v = csoundGetControlChannel(raw, name, &err)
        return (v, err)
    }
    // Thread: NRT
    func setStringChannel(_ name: String, _ value: String) {
        var bytes = Array(value.utf8CString)
        bytes.withUnsafeMutableBufferPointer { csoundSetStringChannel(raw, name, $0.baseAddress) }
    }
    // Thread: NRT
    func stringChannel(_ name: String) -> String {
        // The channel's own size (it grows with the longest string stored).
        let size = max(Int(csoundGetChannelDatasize(raw, name)), 1) + 1
        var buffer = [CChar](repeating: 0, count: size)
        return buffer.withUnsafeMutableBufferPointer { buf -> String in
            name.withCString { csoundGetStringChannel(raw, $0, buf.baseAddress) }
            return String(cString: buf.baseAddress!)
        }
    }

    /// Atomic store through a cached channel pointer (csound.h's rule for hosts).
    // Thread: RT or NRT
    @inline(__always)
    static func store(_ p: UnsafeMutablePointer<Double>, _ v: Double) { podium_channel_store(p, v) }
    // Thread: RT or NRT
    @inline(__always)
    static func load(_ p: UnsafeMutablePointer<Double>) -> Double { podium_channel_load(p) }

    // MARK: events

    /// Synchronous score event; p-fields are read before it returns.
    // Thread: the thread that performs (RT callback, offline driver), or NRT when not performing
    @inline(__always)
    func scoreEvent(_ type: CChar, _ pfields: UnsafePointer<Double>, _ count: Int) -> Int32 {
        csoundScoreEvent(raw, type, pfields, count)
    }

    // Thread: NRT
    func opcodeNames() -> [String] {
        var list: UnsafeMutablePointer<opcodeListEntry>?
        let n = csoundNewOpcodeList(raw, &list)
        guard n > 0, let list else { return [] }
        defer { csoundDisposeOpcodeList(raw, list) }
        var names = Set<String>()
        for i in 0..<Int(n) { if let name = list[i].opname { names.insert(String(cString: name)) } }
        return names.sorted()
    }

    // MARK: score sorting — Thread: NRT

    /// Csound's own score preprocessor and sorter (macros, carry, tempo, sections),
    /// on a scratch instance. Returns the sorted score text (times as hex floats).
    static func sortScore(_ text: String) -> String? {
        _ = initialized
        guard let cs = csoundCreate(nil) else { return nil }
        defer { csoundDestroy(cs) }
        csoundSetMessageStringCallback(cs) { _, _, _ in }
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes.withUnsafeMutableBytes { buf -> String? in
            guard let input = fmemopen(buf.baseAddress, buf.count, "r") else { return nil }
            defer { fclose(input) }
            guard let output = tmpfile() else { return nil }
            defer { fclose(output) }
            guard csoundScoreSort(cs, input, output) == 0 else { return nil }
            rewind(output)
            var result = ""
            var line = [CChar](repeating: 0, count: 4096)
            while line.withUnsafeMutableBufferPointer({ fgets($0.baseAddress, Int32($0.count), output) }) != nil {
                result += line.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
            return result
        }
    }
}

/// A plain mutex for `CsoundAPI.parser` (what a parse returns, a tree, is not Sendable).
final class ParserLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(m, nil)
        return m
    }()
    // Thread: NRT (any)
    func withLock<T>(_ body: (Void) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(())
    }
}
