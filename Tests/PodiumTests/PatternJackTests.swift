import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumPatterns
import PodiumProbe
import PodiumRealtime
import PodiumSession
import PodiumSurfaces
import CAllocCounter
import Synchronization
import Testing

/// Patterns played through a real `jackd -d dummy` and heard by a frame-stamped capture client.
extension JackSuites {
@Suite("patterns on the clock", .serialized)
final class PatternJackTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// `lvl`: a step of its level on output 2 for p3 (onsets and levels are read from the
    /// capture); it declares its one parameter, `gain`, as p4.
    static let orchestra = """
    nchnls = 2
    0dbfs = 1

    instr lvl ; podium: gain
      a1 linseg p4, p3, p4
      outs a(0), a1
    endin

    instr 2
      a1 linseg p4, p3, p4
      outs a(0), a1
    endin
    """

    func makeDriver(tempo: Double = 240, seed: UInt32? = nil) -> JackDriver {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        jack.tempo = tempo
        return JackDriver(source: .text(orchestra: PatternJackTests.orchestra, score: nil, name: "patterns.orc"),
                          options: EngineOptions(seed: seed), jack: jack)
    }

    /// A driver at 240 BPM, the loops' scheduler (problems collected) and a capture client
    /// recording `podium:out_2`, for a test of what patterns sound like.
    func withHeardPatterns(seconds: Double, _ body: (JackDriver, LiveLoops, CaptureClient, () -> [String]) throws -> Void) throws {
        let driver = makeDriver(tempo: 240)
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        let problems = Mutex<[String]>([])
        loops.onProblem = { p in problems.withLock { $0.append(p) } }
        loops.start()
        defer { loops.stopScheduler() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: seconds)
        try capture.connect(from: "podium:out_2", channel: 0)
        Thread.sleep(forTimeInterval: 0.2)
        capture.start()
        try body(driver, loops, capture) { problems.withLock { $0 } }
    }

    @Test("every onset of `s \"lvl*4 [~ lvl]\"` lands on its beat's exact frame (a cycle is a bar)")
    func exactOnsets() throws {
        // A beat is 12000 frames, a cycle (bar) 48000.
        try withHeardPatterns(seconds: 6) { driver, loops, capture, problems in
            let xrunsBefore = driver.stats.xruns
            let said = try loops.patterns.run("d1 $ s \"lvl*4 [~ lvl]\" # gain 0.3 # legato 0.5", producer: driver.makeProducer(), loops: loops)
            #expect(said == "d1: playing")
            Thread.sleep(forTimeInterval: 3.2)
            let clock = driver.clock  // published while the capture records (PerformedBeats)
            _ = loops.patterns.hushAll()
            Thread.sleep(forTimeInterval: 0.3)
            capture.stopRecording()
            #expect(problems().isEmpty, "\(problems())")
            // Onsets as recorded samples: performed frames, which skipped server periods are not in.
            let onsets = capture.onsets(0).compactMap { capture.sampleIndex(ofFrame: $0) }
            #expect(onsets.count >= 12, "onsets \(onsets.count)")
            let beats = try #require(performedBeats(capture, clock), "the clock's frame \(clock.frame) was not recorded")
            // Five onsets in every whole bar heard (the first and last may be cut by the start and the hush).
            let bars = Dictionary(grouping: onsets) { ((beats.beat(ofSample: $0) + 0.01) / 4).rounded(.down) }
            let whole = bars.keys.sorted().dropFirst().dropLast()
            #expect(!whole.isEmpty && whole.allSatisfy { bars[$0]!.count == 5 }, "onsets per bar: \(bars.mapValues(\.count))")
            // Each onset on the frame of a step: `lvl*4` fills the bar's first half (beats 0, 0.5,
            // 1, 1.5), `[~ lvl]` its last quarter (beat 3).
            let steps: [Double] = [0, 0.5, 1, 1.5, 3]
            var wrong: [String] = []
            for onset in onsets {
                let beat = beats.beat(ofSample: onset) + 0.01
                let bar = (beat / 4).rounded(.down)
                let candidates = steps.map { beats.sample(ofBeat: bar * 4 + $0) }
                if !candidates.contains(onset) { wrong.append("\(onset) (beat \(beat))") }
            }
            let xruns = driver.stats.xruns - xrunsBefore
            #expect(wrong.isEmpty || xruns > 0, "onsets off their step's frame: \(wrong) (xruns \(xruns))")
        }
    }

