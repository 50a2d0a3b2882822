import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing

/// The example orchestras: each renders offline and plays its scripted demo on a dummy JACK server.
enum ExampleOrchestras {
    static let all = ["sine", "motion", "organ", "tonematrix", "synth", "looper"]
}

@Suite("Example orchestras, offline", .serialized)
struct OrchestraRenderTests {
    @Test("renders offline: sound, and no Csound errors", arguments: ExampleOrchestras.all)
    func renders(_ name: String) throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("\(name).wav").path
        let r = try run(Paths.podium, ["render", Paths.orchestra("\(name).csd"), "-o", out, "--seed", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.lowercased().contains("error"), "\(r.stderr)")
        let audio = try SoundFileContents(path: out)
        #expect(audio.seconds > 5, "\(audio.seconds) s")
        #expect(audio.peaks.allSatisfy { $0 > 0.01 && $0 < 1 }, "peaks \(audio.peaks): sound, and no clipping")
    }

    @Test("each orchestra has an OSC map that loads and a demo script")
    func companions() throws {
        for name in ExampleOrchestras.all {
            #expect(FileManager.default.fileExists(atPath: Paths.orchestra("\(name).oscmap.yaml")), "\(name).oscmap.yaml")
            #expect(FileManager.default.fileExists(atPath: Paths.orchestra("\(name).script")), "\(name).script")
        }
    }
}

extension SoundFileContents {
    var seconds: Double { Double(frames) / Double(sampleRate) }
}

extension JackSuites {
@Suite("Example orchestras, live", .serialized)
final class OrchestraPlayTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// What one demo did, checked on the test's own thread.
    struct Outcome: Sendable {
        var status: Int32, stderr: String, seconds = 0.0, peaks: [Double] = [], replayStatus: Int32 = 0, replayError = "", differs: Int? = nil
    }

    /// Plays `name`'s demo script, recorded, and replays the session (on any thread).
    static func play(_ name: String, server: String) throws -> Outcome {
        let dir = Paths.temporaryDirectory("demo-\(name)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sessions = dir.appendingPathComponent("S")
        let r = try run(Paths.podium, ["play", Paths.orchestra("\(name).csd"), "--script", Paths.orchestra("\(name).script"),
                                       "--server", server, "--name", "demo-\(name)", "--no-connect", "--osc-port", "0", "--no-watch",
                                       "--no-web", "--no-advertise", "--record", "--sessions", sessions.path], timeout: 90)
        var outcome = Outcome(status: r.status, stderr: r.stderr)
        guard let session = SessionCatalog.list(sessions).first else { return outcome }
        let audio = try SoundFileContents(path: session.directory.appendingPathComponent("audio.wav").path)
        outcome.seconds = audio.seconds
        outcome.peaks = audio.peaks
        // (The looper's sample is read from beside the original orchestra.)
        let replay = try run(Paths.podium, ["replay", session.directory.path, "-o", dir.appendingPathComponent("replay.wav").path])
        outcome.replayStatus = replay.status
        outcome.replayError = replay.stderr
        let replayed = try SoundFileContents(path: dir.appendingPathComponent("replay.wav").path)
        outcome.differs = firstDifference(audio.samples, replayed.samples)
        return outcome
    }

    // The six demos play side by side, three at a time, each a JACK client of its own on the
    // suite's server (a demo's script runs in real time: one after another took 80 s).
    @Test("each example orchestra plays its demo script with its OSC map on a dummy JACK server, recorded; the recording replays exactly")
    func demos() throws {
        var outcomes: [String: Outcome] = [:]
        for batch in stride(from: 0, to: ExampleOrchestras.all.count, by: 3) {
            let names = Array(ExampleOrchestras.all[batch..<min(batch + 3, ExampleOrchestras.all.count)])
            let runs = names.map { name in InBackground { [server] in try OrchestraPlayTests.play(name, server: server.name) } }
            for (name, r) in zip(names, runs) { r.wait(); outcomes[name] = r.value }
        }
        for name in ExampleOrchestras.all {
            let o = try #require(outcomes[name], "\(name): the demo could not be played")
            #expect(o.status == 0, "\(name): \(o.stderr)")
            #expect(o.stderr.contains("OSC map"), "\(name): the map beside the orchestra loads: \(o.stderr)")
            let errors = o.stderr.split(separator: "\n").filter { $0.lowercased().contains("error") && !$0.contains("errors 0") }
            #expect(errors.isEmpty, "\(name): \(errors)")
            #expect(o.seconds > 4, "\(name): \(o.seconds) s recorded")
            #expect(o.peaks.contains { $0 > 0.01 }, "\(name): the demo is heard: peaks \(o.peaks)")
            #expect(o.replayStatus == 0, "\(name): \(o.replayError)")
            #expect(o.differs == nil, "replay of \(name) differs at sample \(o.differs ?? -1)")
        }
    }
}
}

