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

extension JackSuites {
/// MIDI out, MIDI clock out and in, hush and controller feedback against a real JACK server and
/// JACK's own MIDI tools: jack_midi_dump (jackd2), jack_midi_clock and jack_mclk_dump (Debian
/// jack-midi-clock).
@Suite("MIDI hardware", .serialized)
final class MIDIHardwareTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1 ; a note on MIDI out: on at its start, off at its end
      noteondur 1, p4, 100, p3
    endin
    chn_k "level", 1, 2, 0, 0, 1
    instr 2 ; a held tone with a release segment
      aenv linsegr 0, 0.005, 1, 0.3, 0
      a1 oscili 0.3 * aenv, 440
      outs a1, a1
    endin
    """

    func start(_ clock: MIDIClockMode = .off, tempo: Double = 120, ksmps: Int? = 64, transport: TransportMode = .off,
               orchestra: String = MIDIHardwareTests.orchestra) throws -> JackDriver {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: ksmps)
        jack.midiClock = clock
        jack.tempo = tempo
        jack.transport = transport
        let driver = JackDriver(source: .text(orchestra: orchestra, score: nil, name: "midi.orc"),
                                options: EngineOptions(seed: 3), jack: jack)
        try driver.start()
        return driver
    }

    /// jack_midi_dump's lines: (frame within the period, bytes).
    static func dumped(_ text: String) -> [(frame: Int, bytes: [UInt8])] {
        text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let frame = Int(parts[0].trimmingCharacters(in: .whitespaces)) else { return nil }
            let bytes = parts[1].split(separator: " ").prefix { $0.count == 2 }.compactMap { UInt8($0, radix: 16) }
            return bytes.isEmpty ? nil : (frame, bytes)
        }
    }

    @Test("the orchestra's noteon reaches jack_midi_dump on podium:midi_out at the frame of the k-cycle that sent it")
    func notesOnMIDIOut() throws {
        let driver = try start()
        defer { driver.stop() }
        let dump = try JackProgram(server: server.name, "/usr/bin/jack_midi_dump")
        try JackProgram.connect(server: server.name, "podium:midi_out", "midi-monitor:input")
        Thread.sleep(forTimeInterval: 0.2)
        // Notes starting at known frames: 0, 64, 128 and 192 frames into a period of 256 (ksmps 64).
        let producer = driver.makeProducer()
        let xruns = driver.stats.xruns
        let base = (driver.frameTime / 256 + 40) * 256
        for (i, offset) in [0, 70, 130, 200].enumerated() {
            try producer.event([1, 0, 0.05, Double(60 + i)], frame: base + Int64(256 * 20 * i + offset))
        }
        Thread.sleep(forTimeInterval: 2)
        let lines = MIDIHardwareTests.dumped(dump.stop())
        let ons = lines.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x90 }
        let offs = lines.filter { $0.bytes.count == 3 && $0.bytes[0] == 0x80 }
        // Each note on at its k-cycle's first frame within the period: 0, 64, 128, 192.
        let expected: [UInt8: Int] = [60: 0, 61: 64, 62: 128, 63: 192]
        if driver.stats.xruns == xruns {
            #expect(ons.map(\.bytes[1]) == [60, 61, 62, 63], "\(lines)")
            #expect(ons.map(\.frame) == [0, 64, 128, 192], "\(ons)")
            #expect(offs.map(\.bytes[1]) == [60, 61, 62, 63], "note off after each note's 0.05 s")
        } else {
            // At a JACK xrun jack_midi_dump can read podium's MIDI buffer after podium wrote its
            // next cycle there (JACK2's asynchronous mode): that cycle's messages are not dumped.
            // What is dumped is still in order, each note on at its own frame.
            #expect(!ons.isEmpty && ons.map(\.bytes[1]) == ons.map(\.bytes[1]).sorted() && ons.allSatisfy { expected[$0.bytes[1]] == $0.frame },
                    "\(driver.stats.xruns - xruns) xruns: \(ons)")
            #expect(!offs.isEmpty && offs.allSatisfy { expected[$0.bytes[1]] != nil }, "\(offs)")
        }
        #expect(driver.stats.midiOutSent >= 8 && driver.stats.midiOutFull == 0 && driver.stats.midiOutRefused == 0, "\(driver.stats)")
    }

    @Test("MIDI clock out at 120 and 175 BPM: jack_mclk_dump reads 24 ticks a beat, each on its own frame (1000 and 685.7 frames apart), with the tempo; stop, locate and start give Stop, Song Position and Continue")
    func clockOut() throws {
        for bpm in [120.0, 175] {
            let driver = try start(.out, tempo: bpm)
            defer { driver.stop() }
            let dump = try JackProgram(server: server.name, "/usr/bin/jack_mclk_dump")
            try JackProgram.connect(server: server.name, "podium:midi_out", "jack_mclk_dump:mclk_in")
            let xruns = driver.stats.xruns
            Thread.sleep(forTimeInterval: 1.5)
            let producer = driver.makeProducer()
            try producer.clock(running: false)
            Thread.sleep(forTimeInterval: 0.2)
            try producer.clock(locate: 8)
            Thread.sleep(forTimeInterval: 0.2)
            try producer.clock(running: true)
            Thread.sleep(forTimeInterval: 0.5)
            let out = dump.stop()
            print("jack_mclk_dump at \(bpm) BPM: \(out.replacingOccurrences(of: "\r", with: "\n").split(separator: "\n").filter { !$0.contains("CLK") }.prefix(8))")
            let ticks = out.components(separatedBy: "CLK").dropFirst().compactMap { t -> (bpm: Double, dt: Int)? in
                let words = t.split(separator: " ").map(String.init)
                guard let cur = words.firstIndex(of: "cur:"), cur + 1 < words.count,
                      let dtIndex = words.firstIndex(of: "dt:"), dtIndex + 1 < words.count,
                      let b = Double(words[cur + 1].replacingOccurrences(of: "[BPM]", with: "")),
                      let dt = Int(words[dtIndex + 1].replacingOccurrences(of: "[sm]", with: "")) else { return nil }
                return (b, dt)
            }
            let ideal = 48000 * 60 / (bpm * 24)
            #expect(ticks.count >= Int(1.4 * bpm / 60 * 24), "\(ticks.count) ticks")
            // Between Start/Continue and Stop every tick is ⌊ideal⌋ or ⌈ideal⌉ frames after the last
            // (an xrun shifts the clock by a period against JACK's frame counter, as it does the sound).
            let off = ticks.filter { Double($0.dt) < floor(ideal) - 0.5 || Double($0.dt) > ceil(ideal) + 0.5 }
            #expect(off.count <= 2 * Int(driver.stats.xruns - xruns) + 2, "ticks off the \(ideal)-frame grid: \(off.prefix(6)) (xruns \(driver.stats.xruns - xruns))")
            let onGrid = ticks.filter { abs(Double($0.dt) - ideal) < 1 }
            #expect(onGrid.allSatisfy { abs($0.bpm - bpm) < 0.2 }, "the dump reads \(bpm) BPM")
            // Stopped: Stop and where it stopped; located to beat 8: Song Position 32 sixteenths; started: Continue.
            let events = out.replacingOccurrences(of: "\r", with: "\n")
            #expect(events.contains("EVENT (0xfc) stop") && events.contains("POS (0x0020)") && events.contains("EVENT (0xfb) continue"), "\(events.prefix(400))")
            if let stop = events.range(of: "(0xfc) stop"), let pos = events.range(of: "POS (0x0020)"), let cont = events.range(of: "(0xfb) continue") {
                #expect(stop.lowerBound < pos.lowerBound && pos.lowerBound < cont.lowerBound)
            }
        }
    }

    /// jack_midi_clock's `-J` jitter accumulates: each tick is placed after the previous one
    /// (`next = last + interval + rand × J × interval`), so the leader's own tempo over 2 s varies
    /// with σ ≈ bpm × J / √3 / √ticks (jack_midi_clock.c) — about 7 × J BPM at 120 BPM: no filter
    /// can know it better than that. At J = 0.3 % (σ ≈ 0.02 BPM) 0.1 BPM is a fair bound.
    @Test("MIDI clock in from jack_midi_clock at 90, 120 and 175 BPM, also with its jitter: Podium's tempo within 0.1 BPM after 2 s; Start starts and Stop stops the clock; journaled as clock lines")
    func clockIn() throws {
        for (bpm, jitter) in [(90.0, 0.0), (120, 0), (175, 0), (90, 0.3), (120, 0.3), (175, 0.3)] {
            let driver = try start(.in, tempo: 100)
            defer { driver.stop() }
            #expect(eventually(2) { driver.stats.callbacks > 4 })
            #expect(!driver.clock.running, "stopped until the leader starts")
            let transport = try JackTransportTool(server: server.name)
            defer { transport.quit() }
            transport.send("stop")
            transport.send("locate 0", settle: 0.2)
            let leader = try JackProgram(server: server.name, "/usr/bin/jack_midi_clock", ["-b", "\(Int(bpm))", "-B"] + (jitter > 0 ? ["-J", "\(jitter)"] : []))
            defer { leader.stop() }
            try JackProgram.connect(server: server.name, "jack_midi_clock:mclk_out", "podium:midi_in")
            transport.send("play")
            #expect(eventually(2) { driver.clock.running }, "Start started the clock")
            Thread.sleep(forTimeInterval: 2)
            let tempo = driver.clock.tempo
            print("MIDI clock in: leader \(bpm) BPM (jitter \(jitter) %), Podium \(tempo) after 2 s, beat \(driver.clock.beat), xruns \(driver.stats.xruns)")
            #expect(abs(tempo - bpm) < 0.1, "\(tempo) BPM following \(bpm) (jitter \(jitter) %)")
            transport.send("stop")
            #expect(eventually(2) { !driver.clock.running }, "Stop stopped the clock")
            let clockLines = driver.journal.follow(nil).lines.filter { $0.contains(" clock ") }
            #expect(clockLines.count >= 3, "Start, the tempo and Stop journaled: \(clockLines.prefix(6))")
        }
    }
    /// The peak of `port` in `seconds` of capture (now).
    func peak(_ port: String, seconds: Double = 0.2) throws -> Float {
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: seconds + 1)
        try capture.connect(from: port, channel: 0)
        capture.start()
        Thread.sleep(forTimeInterval: seconds)
        capture.stopRecording()
        return capture.samples(0).map(abs).max() ?? 0
    }

    @Test("hush: a held tone is released with its release segment, a note waiting for later and a playing loop never sound, all notes off goes out on the 16 channels, it is journaled and the take replays bit for bit; :hush, /podium/hush and CC 123 on midi_in hush too")
    func hush() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let driver = try start()
        defer { driver.stop() }
        let hushed = Mutex(0)
        let loops = LiveLoops(driver: driver)
        loops.start()
        defer { loops.stopScheduler() }
        driver.onHush = { hushed.withLock { $0 += 1 }; loops.endAllNow() }
        let dump = try JackProgram(server: server.name, "/usr/bin/jack_midi_dump")
        try JackProgram.connect(server: server.name, "podium:midi_out", "midi-monitor:input")
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startRecording())
        let producer = driver.makeProducer()
        try producer.event([2, 0, 60])                       // a tone, held for a minute
        try producer.event([1, 0, 30, 67])                   // a MIDI note, held
        _ = try loops.define(name: "pulse", beats: 1, body: "i 1 0 0.1 72")
        try producer.event([2, 0, 1, 0], frame: driver.frameTime + 48000 * 3)  // a note for 3 s from now
        #expect(eventually(3) { loops.list().first?.contains("1 played") == true || loops.list().first?.contains("2 played") == true }, "\(loops.list())")
        #expect(try peak("podium:out_1") > 0.25)

        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 5)
        try capture.connect(from: "podium:out_1", channel: 0)
        capture.start()
        Thread.sleep(forTimeInterval: 0.2)
        let hushFrame = driver.frameTime
        #expect(try Hush.perform(producer: producer, loops: loops).hasPrefix("hushed: loops pulse ended"))
        Thread.sleep(forTimeInterval: 3.5)
        capture.stopRecording()
        let heard = capture.samples(0)
        let at = capture.sampleIndex(ofFrame: hushFrame) ?? 0
        // Released, not cut: sound in the first 50 ms after the hush, silence from 0.4 s on (the
        // release is 0.3 s), and the note timed for 3 s never sounds.
        #expect(heard[at..<min(heard.count, at + 2400)].contains { abs($0) > 0.05 }, "the release segment plays")
        #expect(heard[min(heard.count, at + 19200)...].allSatisfy { abs($0) < 1e-4 }, "silence after the release, and no waiting note")
        #expect(loops.names.isEmpty && hushed.withLock { $0 } == 1)
        let stats = driver.stats
        #expect(stats.hushes == 1 && stats.droppedByHush >= 1, "\(stats)")
        _ = try #require(recording.stopRecording())

        // :hush at the REPL, /podium/hush over OSC, CC 123 from a keyboard on midi_in.
        let printed = Printed()
        let repl = ReplSession(driver: driver, reloader: nil) { printed.add($0) }
        repl.handle(":hush")
        #expect(repl.finish(shouldStop: { false }) && printed.lines.contains("hushed"), "\(printed.lines)")
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.start()
        defer { osc.stop() }
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py"), "\(osc.port)", "ask", "/podium/hush"])
        #expect(r.stdout.contains("/podium/done hushed"), "\(r.stdout) \(r.stderr)")
        // At a JACK xrun the keyboard client can be a cycle ahead of podium and write its MIDI
        // buffer again before podium read it (JACK2's asynchronous mode; see MidiTests): the
        // controller is sent again only when podium counted an xrun while it was on its way.
        var xrunsOnTheWay: [UInt64] = []
        while true {
            let xruns = driver.stats.xruns
            let keyboard = try MidiSender(server: server.name)
            try keyboard.connect(to: "podium:midi_in")
            keyboard.play([(frame: driver.frameTime + 2048, bytes: [0xB3, 123, 0])])
            if eventually(2, { driver.stats.hushes == 4 }) || driver.stats.xruns == xruns || xrunsOnTheWay.count == 2 { break }
            xrunsOnTheWay.append(driver.stats.xruns - xruns)
        }
        #expect(driver.stats.hushes == 4, "\(driver.stats.hushes) hushes (sent again after xruns: \(xrunsOnTheWay))")
        #expect(eventually(2) { hushed.withLock { $0 } == 4 }, "the supervisor said each hush")

        let lines = MIDIHardwareTests.dumped(dump.stop())
        for channel in 0..<16 {
            #expect(lines.contains { $0.bytes == [0xB0 | UInt8(channel), 0x7B, 0x00] }, "all notes off on channel \(channel + 1)")
        }
        let log = try String(contentsOf: dir.appendingPathComponent("events.log"), encoding: .utf8)
        // Its bound: the highest instrument number (the orchestra's 1 and 2, then the host's and
        // SuperDirt's synths, which Csound numbers after them).
        let bounds = log.split(separator: "\n").compactMap { line in line.range(of: " hush ").flatMap { Int(line[$0.upperBound...]) } }
        #expect(!bounds.isEmpty && bounds.allSatisfy { $0 == bounds[0] && $0 >= 2 + DirtSynths.names.count }, "journaled with its bound: \(bounds)")
        _ = try SessionReplayer(directory: dir).run(output: dir.appendingPathComponent("replay.wav").path)
        let diff = firstDifference(try samples(dir.appendingPathComponent("audio.wav").path), try samples(dir.appendingPathComponent("replay.wav").path))
        #expect(diff == nil, "the hushed take replays identically (first difference \(diff ?? -1))")
    }

    @Test("instrument numbers: instr 10000 is refused with a reason (Csound's voice count walks every number up to the highest each k-cycle: instr 999999 measured 105 % of the period); with instr 9999 defined the callbacks stay short, 10 hushes release it, and the longest hushing callback's CPU stays under 40 % of the period")
    func hushWithHighInstrumentNumber() throws {
        // From live code, a number one block past what is compiled is refused (Csound 6.18
        // corrupts its memory growing its instrument table further while it performs: instr
        // 9999 merged after SuperDirt's synths crashed it); in the orchestra file it is taken.
        let low = try start()
        do {
            _ = try low.compileAndWait("instr 9999\n out a(0)\nendin\n", source: "live")
            Issue.record("instr 9999 compiled live")
        } catch {
            #expect("\(error)".contains("instr 9999: live code may raise the highest instrument number by one block of 200 at a time, here to 399"), "\(error)")
        }
        _ = try low.compileAndWait("instr 399\n out a(0)\nendin\n", source: "live")
        low.stop()
        let driver = try start(orchestra: MIDIHardwareTests.orchestra + "\ninstr 9999\n aenv linsegr 0, 0.005, 1, 0.05, 0\n outs a(0), oscili(0.3 * aenv, 660)\nendin\n")
        defer { driver.stop() }
        do {
            _ = try driver.compileAndWait("instr 10000\n out a(0)\nendin\n", source: "live")
            Issue.record("instr 10000 compiled")
        } catch {
            #expect("\(error)".contains("instr 10000: a performance takes instrument numbers 1 to 9999"), "\(error)")
        }
        let producer = driver.makeProducer()
        try producer.event([9999, 0, 60])
        #expect(try peak("podium:out_2") > 0.25, "instrument 9999 sounds")
        driver.resetCallbackTimes()
        Thread.sleep(forTimeInterval: 0.3)
        #expect(driver.stats.p50 < 0.3, "\(driver.stats)")
        driver.resetCallbackTimes()
        for _ in 0..<10 {
            #expect(try producer.hush() != nil)
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(eventually(2) { driver.stats.hushes == 10 }, "\(driver.stats.hushes) hushes")
        let stats = driver.stats
        #expect(stats.maxCallbackCPUMicroseconds < 0.4 * stats.periodMicroseconds, "\(stats)")
        #expect(try peak("podium:out_2") < 1e-4, "instrument 9999 was released")
    }

    @Test("controller feedback: a feedback binding's channel set from elsewhere goes out as its CC on midi_out; the controller's own move is not echoed back")
    func feedback() throws {
        let driver = try start()
        defer { driver.stop() }
        try driver.setBindings([Binding(source: .midiCC(midiChannel: 1, controller: 74), channel: "level", input: 0...127, output: 0...1, feedback: true)])
        let dump = try JackProgram(server: server.name, "/usr/bin/jack_midi_dump")
        try JackProgram.connect(server: server.name, "podium:midi_out", "midi-monitor:input")
        Thread.sleep(forTimeInterval: 0.2)
        let producer = driver.makeProducer()
        try producer.set("level", 0.25)                      // from a surface: goes out as 32
        Thread.sleep(forTimeInterval: 0.2)
        let keyboard = try MidiSender(server: server.name)
        try keyboard.connect(to: "podium:midi_in")
        keyboard.play([(frame: driver.frameTime + 2048, bytes: [0xB0, 74, 80])])  // the controller's own move
        #expect(eventually(2) { abs(((try? driver.engine.control("level")) ?? 0) - 80.0 / 127) < 1e-9 })
        Thread.sleep(forTimeInterval: 0.2)
        try producer.set("level", 1)                         // from a surface again: 127
        Thread.sleep(forTimeInterval: 0.3)
        let sent = MIDIHardwareTests.dumped(dump.stop()).map(\.bytes).filter { $0.count == 3 && $0[0] == 0xB0 && $0[1] == 74 }
        #expect(sent.map { $0[2] }.suffix(2) == [32, 127], "\(sent)")
        #expect(!sent.contains { $0[2] == 80 }, "the controller's own value was not echoed: \(sent)")
    }

    @Test("podium replay --midi writes a Standard MIDI File of what midi_out sent, one tick a frame (mido reads it back)")
    func replayMIDI() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let driver = try start()
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startRecording())
        let producer = driver.makeProducer()
        // One reading of JACK's frame time for all three (the estimate jumps at an xrun), 200 ms
        // ahead (under load the first two notes once came 11712 frames apart, not 12000).
        let base = driver.frameTime + 9600
        for (i, note) in [60.0, 64, 67].enumerated() {
            try producer.event([1, 0, 0.25, note], frame: base + Int64(i) * 12000)
        }
        Thread.sleep(forTimeInterval: 1.5)
        _ = try #require(recording.stopRecording())
        driver.stop()
        let midi = dir.appendingPathComponent("out.mid").path
        let r = try run(Paths.podium, ["replay", dir.path, "--midi", midi])
        #expect(r.status == 0, "\(r.stderr)")
        let script = "import mido, sys\nf = mido.MidiFile(sys.argv[1])\nprint('ticks', f.ticks_per_beat)\nt = 0\nfor m in f.tracks[0]:\n t += m.time\n if m.type == 'set_tempo': print('tempo', m.tempo)\n if m.type in ('note_on', 'note_off'): print(m.type, m.note, t)"
        let read = try run(which("python3") ?? "/usr/bin/python3", ["-c", script, midi])
        #expect(read.status == 0, "\(read.stderr)")
        let lines = read.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("ticks 6") && lines.contains("tempo 125"), "one tick a frame at 48 kHz: \(lines)")
        let ons = lines.filter { $0.hasPrefix("note_on") }.map { $0.split(separator: " ") }
        let offs = lines.filter { $0.hasPrefix("note_off") }.map { $0.split(separator: " ") }
        #expect(ons.map { String($0[1]) } == ["60", "64", "67"] && offs.count == 3, "\(lines)")
        // 12000 frames between the notes, within a k-cycle (each is sent at its k-cycle's start).
        let onFrames = ons.compactMap { Int($0[2]) }
        if onFrames.count == 3 { #expect(abs(onFrames[1] - onFrames[0] - 12000) < 64 && abs(onFrames[2] - onFrames[1] - 12000) < 64, "\(onFrames)") }
    }
}
}
