import Foundation
import PodiumEngine
import Testing

/// The engine layer against the real libcsound.
@Suite("Engine", .serialized)
struct EngineTests {
    func startedEngine(_ file: String = Paths.fixture("channels.csd")) throws -> Engine {
        let engine = try Engine()
        try engine.compile(.csd(path: file))
        try engine.start()
        return engine
    }

    @Test("declared channels are listed with their ranges and defaults")
    func listsDeclaredChannels() throws {
        let engine = try startedEngine()
        let channels = Dictionary(uniqueKeysWithValues: engine.channels().map { ($0.name, $0) })
        let gain = try #require(channels["gain"])
        #expect(gain.kind == .control && gain.isInput && !gain.isOutput)
        #expect(gain.range == ChannelInfo.Range(minimum: 0, maximum: 1, defaultValue: 0.5, curve: .linear))
        let fader = try #require(channels["fader"])
        #expect(fader.isInput && fader.isOutput)
        #expect(fader.range?.curve == .exponential && fader.range?.defaultValue == 100)
        #expect(channels["doubled"]?.isOutput == true)
        #expect(channels["label"]?.kind == .string)
    }

    @Test("after the score ends, Csound's \"Score finished in csoundPerformKsmps()\" (every k-cycle) reaches the console once; the repeats are counted")
    func scoreFinishedOnce() throws {
        let engine = try Engine()
        try engine.compile(.text(orchestra: "sr = 48000\nksmps = 64\nnchnls = 1\n0dbfs = 1\ninstr 1\n  out oscili(0.1, 440)\nendin\n", score: "i 1 0 0.01\n", name: "short.csd"))
        try engine.start()
        var lines: [ConsoleLine] = []
        for _ in 0..<400 {
            _ = engine.performKsmps()
            lines += engine.console.drain()
        }
        let said = lines.filter { $0.text.hasPrefix("Score finished in csoundPerformKsmps()") }
        #expect(said.count == 1, "\(said.count) times")
        #expect(said.first?.text.contains("the performance goes on") == true)
        #expect(engine.console.scoreFinishedRepeats > 300, "Csound said it \(engine.console.scoreFinishedRepeats) more times")
    }

    @Test("a performance whose score only holds notes (an effect's `i \"verb\" 0 -1`) goes on: the held note sounds, a live note plays over it, Csound never says the score finished")
    func heldOnlyScore() throws {
        let dir = Paths.temporaryDirectory()
        let csd = dir.appendingPathComponent("held.csd").path
        try """
        <CsoundSynthesizer>
        <CsInstruments>
        nchnls = 1
        0dbfs = 1
        instr 1
          out oscili(0.3, 440)
        endin
        instr verb
          out oscili(0.1, 220)
        endin
        </CsInstruments>
        <CsScore>
        i "verb" 0 -1
        </CsScore>
        </CsoundSynthesizer>
        """.write(toFile: csd, atomically: true, encoding: .utf8)
        let engine = try Engine.forPerformance(source: .csd(path: csd), options: EngineOptions(), sampleRate: 48000, ksmps: 64)
        func peak(_ cycles: Int) -> Double {
            var m = 0.0
            for _ in 0..<cycles {
                _ = engine.performKsmps()
                for i in 0..<engine.ksmps { m = max(m, abs(engine.spout[i])) }
            }
            return m
        }
        #expect(abs(peak(200) - 0.1) < 0.01, "the held note sounds")
        try engine.scoreEvent(instrument: 1, start: 0, duration: 0.05)
        _ = peak(0)
        #expect(peak(30) > 0.35, "a live note over it")
        _ = peak(50)
        #expect(abs(peak(800) - 0.1) < 0.01, "the held note goes on")
        let said = engine.console.drain().filter { $0.text.contains("Score finished") }
        #expect(said.isEmpty, "\(said.map(\.text))")
    }

    @Test("a control value set by the host comes back through chnget/chnset")
    func controlRoundTrip() throws {
        let engine = try startedEngine()
        try engine.setControl("gain", 0.25)
        for _ in 0..<4 { _ = engine.performKsmps() }
        #expect(try engine.control("doubled") == 0.5)
        try engine.setControl("gain", 0.125)
        _ = engine.performKsmps()
        #expect(try engine.control("doubled") == 0.25)
        #expect(try engine.control("gain") == 0.125)
    }