extension JackSuites {
@Suite("Presets", .serialized)
final class PresetTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    @Test("at the REPL: :preset save, change, :preset load restores every input channel; :reset goes to chn_k's default; bad names and missing presets are named")
    func roundTrip() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.txt").path
        try """
        :set drawbar1 3
        :set drive 0.9
        @0.3 :preset save gospel
        @0.4 :set drawbar1 0
        @0.4 :set drive 0
        @0.6 :get drawbar1
        @0.7 :preset load gospel
        @0.9 :get drawbar1
        @0.9 :get drive
        @1.0 :reset drawbar1
        @1.2 :get drawbar1
        @1.3 :preset load nosuch
        @1.3 :preset save ../evil
        @1.5 :quit
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let sessions = dir.appendingPathComponent("S").path
        let r = try run("/bin/sh", ["-c", "'\(Paths.podium)' play '\(Paths.orchestra("organ.csd"))' --server \(server.name) --no-connect --osc-port 0 --no-watch --sessions '\(sessions)' < '\(input)'"])
        #expect(r.status == 0, "\(r.stderr)")
        let out = r.stdout.split(separator: "\n").map(String.init)
        #expect(out.contains("saved \(sessions)/presets/organ/gospel.json"), "\(out)")
        #expect(out.filter { $0.hasPrefix("drawbar1 = ") } == ["drawbar1 = 0", "drawbar1 = 3", "drawbar1 = 8", "drawbar1 = 8"], "(:get, :get, :reset, :get) \(out)")
        #expect(out.contains("drive = 0.9"))
        #expect(out.contains { $0.hasPrefix("preset gospel: ") && $0.contains("channels") })
        #expect(out.contains { $0.hasPrefix("no preset \"nosuch\" in ") && $0.contains("(have: gospel)") })
        #expect(out.contains { $0.contains("preset names use letters") })
        let saved = try String(contentsOfFile: "\(sessions)/presets/organ/gospel.json", encoding: .utf8)
        #expect(saved.contains("\"drawbar1\" : 3") && saved.contains("\"drive\" : 0.9"))
    }
}
}

extension JackSuites {
@Suite("MIDI input", .serialized)
final class MidiTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    @Test("a JACK MIDI keyboard plays the organ through podium:midi_in (same process callback, host MIDI, massign); the session logs it and replays exactly")
    func keyboardPlaysOrgan() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // The organ's own score is for offline rendering: here only its effects instrument runs.
        let csd = try String(contentsOfFile: Paths.orchestra("organ.csd"), encoding: .utf8)
        let orc = CSDSections(csd).orchestra
        let driver = JackDriver(source: .text(orchestra: orc, score: "i90 0 3600", name: "organ.orc"), options: EngineOptions(seed: 3),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        #expect(driver.portNames.outputs.count == 2)
        let keyboard = try MidiSender(server: server.name)
        try keyboard.connect(to: "podium:midi_in")
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 4)
        try capture.connect(from: "podium:out_1", channel: 0)
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startRecording())
        capture.start()
        let xruns = driver.stats.xruns
        let t0 = keyboard.frameTime + 4800
        // C major triad held, then released; then a single note.
        keyboard.play([(t0, [0x90, 60, 100]), (t0 + 2400, [0x90, 64, 100]), (t0 + 4800, [0x90, 67, 100]),
                       (t0 + 48000, [0x80, 60, 0]), (t0 + 48000, [0x80, 64, 0]), (t0 + 48000, [0x80, 67, 0]),
                       (t0 + 60000, [0x90, 72, 90]), (t0 + 72000, [0x80, 72, 0])])
        #expect(eventually(3) { keyboard.sent == 8 })
        Thread.sleep(forTimeInterval: 0.5)
        capture.stopRecording()
        _ = recording.stopRecording()
        let s = capture.samples(0)
        #expect(s.contains { abs($0) > 0.02 }, "the keyboard is heard")
        let log = try String(contentsOf: dir.appendingPathComponent("events.log"), encoding: .utf8)
        let midi = log.split(separator: "\n").filter { $0.contains(" midi ") }
        // Every message, in order. At a JACK xrun (a loaded machine) the keyboard client can be
        // a cycle ahead of podium and write its MIDI buffer again before podium read it (JACK2's
        // asynchronous mode): that cycle's messages never reach podium. Then the ones logged are
        // still the keyboard's, in its order.
        let played = ["midi 90 3c 64", "midi 90 40 64", "midi 90 43 64", "midi 80 3c 00", "midi 80 40 00", "midi 80 43 00", "midi 90 48 5a", "midi 80 48 00"]
        let logged = midi.map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }  // without the k-cycle
        let xrunsWhilePlaying = driver.stats.xruns - xruns
        if xrunsWhilePlaying == 0 {
            #expect(logged == played, "\(midi)")
        } else {
            var next = played.startIndex
            let inOrder = logged.allSatisfy { m in
                guard let at = played[next...].firstIndex(of: m) else { return false }
                next = at + 1
                return true
            }
            #expect(!logged.isEmpty && inOrder, "the logged messages are the keyboard's, in its order (\(xrunsWhilePlaying) xruns): \(midi)")
        }
        _ = try SessionReplayer(directory: dir).run(output: dir.appendingPathComponent("replay.wav").path)
        let recorded = try SoundFileContents(path: dir.appendingPathComponent("audio.wav").path).samples
        #expect(recorded.contains { abs($0) > 0.02 })
        #expect(firstDifference(recorded, try SoundFileContents(path: dir.appendingPathComponent("replay.wav").path).samples) == nil)
    }
}
}

extension JackSuites.MidiTests {
    @Test("MIDI controllers through the organ's map (bindings): scaled into channels on their k-cycle and journaled; :learn binds the next controller; held notes name their chord")
    func controllersLearnAndChord() throws {
        let csd = try String(contentsOfFile: Paths.orchestra("organ.csd"), encoding: .utf8)
        let driver = JackDriver(source: .text(orchestra: CSDSections(csd).orchestra, score: "i90 0 3600", name: "organ.orc"),
                                jack: JackOptions(clientName: "podorgan", serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let map = try OSCMap(contentsOf: Paths.orchestra("organ.oscmap.yaml"))
        #expect(map.midiBindings.count == 12)
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: map)
        defer { osc.stop() }
        #expect(driver.bindings.contains { $0.source == .midiCC(midiChannel: nil, controller: 12) && $0.channel == "drawbar1" })
        let notices = LineLog()
        driver.onNotice = { notices.add($0) }
        let keyboard = try MidiSender(server: server.name, name: "keys2")
        try keyboard.connect(to: "podorgan:midi_in")
        let t0 = keyboard.frameTime + 4800
        let first: [(frame: Int64, bytes: [UInt8])] = [(t0, [0xB0, 12, 127]), (t0 + 10, [0xB0, 13, 0]), (t0 + 2400, [0xB0, 7, 64]),
                     (t0 + 4800, [0x90, 60, 90]), (t0 + 4810, [0x90, 64, 90]), (t0 + 4820, [0x90, 67, 90])]
        keyboard.play(first)
        #expect(eventually(3) { keyboard.sent == 6 })
        Thread.sleep(forTimeInterval: 0.1)
        try driver.learn("perclevel")   // the next controller that moves
        let t1 = keyboard.frameTime + 4800
        keyboard.play(first + [(t1, [0xB3, 21, 127]), (t1 + 4800, [0xB3, 21, 0])])
        #expect(eventually(3) { keyboard.sent == 8 })
        #expect(eventually(1) { (try? driver.engine.control("perclevel")) == 0 }, "learned controller 21 moved perclevel to 1 then 0")
        #expect(try driver.engine.control("drawbar1") == 8)
        #expect(try driver.engine.control("drawbar2") == 0)
        #expect(abs(try driver.engine.control("volume") - 64.0 / 127) < 1e-12)
        #expect(notices.all.contains { $0.hasPrefix("learned: MIDI controller 21 on channel 4 → perclevel") }, "\(notices.all)")
        #expect(eventually(1) { driver.heldNotes == [60, 64, 67] })
        #expect(Music.identify(driver.heldNotes) == "C")
        // The journal gets what the audio thread applied when the supervisor drains it (≤ 10 ms).
        func logged(_ suffix: String) -> Bool { eventually(1) { driver.journal.follow(nil).lines.contains { $0.hasSuffix(suffix) } } }
        #expect(logged("set drawbar1 8.0") && logged("midi b0 0c 7f"))
        #expect(logged("set perclevel 0.0"), "the learned controller's next move")
    }
}
