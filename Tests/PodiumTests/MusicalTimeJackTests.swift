import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumRealtime
import PodiumSession
import PodiumSurfaces
import Synchronization
import Testing

/// Musical time against a real `jackd -d dummy` and a frame-stamped capture client.
extension JackSuites {
@Suite("musical time", .serialized)
final class MusicalTimeTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    chn_k "beatSeen", 2

    instr 2 ; a step of p4 on output 2 for p3 (onsets and levels are read from the capture)
      a1 linseg p4, p3, p4
      outs a(0), a1
    endin

    instr 3 ; copies the host's beat clock into an output channel
      chnset chnget:k("podium.beat"), "beatSeen"
    endin
    """

    func makeDriver(tempo: Double = 120, seed: UInt32? = nil) -> JackDriver {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        jack.tempo = tempo
        return JackDriver(source: .text(orchestra: MusicalTimeTests.orchestra, score: nil, name: "beats.orc"),
                          options: EngineOptions(seed: seed), jack: jack)
    }

    /// Whether a deviation could come from a cycle Podium performed and the capture missed (or
    /// the reverse): a whole number of periods, with an xrun reported to the capture.
    func explainedByMissedCycles(_ deviation: Int, _ capture: CaptureClient, period: Int = 256) -> Bool {
        deviation != 0 && deviation % period == 0 && capture.xruns > 0
    }

    @Test("notes quantized to the next beat start on the beat's own frame (120 and 133 BPM); p3 counts beats", arguments: [120.0, 133.0])
    func quantizedOnsets(_ tempo: Double) throws {
        let driver = makeDriver(tempo: tempo)
        try driver.start()
        defer { driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 10)
        try capture.connect(from: "podium:out_2", channel: 0)
        let producer = driver.makeProducer()
        try producer.event([2, 0, 0.01, 0.0001])  // the instrument's first note allocates
        Thread.sleep(forTimeInterval: 0.2)
        capture.start()
        let xrunsBefore = driver.stats.xruns
        // Posted at uneven moments between beats; each must land on the next whole beat.
        for i in 0..<8 {
            Thread.sleep(forTimeInterval: 60 / tempo * (1.05 + Double(i % 4) * 0.1))  // a new beat each time
            try producer.event([2, 0, 0.25, 0.5], quantize: .grid(1))
        }
        Thread.sleep(forTimeInterval: 0.4)
        let clock = driver.clock  // published while the capture records: its frame is a recorded one
        Thread.sleep(forTimeInterval: 0.4)
        capture.stopRecording()
        #expect(clock.tempo == tempo)
        // Notes are a quarter beat and at least three quarters apart: a gap of a period or two
        // inside a note (the server's silence for a late client, under load) is not an onset.
        let onsets = capture.onsets(0, quiet: 2048).compactMap { capture.sampleIndex(ofFrame: $0) }
        let framesPerBeat = 60 * 48000 / tempo
        #expect(onsets.count == 8, "onsets \(onsets)")
        let beats = try #require(performedBeats(capture, clock), "the clock's frame \(clock.frame) was not recorded")
        let xruns = driver.stats.xruns - xrunsBefore
        var offBeat: [Int] = []
        for onset in onsets {
            let ideal = beats.sample(ofBeat: beats.beat(ofSample: onset).rounded())
            if onset != ideal && !explainedByMissedCycles(onset - ideal, capture) { offBeat.append(onset - ideal) }
        }
        #expect(offBeat.isEmpty, "frames off the beat: \(offBeat) (xruns \(xruns), the capture's \(capture.xruns))")
        // p3 = 0.25 beats: the step lasts a quarter of a beat (to within a k-cycle, where Csound ends
        // notes). Under load a period can be missing from the capture only (the note's captured
        // samples are a period short, its JACK frames right) or from the whole graph (the server
        // skipped it: the frames a period long, the samples right): either measure may be right.
        let s = capture.samples(0)
        if let i = onsets.first {
            let captured = s[i...].prefix { abs($0) > 0.01 }.count
            let frames = Int(capture.frame(ofSample: i + captured - 1) - capture.frame(ofSample: i)) + 1
            let quarter = framesPerBeat / 4
            #expect(min(abs(Double(captured) - quarter), abs(Double(frames) - quarter)) <= 65,
                    "a quarter beat is \(quarter) frames; the note lasted \(captured) captured samples over \(frames) JACK frames")
        }
    }

    @Test("100 tempo changes: every re-anchoring continues the beat where it was, and the orchestra reads it")
    func tempoRamp() throws {
        let driver = makeDriver()
        let states = Mutex<[(Int64, ClockState)]>([])
        driver.onApplied = { a in
            guard a.kind == .clock else { return }
            let p = a.command.pfields
            states.withLock { $0.append((a.cycle, ClockState(tempo: p[0], quantum: p[1], beat: p[2], running: p[3] != 0))) }
        }
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        try producer.event([3, 0, -1])
        for i in 0..<100 {
            try producer.clock(tempo: 60 + Double((i * 53) % 180))
            Thread.sleep(forTimeInterval: 0.006)
        }
        try producer.clock(tempo: 999)
        #expect(throws: InputError.self) { try producer.clock(tempo: 0) }
        #expect(eventually(3) { driver.clock.tempo == 999 })
        // The records reach `onApplied` on the driver's reader thread, after the clock itself is
        // published: wait for the last command's record (they come in the callback's order).
        #expect(eventually(3) { states.withLock { $0.contains { $0.1.tempo == 999 } } })
        let seen = states.withLock { $0 }
        #expect(seen.count >= 101, "clock records: \(seen.count) (one per clock command)")
        var jumps: [String] = []
        for (a, b) in zip(seen, seen.dropFirst()) {
            let perCycle = 64 * a.1.tempo / (60 * 48000)
            let expected = a.1.beat + Double(b.0 - a.0) * perCycle
            if abs(b.1.beat - expected) > 1e-9 { jumps.append("k-cycle \(b.0): \(b.1.beat) after \(expected)") }
        }
        #expect(jumps.isEmpty, "the beat jumped: \(jumps.prefix(5))")
        let channel = try driver.engine.control("beatSeen")
        #expect(channel > 0 && abs(channel - driver.clock.beat) < 1, "podium.beat as the orchestra reads it: \(channel), the clock: \(driver.clock.beat)")
    }

    @Test("a loop redefined every few iterations swaps at a boundary: one onset every beat, no gap, no double, each level in order")
    func loopSwaps() throws {
        let driver = makeDriver(tempo: 240)   // 12000 frames a beat
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        let problems = Mutex<[String]>([])
        loops.onProblem = { p in problems.withLock { $0.append(p) } }
        loops.start()
        defer { loops.stopScheduler() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 8)
        try capture.connect(from: "podium:out_2", channel: 0)
        try driver.makeProducer().event([2, 0, 0.01, 0.0001])
        Thread.sleep(forTimeInterval: 0.2)
        capture.start()
        let xrunsBefore = driver.stats.xruns, lateBefore = driver.stats.lateCommands
        let levels = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]
        for level in levels {
            let message = try loops.define(name: "click", beats: 1, body: "i2 0 0.25 \(level)")
            #expect(message.contains("loop click"))
            Thread.sleep(forTimeInterval: 0.37)   // about one and a half iterations
        }
        Thread.sleep(forTimeInterval: 0.3)
        let stopped = try loops.stop("click")
        #expect(stopped.contains("stops at beat"))
        Thread.sleep(forTimeInterval: 0.4)
        capture.stopRecording()
        #expect(problems.withLock { $0 }.isEmpty, "\(problems.withLock { $0 })")
        let onsets = capture.onsets(0)
        let s = capture.samples(0)
        let heard = onsets.compactMap { capture.sampleIndex(ofFrame: $0) }.map { Double(s[$0 + 8]) }
        #expect(onsets.count >= levels.count + 4, "onsets \(onsets.count)")
        // Gaps in performed frames (sample indices: skipped server periods are not in them).
        let samples = onsets.compactMap { capture.sampleIndex(ofFrame: $0) }
        let gaps = zip(samples, samples.dropFirst()).map { $1 - $0 }
        let xruns = driver.stats.xruns - xrunsBefore
        let odd = zip(onsets.dropFirst(), gaps).filter { $0.1 != 12000 }.map { "\($0.1) before \($0.0), capture xrun near: \(capture.xrunNear($0.0, window: 24_000))" }
        #expect(gaps.allSatisfy { $0 == 12000 || explainedByMissedCycles($0 - 12000, capture) },
                "one onset every beat: \(gaps) (xruns \(xruns), late commands \(driver.stats.lateCommands - lateBefore); \(odd))")
        // Each definition plays whole iterations, in the order they were sent; none skipped.
        var order: [Double] = []
        for l in heard where order.last.map({ abs($0 - l) > 0.01 }) ?? true { order.append((l * 10).rounded() / 10) }
        #expect(order == levels, "levels heard in order: \(order)")
        #expect(loops.list().isEmpty, "the loop is gone after its last iteration: \(loops.list())")
        #expect(throws: InputError.self) { try loops.stop("click") }
    }

    @Test("bad loops are refused with the line and the reason; the one playing goes on")
    func badLoops() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        _ = try loops.define(name: "ok", beats: 2, body: "i2 0 0.5 0.1")
        func refusal(_ name: String, _ beats: Double, _ body: String) -> String {
            do { _ = try loops.define(name: name, beats: beats, body: body); return "accepted" } catch { return "\(error)" }
        }
        #expect(refusal("x", 4, "i2 0 1 0.1\ni2 4 1 0.1").contains("line 2: starts at beat 4, outside the loop's 4 beats"))
        #expect(refusal("x", 4, "i9 0 1").contains("unknown instrument 9"))
        #expect(refusal("x", 4, "i2 0 1\nkx = 3").contains("line 2: a loop plays score lines"))
        #expect(refusal("x", 4, "f 1 0 8 10 1").contains("a loop plays notes, not tables"))
        #expect(refusal("x", 4, "i2 0 1 nan").contains("only finite numbers"))
        let many = (0..<300).map { "i2 \(Double($0) / 100) 0.01 0.1" }.joined(separator: "\n")
        #expect(refusal("x", 4, many).contains("at most 256"))
        #expect(refusal("x", 2000, "i2 0 1").contains("1024 beats"))
        #expect(loops.names == ["ok"])
    }

    @Test("loops, quantized notes and tempo changes replay to identical samples")
    func replayWithLoops() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = try recordedTake(makeDriver(tempo: 150, seed: 11), in: root) { loops, producer in
            try producer.event([3, 0, -1])
            _ = try loops.define(name: "a", beats: 1, body: "i2 0 0.25 0.3\ni2 0.5 0.125 0.2")
            Thread.sleep(forTimeInterval: 0.5)
            try producer.clock(tempo: 173)
            try producer.event([2, 0.5, 0.5, 0.4], quantize: .grid(4))
            Thread.sleep(forTimeInterval: 0.4)
            _ = try loops.define(name: "a", beats: 1.5, body: "i2 0 0.25 0.35\ni2 1 0.25 0.15")
            try producer.clock(tempo: 97)
            Thread.sleep(forTimeInterval: 0.9)
        }
        let log = try String(contentsOf: dir.appendingPathComponent("events.log"), encoding: .utf8)
        #expect(log.contains(" clock 173.0 4.0 ") && log.contains(" clock 97.0 4.0 "), "tempo changes are journaled")
        try expectReplayIdentical(dir, heard: 0.1, "the loop")
    }

    @Test("over OSC: /podium/tempo sets and answers, /podium/quant, /podium/score with @bar, /podium/loop and /podium/loop/stop; subscribers hear the beat")
    func oscMusicalTime() throws {
        let driver = makeDriver()
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.loops = LiveLoops(driver: driver)
        osc.loops?.start()
        defer { osc.loops?.stopScheduler() }
        osc.start()
        defer { osc.stop() }
        func ask(_ args: [String]) throws -> String {
            let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "ask"] + args)
            #expect(r.status == 0, "python-osc client: \(r.stderr)")
            return r.stdout
        }
        _ = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "message", "/podium/tempo", "f:133"])
        #expect(eventually(2) { driver.clock.tempo == 133 })
        #expect(try ask(["/podium/tempo"]).contains("/podium/tempo 133.0"))
        #expect(try ask(["/podium/tempo", "f:0"]).contains("a tempo runs from 1 to 999 BPM"))
        #expect(driver.clock.tempo == 133)
        _ = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "message", "/podium/quant", "s:bar"])
        #expect(try ask(["/podium/quant"]).contains("4 beats"))
        // Quantized score waits for its beat on the audio thread, then plays.
        let before = driver.stats.commands
        _ = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "message", "/podium/score", "s:@2beats i2 0 1 0.1"])
        #expect(eventually(3) { driver.stats.commands > before })
        #expect(try ask(["/podium/loop", "s:tick", "f:1", "s:i2 0 0.25 0.1"]).contains("/podium/done loop tick: starts at beat"))
        #expect(try ask(["/podium/loop", "s:tick", "f:1", "s:i2 3 0.25 0.1"]).contains("outside the loop's 1 beats"))
        let heard = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "listen", "1.2"]).stdout
        #expect(heard.contains("/podium/beat"), "\(heard)")
        #expect(try ask(["/podium/loop/stop", "s:tick"]).contains("loop tick: stops at beat"))
        #expect(try ask(["/podium/loop/stop", "s:nosuch"]).contains("/podium/fail"))
        #expect(osc.stats.badArguments == 1, "only the tempo 0 was a bad argument: \(osc.stats.summary)")
    }

    @Test("loops saved in NAME.loops beside the orchestra start with the performance, swap on a save, and stop when deleted from the file")
    func loopsFile() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let orc = dir.appendingPathComponent("beats.orc").path
        try MusicalTimeTests.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        let loopsFile = dir.appendingPathComponent("beats.loops").path
        try "; the performance's loops\nloop a 2\ni2 0 0.5 0.1\nend\nloop b 1\ni2 0.5 0.25 0.2\nend\n".write(toFile: loopsFile, atomically: true, encoding: .utf8)
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
        #expect(eventually(10) { printed().contains("loop b: starts at beat") }, "\(printed())")
        #expect(printed().contains("loops from \(loopsFile)") && printed().contains("loop a: starts at beat"))
        Thread.sleep(forTimeInterval: 0.5)
        try "loop a 2\ni2 0 0.5 0.3\nend\nloop c 4\ni2 0 4 \nend\n".write(toFile: loopsFile, atomically: true, encoding: .utf8)
        #expect(eventually(5) { printed().contains("loop a: swaps at beat") }, "\(printed())")
        #expect(eventually(2) { printed().contains("loop b: stops at beat") }, "\(printed())")
        #expect(printed().contains("loop c: starts at beat"), "\(printed())")
        waitForExit(p, timeout: 15)
        #expect(p.terminationStatus == 0, "\(printed())")
    }

    @Test("tonematrix's sequencer follows podium's clock: one lit cell sounds on every bar line, and :tempo moves it")
    func orchestraFollowsTheClock() throws {
        var jack = JackOptions(serverName: server.name, connect: false)
        jack.tempo = 240   // a bar a second
        let driver = JackDriver(source: .csd(path: Paths.orchestra("tonematrix.csd")), jack: jack)
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        Thread.sleep(forTimeInterval: 0.1)   // the score lights its cells at 0: dark them, light one
        for row in 1...16 { for col in 1...16 { try producer.set("cell_\(row)_\(col)", 0) } }
        try producer.set("cell_16_1", 1)
        // Tones the score's cells started before they went dark last an eighth of a bar: the
        // capture begins after them (one read as the first onset, a bar too short).
        Thread.sleep(forTimeInterval: 0.3)
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 12)
        try capture.connect(from: "podium:out_1", channel: 0)
        capture.start()
        let xrunsBefore = driver.stats.xruns
        Thread.sleep(forTimeInterval: 3.6)   // three bars at 240
        try producer.clock(tempo: 180)   // 64000 frames a bar
        Thread.sleep(forTimeInterval: 5.8)   // four bars at 180
        capture.stopRecording()
        let clock = driver.clock
        #expect(clock.tempo == 180)
        // A tone's start: sound after at least 50 ms of silence (a sine crosses zero every cycle).
        let s = capture.samples(0)
        var onsetSamples: [Int] = []
        var lastLoud = -100_000
        for (i, v) in s.enumerated() where abs(v) > 0.005 {
            if i - lastLoud > 2400 { onsetSamples.append(i) }
            lastLoud = i
        }
        let onsets = onsetSamples.map { capture.frame(ofSample: $0) }
        #expect(onsets.count >= 6, "onsets \(onsets)")
        // Each onset falls just after a bar line (the tone's attack), by the clock as it ran.
        // The beat clock counts Podium's own k-cycles (what replay renders). A bar is measured
        // two ways: the samples the capture recorded, and the JACK frames between the onsets.
        // Both are Podium's k-cycles on a quiet machine. On a loaded one, a dummy server that
        // falls behind skips periods nobody performs (its frame time jumps: the samples still
        // count), and a late capture client misses periods Podium performed (the frames still
        // count); a bar hit by both is not judged.
        let bars = zip(onsetSamples, onsetSamples.dropFirst()).map { a, b in
            (samples: Int64(b - a), frames: capture.frame(ofSample: b) - capture.frame(ofSample: a))
        }
        print("tonematrix bars (samples/frames): \(bars.map { "\($0.samples)/\($0.frames)" }.joined(separator: " "))")
        // (Within a frame: the orchestra schedules its tones by time, which Csound rounds to a sample.)
        func measured(_ length: Int64) -> Bool { bars.contains { abs($0.samples - length) <= 1 || abs($0.frames - length) <= 1 } }
        #expect(measured(48000) && measured(64000), "bars of 48000 frames at 240 BPM, 64000 at 180: \(bars)")
        let xruns = driver.stats.xruns - xrunsBefore
        // (An xrun can also cut a tone in the capture, which then reads as a second onset.)
        #expect(xruns > 0 || bars.allSatisfy { $0.samples == $0.frames && (47999...64001).contains($0.samples) }, "a bar, or a bar across the tempo change: \(bars) (xruns \(xruns))")
        // Where the last onset falls by the clock: JACK frames from it to the clock's last
        // k-cycle are Podium's k-cycles only when no period was skipped in between.
        if xruns == 0, let last = onsets.last {
            let beat = clock.beat + Double(last - clock.frame) * 180 / (60 * 48000)
            let intoBar = beat - (beat / 4).rounded(.down) * 4
            #expect(intoBar < 0.05, "the last onset is \(intoBar) beats into its bar")
        }
    }

    @Test("at the REPL: :tempo, :quant, @bar, loop … end, :loops, :stop; bad values get a clear error and the music goes on")
    func replCommands() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let orc = dir.appendingPathComponent("beats.orc").path
        try MusicalTimeTests.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        let input = dir.appendingPathComponent("in.txt").path
        try """
        :tempo 0
        :tempo 1500
        :tempo 140
        :quant -2
        :quant bar
        :quant
        loop beat 1
        i2 0 0.25 0.2
        end
        loop bad 4
        i2 5 1 0.2
        end
        :stop nosuch
        @9bars i2 0 1 0.1
        @0beats i2 0 1 0.1
        :loops
        :stop beat
        :quit
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try run("/bin/sh", ["-c", "timeout -k 2 20 '\(Paths.podium)' play '\(orc)' --server \(server.name) --no-connect --no-osc --no-watch < '\(input)'"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout
        #expect(out.contains("tempo 0: a tempo runs from 1 to 999 BPM"), "\(out)")
        #expect(out.contains("tempo 1500: a tempo runs from 1 to 999 BPM"), "\(out)")
        #expect(out.contains("tempo 140 BPM"), "\(out)")
        #expect(out.contains("a grid of -2 beats"), "\(out)")
        #expect(out.contains("quantize: 4 beats (p2 and p3 in beats)"), "\(out)")
        #expect(out.contains("loop beat: starts at beat"), "\(out)")
        #expect(out.contains("loop bad, line 1: starts at beat 5, outside the loop's 4 beats"), "\(out)")
        #expect(out.contains("no loop nosuch (playing: beat)"), "\(out)")
        #expect(out.contains("@0beats: a grid of 0 beats"), "\(out)")
        #expect(out.contains("beat: 1 beats, 1 notes"), "\(out)")
        #expect(out.contains("loop beat: stops at beat"), "\(out)")
    }
}
}