    @Test("a cached channel pointer writes atomically and is read by the orchestra")
    func cachedPointer() throws {
        let engine = try startedEngine()
        let gain = try engine.controlChannelPointer("gain")
        gain.pointee = 0.4
        _ = engine.performKsmps()
        #expect(try engine.control("doubled") == 0.8)
    }

    @Test("a string channel round-trips through the orchestra")
    func stringRoundTrip() throws {
        let engine = try startedEngine()
        try engine.setString("label", "hello")
        _ = engine.performKsmps()
        #expect(try engine.string("echo") == "hello!")
    }

    @Test("unknown channels are errors, never silently created; a channel of the other kind says so (not \"unknown\")")
    func unknownChannel() throws {
        let engine = try startedEngine()
        #expect(throws: EngineError.unknownChannel("nope")) { try engine.setControl("nope", 1) }
        #expect(throws: EngineError.wrongKind(channel: "gain", isControl: true)) { try engine.setString("gain", "x") }
        #expect(EngineError.wrongKind(channel: "gain", isControl: true).description == "gain is a control channel: it takes a number, not text")
        #expect(!engine.channels().contains { $0.name == "nope" })
    }

    @Test("compile errors come back with Csound's lines and line numbers")
    func compileErrorsHaveLineNumbers() throws {
        let engine = try Engine()
        let code = """
        instr 1
          a1 oscili 0.1, 440
          a2 nosuchopcode a1
          out a1
        endin
        """
        do {
            try engine.compileOrchestra(code, source: "live.orc")
            Issue.record("the broken orchestra compiled")
        } catch let EngineError.compile(failure) {
            #expect(failure.lines.contains(3), "lines: \(failure.lines), diagnostics: \(failure.diagnostics)")
            #expect(failure.description.hasPrefix("live.orc:3: "))
            #expect(failure.diagnostics.contains { $0.contains("nosuchopcode") })
        }
        do {
            // An unfinished line: Csound reports the line where it met the next token.
            try engine.compileOrchestra("instr 2\n out oscili(0.1, 440)\n a1 = \nendin\n", source: "x")
            Issue.record("the broken orchestra compiled")
        } catch let EngineError.compile(failure) {
            #expect(failure.lines == [4], "diagnostics: \(failure.diagnostics)")
            #expect(failure.diagnostics.contains(">>> endin <<<"))
        }
    }