    @Test("d1 typed again mid-cycle swaps at the next cycle: every step sounds once, each cycle from one definition")
    func swapsAtTheCycle() throws {
        try withHeardPatterns(seconds: 9) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            let levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
            for level in levels {
                let said = try loops.patterns.run("d1 $ s \"lvl*4\" # gain \(level) # legato 0.5", producer: producer, loops: loops)
                #expect(said.hasPrefix("d1: "))
                Thread.sleep(forTimeInterval: 1.37)   // about a cycle and a third
            }
            _ = try loops.patterns.run("d1 silence", producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 1.5)
            capture.stopRecording()
            #expect(problems().isEmpty, "\(problems())")
            // Steps of 6000 frames, 6000 apart: a period of server silence inside one (a late
            // client, under load) is not a new step.
            let onsets = capture.onsets(0, quiet: 2048)
            let s = capture.samples(0)
            let heard = onsets.compactMap { capture.sampleIndex(ofFrame: $0) }.map { (Double(s[$0 + 8]) * 10).rounded() / 10 }
            let gaps = zip(onsets, onsets.dropFirst()).map { $1 - $0 }
            #expect(onsets.count >= 4 * levels.count, "onsets \(onsets.count)")
            // Exact, or the machine's load counted: an xrun, or a note that reached the audio
            // thread after its frame (played at once and counted as late).
            let stats = driver.stats
            #expect(gaps.allSatisfy { $0 == 12000 } || stats.xruns > 0 || stats.lateCommands > 0,
                    "one onset every beat: \(gaps) (xruns \(stats.xruns), late \(stats.lateCommands))")
            // A definition plays whole cycles (4 steps) and the levels come in the order sent.
            var runs: [(Double, Int)] = []
            for l in heard { if runs.last?.0 == l { runs[runs.count - 1].1 += 1 } else { runs.append((l, 1)) } }
            #expect(runs.map(\.0) == levels, "levels in order: \(runs)")
            #expect(runs.dropFirst().dropLast().allSatisfy { $0.1 % 4 == 0 }, "whole cycles of each: \(runs)")
            #expect(loops.patterns.names.isEmpty, "d1 silence ended the slot at its cycle: \(loops.patterns.names)")
        }
    }

    @Test("Tidal's /ctrl on the OSC port drives cF in a playing pattern from its next cycle; a TouchOSC control's value is a controller too")
    func controllerInput() throws {
        // A cycle is a bar: 48000 frames at 240 BPM.
        try withHeardPatterns(seconds: 12) { driver, loops, capture, problems in
            let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
            osc.loops = loops
            osc.start()
            defer { osc.stop() }
            func send(_ args: [String]) throws {
                let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "message"] + args)
                #expect(r.status == 0, "python-osc client: \(r.stderr)")
            }
            let said = try loops.patterns.run("d1 $ s \"lvl*4\" # gain (cF 0.2 \"lev\" * cF 1 \"fader1\") # legato 0.5", producer: driver.makeProducer(), loops: loops)
            #expect(said == "d1: playing")
            Thread.sleep(forTimeInterval: 1.6)
            // Each message's window: from before its client starts (the old level up to there) to
            // when it has been sent (the new one a cycle after).
            let first = capture.frameTime
            try send(["/ctrl", "s:lev", "f:0.6"])
            let firstSent = capture.frameTime
            Thread.sleep(forTimeInterval: 2)
            let second = capture.frameTime
            try send(["/1/fader1", "f:0.5"])          // TouchOSC's fader: channel and controller "fader1"
            let secondSent = capture.frameTime
            Thread.sleep(forTimeInterval: 2)
            _ = loops.patterns.hushAll()
            Thread.sleep(forTimeInterval: 0.3)
            capture.stopRecording()
            #expect(problems().isEmpty, "\(problems())")
            // OSC's floats are 32-bit: 0.6 arrives as 0.60000002.
            #expect(abs((loops.patterns.controllers.value("lev")?.number ?? 0) - 0.6) < 1e-6 && loops.patterns.controllers.value("fader1") == .double(0.5))
            let s = capture.samples(0)
            let heard = capture.onsets(0, quiet: 2048).compactMap { f in capture.sampleIndex(ofFrame: f).map { (f, (Double(s[$0 + 8]) * 100).rounded() / 100) } }
            // Before each message its old level; a cycle and the posting's lookahead after it, the new one.
            let settle: Int64 = 48000 + 4800 + 1024
            func levels(_ from: Int64, _ to: Int64) -> Set<Double> { Set(heard.filter { $0.0 >= from && $0.0 < to }.map(\.1)) }
            #expect(levels(0, first) == [0.2], "\(heard)")
            #expect(levels(firstSent + settle, second) == [0.6], "\(heard)")
            #expect(levels(secondSent + settle, .max) == [0.3], "\(heard)")
        }
    }

    @Test("a definition's answer says what will not sound: silent for sounds nothing has, the control no instrument takes; said once, not again when its notes come")
    func answersSayWhatIsSilent() throws {
        try withHeardPatterns(seconds: 3) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            let silent = try loops.patterns.run("d6 $ s \"superpianox*2\" # n \"0 7\"", producer: producer, loops: loops)
            #expect(silent == "d6: silent — no instrument \"superpianox\" in the orchestra", "\(silent)")
            let part = try loops.patterns.run("d1 $ s \"lvl*2 [~ nosuch]\" # gain 0.2 # vowel \"a\"", producer: producer, loops: loops)
            #expect(part.hasPrefix("d1: playing — ") && part.contains("no instrument \"nosuch\"") && part.contains("instrument lvl has no parameter `vowel`"), "\(part)")
            // A swap's answer speaks for the new definition.
            let swap = try loops.patterns.run("d1 $ s \"lvl*2\" # gain 0.2 # cutoff 300", producer: producer, loops: loops)
            #expect(swap.hasPrefix("d1: swaps at cycle ") && swap.contains("has no parameter `cutoff`"), "\(swap)")
            #expect(try loops.patterns.run("d2 $ s \"lvl\" # gain 0.1", producer: producer, loops: loops) == "d2: playing")
            Thread.sleep(forTimeInterval: 2.2)
            capture.stopRecording()
            // The notes played, and what the answers said was not said again.
            #expect(capture.samples(0).contains { $0 > 0.15 }, "lvl was heard")
            #expect(problems().filter { $0.contains("nosuch") || $0.contains("superpianox") || $0.contains("has no parameter") }.isEmpty, "\(problems())")
        }
    }

    @Test("let and do as sets write them: bound values used by two slots one do block starts; a block with an error anywhere starts nothing and says the line and column")
    func letAndDo() throws {
        try withHeardPatterns(seconds: 3) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            func run(_ text: String) throws -> String { try loops.patterns.run(text, producer: producer, loops: loops) }
            #expect(try run("let rhythm = \"lvl*2 [~ lvl]\"") == "let rhythm")
            #expect(try run("let level = 0.3") == "let level")
            let said = try run("do\n  d1 $ s rhythm # gain level # legato 0.5\n  let quiet = level / 3\n  d2 $ s \"lvl*4\" # gain quiet # legato 0.25")
            #expect(said == "d1: playing; let quiet; d2: playing", "\(said)")
            do {
                _ = try run("do\n  d3 $ s \"lvl\"\n  d4 $ s \"lvl [lvl\"")
                Issue.record("the block with an unclosed bracket was accepted")
            } catch let e as PatternError {
                #expect(e.line == 3 && e.column == 15 && e.message.contains("unclosed"), "\(e.line):\(e.column) \(e.message)")
            }
            #expect(!loops.patterns.names.contains("d3"), "nothing of the broken block started: \(loops.patterns.names)")
            Thread.sleep(forTimeInterval: 2.2)
            capture.stopRecording()
            let levels = Set(capture.samples(0).map { (Double($0) * 100).rounded() / 100 })
            #expect(levels.contains(0.3) && levels.contains(0.1) && levels.contains(0.4), "d1 at 0.3, d2 at 0.1, together 0.4: \(levels.sorted())")
            #expect(problems().isEmpty, "\(problems())")
        }
    }

    @Test("transitions heard: jumpIn' switches on a bar's first frame, xfadeIn fades by gain over its cycles and settles on the new level alone")
    func transitionsHeard() throws {
        try withHeardPatterns(seconds: 10) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            #expect(try loops.patterns.run("d1 $ s \"lvl*4\" # gain 0.2 # legato 0.5", producer: producer, loops: loops) == "d1: playing")
            Thread.sleep(forTimeInterval: 1.3)
            let jump = try loops.patterns.run("jumpIn' 1 1 $ s \"lvl*4\" # gain 0.5 # legato 0.5", producer: producer, loops: loops)
            #expect(jump.hasPrefix("d1: jumpIn' from cycle "), "\(jump)")
            Thread.sleep(forTimeInterval: 2.6)
            let fade = try loops.patterns.run("xfadeIn 1 2 $ s \"lvl*4\" # gain 0.8 # legato 0.5", producer: producer, loops: loops)
            #expect(fade.hasPrefix("d1: xfadeIn from cycle "), "\(fade)")
            Thread.sleep(forTimeInterval: 3.6)
            let clock = driver.clock
            _ = loops.patterns.hushAll()
            Thread.sleep(forTimeInterval: 0.3)
            capture.stopRecording()
            let s = capture.samples(0)
            let onsets = capture.onsets(0, quiet: 2048).compactMap { capture.sampleIndex(ofFrame: $0) }
            let levels = onsets.map { (Double(s[$0 + 8]) * 1000).rounded() / 1000 }
            // 0.2, then 0.5 from a bar's first step, then the fade's sums, then 0.8 alone.
            let firstHalf = try #require(levels.firstIndex(of: 0.5), "\(levels)")
            #expect(levels[..<firstHalf].allSatisfy { $0 == 0.2 } && firstHalf >= 3, "\(levels)")
            let beats = try #require(performedBeats(capture, clock), "the clock's frame was not recorded")
            let beat = beats.beat(ofSample: onsets[firstHalf])
            #expect(abs(beat / 4 - (beat / 4).rounded()) < 0.001, "jumpIn' switched on beat \(beat), not a bar's first")
            let fadeStart = try #require(levels[firstHalf...].firstIndex { $0 != 0.5 }, "\(levels)")
            let fading = levels[fadeStart...].prefix { $0 != 0.8 }
            #expect(fading.count >= 6 && fading.contains { $0 > 0.85 }, "equal-power sums rise above both levels mid-fade: \(levels)")
            let settled = levels[(fadeStart + fading.count)...]
            #expect(settled.count >= 4 && settled.allSatisfy { $0 == 0.8 }, "after the fade, the new level alone: \(levels)")
            #expect(problems().filter { !$0.contains("the scheduler") }.isEmpty, "\(problems())")
        }
    }

    @Test("qtrigger starts the pattern from its first cycle at the evaluation's next cycle, and again when typed again")
    func qtriggerRestarts() throws {
        try withHeardPatterns(seconds: 9) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            let line = "d1 $ qtrigger 1 $ s \"lvl\" # gain \"<0.1 0.2 0.3 0.4 0.5 0.6 0.7>\" # legato 0.5"
            Thread.sleep(forTimeInterval: 1.37)   // the clock past its first cycle (a cycle is a second)
            #expect(try loops.patterns.run(line, producer: producer, loops: loops) == "d1: playing")
            Thread.sleep(forTimeInterval: 3.3)
            _ = try loops.patterns.run(line, producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 2.5)
            _ = loops.patterns.hushAll()
            Thread.sleep(forTimeInterval: 0.3)
            capture.stopRecording()
            #expect(problems().isEmpty, "\(problems())")
            let s = capture.samples(0)
            let heard = capture.onsets(0, quiet: 2048).compactMap { capture.sampleIndex(ofFrame: $0) }.map { (Double(s[$0 + 8]) * 10).rounded() / 10 }
            // Two runs, each from the pattern's first cycle (0.1), a cycle at a time.
            guard let restart = heard.indices.dropFirst().first(where: { heard[$0] == 0.1 }) else {
                Issue.record("no restart at 0.1: \(heard)"); return
            }
            let first = Array(heard[..<restart]), second = Array(heard[restart...])
            func rising(_ xs: [Double]) -> Bool { xs.enumerated().allSatisfy { abs($1 - 0.1 * Double($0 + 1)) < 0.01 } }
            #expect(first.count >= 3 && rising(first), "the first run from 0.1: \(heard)")
            #expect(second.count >= 2 && rising(second), "the second run from 0.1: \(heard)")
        }
    }

    @Test("mute, solo, unmute and unsoloAll silence the slots they should and nothing else, from the next query on; the slots keep their time")
    func muteAndSolo() throws {
        try withHeardPatterns(seconds: 9) { driver, loops, capture, problems in
            let producer = driver.makeProducer()
            func run(_ text: String) throws -> String { try loops.patterns.run(text, producer: producer, loops: loops) }
            // d1 on the beats at 0.1, d2 on the off-beats at 0.3: both sound 0.1 and 0.4 (overlapping).
            _ = try run(#"d1 $ s "lvl*4" # gain 0.1"#)
            _ = try run(#"d2 $ s "[~ lvl]*4" # gain 0.3"#)
            var marks: [(frame: Int64, expect: Set<Int>, what: String)] = []
            func phase(_ text: String?, _ expect: Set<Int>) throws {
                if let text { print("mute/solo: \(text) → \(try run(text))") }
                marks.append((driver.frameTime, expect, text ?? "both"))
                Thread.sleep(forTimeInterval: 1.6)
            }
            try phase(nil, [10, 40])
            try phase("mute 2", [10])
            try phase("unmute 2", [10, 40])
            try phase("solo 2", [30])
            try phase("unsoloAll", [10, 40])
            _ = loops.patterns.hushAll()
            capture.stopRecording()
            #expect(problems().isEmpty, "\(problems())")
            let samples = capture.samples(0)
            for (i, mark) in marks.enumerated() {
                // From 0.5 s after the statement (the 100 ms lookahead already posted, then a slot
                // that sounds again starts at its next onset, a step of up to 0.25 s) to the next.
                let end = i + 1 < marks.count ? marks[i + 1].frame : mark.frame + 48000 * 3 / 2
                guard let a = capture.sampleIndex(ofFrame: mark.frame + 24000), let b = capture.sampleIndex(ofFrame: end) else {
                    Issue.record("\(mark.what): not recorded")
                    continue
                }
                let levels = Set(samples[a..<b].map { Int(($0 * 100).rounded()) }).subtracting([0])
                #expect(levels == mark.expect, "\(mark.what): levels ×100 \(levels.sorted()), expected \(mark.expect.sorted())")
            }
        }
    }

    @Test("a session with patterns, a setcps and a swap replays to identical samples")
    func replayWithPatterns() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try recordedTake(makeDriver(tempo: 150, seed: 5), in: root) { loops, producer in
            _ = try loops.patterns.run("d1 $ sometimes (# gain 0.5) $ s \"lvl*8?\" # gain (range 0.1 0.4 sine) # legato 0.5", producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 0.9)
            _ = try loops.patterns.run("setcps 0.7", producer: producer, loops: loops)
            _ = try loops.patterns.run("d2 $ every 2 (fast 2) $ s \"2(3,8)\" # n \"<0 3>\"", producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 0.8)
            _ = try loops.patterns.run("d1 $ s \"lvl [lvl lvl]\" # gain 0.35 # legato 0.25", producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 1.2)
        }
        let log = try String(contentsOf: dir.appendingPathComponent("events.log"), encoding: .utf8)
        #expect(log.contains(" clock 168.0 4.0 "), "setcps 0.7 is a tempo of 168 BPM, journaled")
        try expectReplayIdentical(dir, heard: 0.05, "the patterns")
    }

    @Test("a session with SuperDirt's synths and their effects (cutoff, shape, vowel, room, delay, the leslie on its orbit) replays to identical samples")
    func replayWithSynthsAndEffects() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        var options = EngineOptions(seed: 9)
        options.sampler = true
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        jack.tempo = 150
        let driver = JackDriver(source: .text(orchestra: PatternJackTests.orchestra, score: nil, name: "patterns.orc"), options: options, jack: jack)
        let dir = try recordedTake(driver, in: root) { loops, producer in
            for statement in [#"d1 $ n "0 4 7 <12 11>" # s "superpiano" # cutoff 2000 # room 0.3 # size 0.8 # orbit 1"#,
                              #"d2 $ n "0*2 [~ 7]" # s "supersaw" # leslie 1 # lrate 3 # lsize 0.5 # orbit 2 # legato 0.8"#,
                              #"d3 $ n "0(3,8)" # s "superkick" # shape 0.4 # delay 0.3 # delaytime 0.125 # delayfeedback 0.6 # orbit 3"#] {
                _ = try loops.patterns.run(statement, producer: producer, loops: loops)
            }
            Thread.sleep(forTimeInterval: 1.2)
            _ = try loops.patterns.run(#"d2 $ n "5 9" # s "superhoover" # leslie 0.5 # vowel "a" # orbit 2"#, producer: producer, loops: loops)
            _ = try loops.patterns.run(#"d4 $ n "[0, 3]" # s "supermandolin" # orbit 2"#, producer: producer, loops: loops)
            Thread.sleep(forTimeInterval: 1.2)
        }
        try expectReplayIdentical(dir, heard: 0.05, "the synths")
    }

    @Test("at the REPL: d1 $ …, a block, :patterns, d4 silence, a refusal with its column and caret, undeclared controls once, hush")
    func replPatterns() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let orc = dir.appendingPathComponent("patterns.orc").path
        try PatternJackTests.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("in.txt").path
        try """
        setcps 1
        d1 $ s "lvl*2 [~ lvl]" # gain "<0.1 0.2>"
        d2 $ s "lvl*2 [lvl" # gain 0.3
        d3 $ rolled $ s "lvl"
        d4 $ s "nosuch*4"
        d6 $ s "lvl*99999999"
        d7 $ fast 1e9 $ s "lvl"
        :{
        d5 $ every 2 (fast 2)
           $ s "2*2" # cutoff 300
        :}
        @0.6 d4 silence
        mute 3
        anticipate 1 $ s "lvl"
        let pat = "lvl lvl"
        @1.2 solo 5
        @1.5 :patterns
        @3.4 hush
        @3.6 :patterns
        :quit
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try run("/bin/sh", ["-c", "timeout -k 2 20 '\(Paths.podium)' play '\(orc)' --server \(server.name) --no-connect --no-osc --no-watch < '\(input)'"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout + r.stderr
        #expect(out.contains("d1: playing"), "\(out)")
        #expect(out.contains("d2 $ s \"lvl*2 [lvl\" # gain 0.3\n              ^ 15: unclosed"), "the column of the unclosed bracket, with a caret: \(out)")
        #expect(out.contains("`rolled` is not supported yet"), "\(out)")
        #expect(out.components(separatedBy: "no instrument \"nosuch\"").count == 2, "one message for the missing instrument: \(out)")
        #expect(out.components(separatedBy: "has no parameter `cutoff`").count == 2, "one message for the undeclared control: \(out)")
        #expect(out.contains("d5: playing"), "\(out)")
        #expect(out.components(separatedBy: "a pattern plays at most 50000").count == 3, "a typo's density is refused before it plays: \(out)")
        #expect(out.contains("d1: ") && out.contains("events posted"), "\(out)")
        #expect(out.contains("d4: stops at cycle"), "\(out)")
        #expect(out.contains("hushed: patterns d1, d5 ended"), "d4 went away at its cycle: \(out)")
        #expect(out.contains("no pattern is playing"), "\(out)")
        // Tidal's statements are never Csound's: mute and solo act on slots, the others are named.
        #expect(out.contains("d3: muted (nothing plays in it yet)") && out.contains("d5: soloed; soloed: d5"), "\(out)")
        #expect(out.contains("d1 (silent: others soloed): "), ":patterns shows what solo silences: \(out)")
        #expect(out.contains("`anticipate`: this transition is not in Podium yet") && out.contains("\nlet pat\n"), "\(out)")
        #expect(!out.contains("error:") && !out.lowercased().contains("syntax error"), "no Csound compile: \(out)")
    }

    @Test("patterns saved in NAME.tidal beside the orchestra play with the performance, swap on a save, stop when removed and play again when put back; hush is not run from it")
    func patternsFile() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let orc = dir.appendingPathComponent("beats.orc").path
        try PatternJackTests.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        let file = dir.appendingPathComponent("beats.tidal").path
        try "-- the set\nd1 $ s \"lvl*4\"\n  # gain 0.2\n\nd2 $ s \"2(3,8)\" # n 3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.podium)
        p.arguments = ["play", orc, "--server", server.name, "--no-connect", "--no-osc", "--no-repl", "--duration", "6", "--tempo", "150"]
        let pipe = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = pipe
        try p.run()
        defer { if p.isRunning { p.terminate() }; waitForExit(p) }
        let reader = PipeReader(pipe.fileHandleForReading)
        func printed() -> String { String(decoding: reader.snapshot, as: UTF8.self) }
        #expect(eventually(10) { printed().contains("d2: playing") }, "\(printed())")
        #expect(printed().contains("patterns from \(file)") && printed().contains("d1: playing"))
        Thread.sleep(forTimeInterval: 0.5)
        try "d1 $ s \"lvl*8\" # gain 0.2\n\nd3 $ s \"lvl [~ lvl\"\nhush\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(eventually(5) { printed().contains("d1: swaps at cycle") }, "\(printed())")
        #expect(eventually(2) { printed().contains("d2: stops (no longer in") }, "\(printed())")
        #expect(printed().contains("\(file):3:"), "a broken statement names its line and column: \(printed())")
        #expect(printed().contains("hush is not run from a patterns file"), "\(printed())")
        // d2 back in the file, once it has gone: it plays again.
        Thread.sleep(forTimeInterval: 1.2)
        try "d1 $ s \"lvl*8\" # gain 0.2\n\nd2 $ s \"2(3,8)\" # n 3\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(eventually(5) { printed().components(separatedBy: "d2: playing").count == 3 }, "\(printed())")
        waitForExit(p, timeout: 15)
        #expect(p.terminationStatus == 0, "\(printed())")
    }

    @Test("over OSC /podium/pattern (,ss and ,s) and on the csound port: patterns play, refusals come back with their column")
    func oscAndCsoundPort() throws {
        let driver = makeDriver(tempo: 240)
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        // As a performance wires it: a hush the audio thread applies comes back to the loops.
        driver.onHush = { loops.hushApplied() }
        loops.start()
        defer { loops.stopScheduler() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.loops = loops
        osc.start()
        defer { osc.stop() }
        let port = try CsoundTextPort(driver: driver, options: OSCOptions(port: 0))
        port.loops = loops
        let notices = Mutex<[String]>([])
        port.onNotice = { n in notices.withLock { $0.append(n) } }
        port.start()
        defer { port.stop() }
        func ask(_ args: [String]) throws -> String {
            let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "ask"] + args)
            #expect(r.status == 0, "python-osc client: \(r.stderr)")
            return r.stdout
        }
        #expect(try ask(["/podium/pattern", "s:d1", "s:s \"lvl*4\" # gain 0.2"]).contains("/podium/done d1: playing"))
        let before = driver.stats.commands
        #expect(eventually(3) { driver.stats.commands >= before + 4 }, "the pattern's notes reach the audio thread")
        let refused = try ask(["/podium/pattern", "s:d2 $ s \"lvl <lvl\""])
        #expect(refused.contains("/podium/fail") && refused.contains("column 13"), "\(refused)")
        #expect(try ask(["/podium/pattern", "s:setcps 0.5"]).contains("cps 0.5 (tempo 120 BPM)"))
        #expect(eventually(2) { driver.clock.tempo == 120 })
        // The csound port: a packet in Tidal's words plays; a broken one is the port's error.
        let send = "import socket, sys\ns = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nfor p in sys.argv[2:]: s.sendto(p.encode(), ('127.0.0.1', int(sys.argv[1])))\n"
        _ = try run(which("python3") ?? "/usr/bin/python3", ["-c", send, "\(port.port)", "d3 $ s \"lvl(3,8)\"", "d4 $ fast \"<2\" $ s \"lvl\""])
        #expect(eventually(3) { loops.patterns.names == ["d1", "d3"] }, "\(loops.patterns.names)")
        #expect(eventually(2) { notices.withLock { $0 }.contains { $0.contains("csound port") && $0.contains("column") } }, "\(notices.withLock { $0 })")
        #expect(try ask(["/podium/pattern", "s:hush"]).contains("hushed: patterns d1, d3 ended"))
        #expect(loops.patterns.names.isEmpty)
        // A pattern typed right after a hush is not ended when the audio thread applies the hush.
        _ = try ask(["/podium/pattern", "s:hush"])
        #expect(try ask(["/podium/pattern", "s:d1 $ s \"lvl\""]).contains("d1: playing"))
        Thread.sleep(forTimeInterval: 0.5)
        #expect(loops.patterns.names == ["d1"], "\(loops.patterns.names)")
    }

    @Test("the audio thread allocates nothing while four patterns play (after their first notes' instances)")
    func noAllocations() throws {
        let driver = makeDriver(tempo: 240)
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        loops.start()
        defer { loops.stopScheduler() }
        let producer = driver.makeProducer()
        for (slot, text) in [("d1", #"s "lvl*8" # gain 0.1 # legato 0.5"#), ("d2", #"every 2 (fast 2) $ s "2(3,8)" # n "<0 3>""#),
                             ("d3", #"sometimes (# gain 0.2) $ s "lvl*4?""#), ("d4", #"jux rev $ s "lvl [~ lvl]" # gain (range 0.1 0.3 sine)"#)] {
            _ = try loops.patterns.run("\(slot) $ \(text)", producer: producer, loops: loops)
        }
        // Warm up two cycles: every instrument's instances are made (Csound's first-use allocation).
        Thread.sleep(forTimeInterval: 2.2)
        #expect(driver.engine.console.realtimeThread != 0)
        let rt = driver.engine.console.realtimeThread
        let before = (driver.stats.cycles, driver.stats.commands)
        podium_alloc_watch(rt)
        Thread.sleep(forTimeInterval: 2)
        let allocations = podium_alloc_count()
        podium_alloc_watch(0)
        #expect(driver.stats.commands > before.1 + 25, "notes kept coming (about 18 a second): \(driver.stats.commands - before.1); \(loops.patterns.list()); \(driver.stats)")
        #expect(allocations == 0, "\(allocations) allocations on the audio thread over \(driver.stats.cycles - before.0) k-cycles")
    }
}
}