    @Test("a CSD that does not compile reports its file line")
    func csdErrorLine() throws {
        let engine = try Engine()
        #expect {
            try engine.compile(.csd(path: Paths.fixture("broken.csd")))
        } throws: { error in
            guard case let EngineError.compile(failure) = error else { return false }
            return failure.lines.contains(10) && failure.description.contains("broken.csd:10")
        }
    }

    @Test("a failed compile keeps the old instrument; a good one replaces it for new notes")
    func failedCompileKeepsOldInstrument() throws {
        let engine = try Engine(options: EngineOptions(sampleRate: 48000, ksmps: 64, nchnls: 1))
        try engine.compileOrchestra("0dbfs = 1\ninstr 1\n a1 = p4\n out a1\nendin\n", source: "v1")
        try engine.start()
        func level(after event: Double) throws -> Double {
            try engine.scoreEvent(instrument: 1, start: 0, duration: 0.005, [event])
            _ = engine.performKsmps()
            let value = engine.spout[10]
            for _ in 0..<10 { _ = engine.performKsmps() }  // the note ends
            return value
        }
        #expect(try level(after: 0.5) == 0.5)
        #expect(throws: (any Error).self) { try engine.compileOrchestra("instr 1\n a1 = p4 *\n out a1\nendin\n", source: "v2") }
        #expect(try level(after: 0.25) == 0.25)
        try engine.compileOrchestra("instr 1\n a1 = p4 * 2\n out a1\nendin\n", source: "v3")
        #expect(try level(after: 0.25) == 0.5)
    }

    @Test("events by number and by name; unknown instruments are refused")
    func events() throws {
        let engine = try Engine(options: EngineOptions(nchnls: 1))
        try engine.compileOrchestra("sr = 48000\nksmps = 64\n0dbfs = 1\ninstr 1, beep\n a1 = p4\n out a1\nendin\ninstr 3\n a1 = p4\n out a1\nendin\n", source: "ev")
        try engine.start()
        #expect(engine.instruments.numbers == [1, 3])
        #expect(engine.instruments.names == ["beep"])
        try engine.scoreEvent(instrument: 3, start: 0, duration: 1, [0.125])
        try engine.scoreEvent(instrument: "beep", start: 0, duration: 1, [0.25])
        _ = engine.performKsmps()
        #expect(engine.spout[0] == 0.375)
        #expect(throws: EngineError.unknownInstrument("2")) { try engine.scoreEvent(instrument: 2, start: 0, duration: 1) }
        #expect(throws: EngineError.unknownInstrument("\"bass\"")) { try engine.scoreEvent(instrument: "bass", start: 0, duration: 1) }
    }

    @Test("a surface's thread reads the instruments and orchestras while compiles add them: every read is one whole compile's state, in order")
    func instrumentsReadWhileCompiling() throws {
        let engine = try Engine(options: EngineOptions(sampleRate: 48000, ksmps: 64, nchnls: 1))
        try engine.compileOrchestra("0dbfs = 1\ninstr 1\n out a(p4)\nendin\n", source: "first")
        try engine.start()
        let count = 60
        let compiler = Thread {
            for n in 2...count { try? engine.compileOrchestra("instr \(n)\n out a(p4)\nendin\n", source: "i\(n)") }
        }
        compiler.start()
        var reads = 0, torn = 0, lastSeen = 1
        let deadline = Date().addingTimeInterval(30)
        while lastSeen < count, Date() < deadline {
            // One read of the table is one compile's state: 1…k, whole. Later reads may see later
            // compiles, never fewer: the texts of 1…k at least, and k still defined.
            let table = engine.instruments
            let k = table.numbers.count
            let texts = engine.orchestraTexts
            if table.numbers != Set(1...max(k, 1)) || texts.count < k || !engine.defines(number: Double(k)) { torn += 1 }
            lastSeen = max(lastSeen, k)
            reads += 1
        }
        #expect(torn == 0)
        #expect(lastSeen == count)
        #expect(engine.orchestraTexts.count == count)
        #expect(engine.instruments.numbers == Set(1...count))
        #expect(reads > 1)
    }


    @Test("overrides no performance can mean are refused with the reason")
    func badOverrides() {
        #expect(throws: EngineError.badOption("sr 1", reason: "out of range (1000–768000 Hz)")) { try Engine(options: EngineOptions(sampleRate: 1)) }
        #expect(throws: EngineError.badOption("ksmps 0", reason: "out of range (1–8192)")) { try Engine(options: EngineOptions(ksmps: 0)) }
        #expect(throws: EngineError.badOption("ksmps 4096", reason: "larger than sr 2000")) { try Engine(options: EngineOptions(sampleRate: 2000, ksmps: 4096)) }
    }

    @Test("overrides reach Csound")
    func overridesApply() throws {
        let engine = try Engine(options: EngineOptions(sampleRate: 44100, ksmps: 10, nchnls: 3))
        try engine.compile(.csd(path: Paths.orchestra("sine.csd")))
        try engine.start()
        #expect(engine.sampleRate == 44100)
        #expect(engine.ksmps == 10)
        #expect(engine.outputChannels == 3)
    }

    @Test("Csound's own refusal (inconsistent sr, kr, ksmps) is an error naming it")
    func csoundRefusal() throws {
        let engine = try Engine()
        #expect {
            try engine.compileOrchestra("sr = 48000\nkr = 1000\nksmps = 64\ninstr 1\nendin\n", source: "kr.orc")
            try engine.start()
        } throws: { error in "\(error)".contains("inconsistent sr, kr, ksmps") }
    }

    @Test("a score event never ties onto a MIDI note: Csound 6.18 froze csoundPerformKsmps for good on note-on (channel 2), i2 0 0.002, note-off, i2 0 1, i2 0 0.002 (the tie leaves the note in its key's list and the note-off frees it twice); once a note-on came in, events carry p1 off the whole number")
    func scoreEventNeverTiesOntoMIDINote() throws {
        #expect(RTEngine.untied(2) == 2 + 1e-9 && RTEngine.untied(-2) == -2 - 1e-9)
        #expect(RTEngine.untied(2.5) == 2.5 && RTEngine.untied(0) == 0 && RTEngine.untied(.nan).isNaN)
        let orchestra = "nchnls = 2\n0dbfs = 1\ninstr 1\n a1 oscili 0.1, 440\n outs a1, a1\nendin\ninstr 2\n a1 oscili 0.1, 660\n outs a1, a1\nendin\n"
        let engine = try Engine.forPerformance(source: .text(orchestra: orchestra, score: nil, name: "tie.orc"), options: EngineOptions(),
                                               sampleRate: 48000, ksmps: 64, liveOrchestras: [])
        let rt = engine.realtime
        let done = DispatchSemaphore(value: 0)
        // The k-cycles the steps run before (the sequence the fuzz found, made smaller).
        let steps: [(cycle: Int, midi: [UInt8]?, event: [Double]?)] = [
            (16, [0x91, 61, 64], nil), (109, nil, [2, 0, 0.002]), (384, [0x81, 61, 0], nil),
            (426, nil, [2, 0, 1]), (427, nil, [2, 0, 0.002])]
        let thread = Thread {
            var next = 0
            for cycle in 0..<800 {
                rt.midi.clear()
                while next < steps.count, steps[next].cycle == cycle {
                    if let m = steps[next].midi { _ = m.withUnsafeBufferPointer { rt.midi.add($0.baseAddress!, count: 3) } }
                    if var e = steps[next].event { e.withUnsafeMutableBufferPointer { rt.scoreEvent($0.baseAddress!, count: 3) } }
                    next += 1
                }
                _ = rt.performKsmps()
            }
            done.signal()
        }
        thread.start()
        let returned = done.wait(timeout: .now() + 20) == .success
        #expect(returned, "csoundPerformKsmps did not return")
        // Stuck inside Csound, the thread holds its API lock: destroying the engine would wait for ever.
        if !returned { _ = Unmanaged.passRetained(engine) }
    }

    @Test("a performance's own orchestra with instr 10000 does not start: the error names the number and the range")
    func performanceRefusesHighInstrumentNumber() {
        let orchestra = "nchnls = 2\ninstr 10000\n out a(0)\nendin\n"
        do {
            _ = try Engine.forPerformance(source: .text(orchestra: orchestra, score: nil, name: "high.orc"), options: EngineOptions(),
                                          sampleRate: 48000, ksmps: 64, liveOrchestras: [])
            Issue.record("an orchestra with instr 10000 started")
        } catch {
            #expect("\(error)".contains("instr 10000: a performance takes instrument numbers 1 to 9999"), "\(error)")
            #expect("\(error)".contains("high.orc"), "\(error)")
        }
    }
}

/// Capturing the process's stdout and stderr sees every test's output that runs at the same
/// time, so this runs with the one-at-a-time suites (in the core test process: scripts/test).
extension JackSuites {
@Suite("Engine console", .serialized)
struct EngineConsoleTests {
    @Test("Csound's console is captured, never printed")
    func consoleIsCaptured() throws {
        var lines: [ConsoleLine] = []
        let printed = try capturingStandardOutputAndError {
            let engine = try Engine()
            try engine.compileOrchestra("sr = 48000\nksmps = 64\nnchnls = 1\n0dbfs = 1\ninstr 1\n prints \"hello from the orchestra\\n\"\nendin\n", source: "c")
            try engine.readScore("i1 0 0.01\n")
            try engine.start()
            for _ in 0..<10 { _ = engine.performKsmps() }
            lines = engine.console.flush()
        }
        #expect(printed.isEmpty, "printed: \(printed)")
        #expect(lines.contains { $0.text.contains("hello from the orchestra") })
        #expect(lines.contains { $0.text.contains("Csound version") })
    }
}
}
