import CJack
import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSession
import Testing

/// Every performance keeps a session (issue 13): journal-only sessions, their replay and
/// repair, `--no-session`, takes, and `podium sessions` / `prune`.
extension JackSuites {
@Suite("Sessions by default", .serialized)
final class SessionDefaultTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// Notes from its score (so two performances get the same inputs), random at init and at
    /// a-rate (seeded by --seed).
    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1
      ifreq = p4 * (1 + rnd(0.5))
      a1 oscili 0.2, ifreq
      an noise 0.05, 0
      outs a1 + an, a1
    endin
    """
    static let score = (0..<8).map { "i1 \(Double($0) * 0.2) 0.15 \(220 + $0 * 55)" }.joined(separator: "\n") + "\n"

    func play(_ orc: String, _ extra: [String], score: String? = nil) throws -> ProcessResult {
        try run(Paths.podium, ["play", orc] + (score.map { ["--score", $0] } ?? []) + ["--server", server.name, "--no-connect", "--no-osc",
                               "--no-repl", "--no-watch", "--ksmps", "64"] + extra)
    }

    @Test("a performance without --record replays bit-identically to one recorded with it (same inputs); the recorded one's audio.wav equals its replay")
    func journalOnlyReplaysLikeRecorded() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let orc = root.appendingPathComponent("seeded.orc").path, sco = root.appendingPathComponent("seeded.sco").path
        try Self.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        try Self.score.write(toFile: sco, atomically: true, encoding: .utf8)
        let rec = root.appendingPathComponent("R"), plain = root.appendingPathComponent("P")
        let a = try play(orc, ["--seed", "11", "--duration", "2", "--record", "--sessions", rec.path], score: sco)
        let b = try play(orc, ["--seed", "11", "--duration", "2", "--sessions", plain.path], score: sco)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\n\(b.stderr)")
        let recorded = try #require(SessionCatalog.list(rec).first), journal = try #require(SessionCatalog.list(plain).first)
        #expect(recorded.hasAudio && !journal.hasAudio)
        #expect(!FileManager.default.fileExists(atPath: journal.directory.appendingPathComponent("audio.wav").path))
        #expect(b.stderr.contains("session kept in \(journal.directory.path)"), "\(b.stderr)")

        // The recorded one: audio.wav equals its replay, as ever.
        let r1 = try run(Paths.podium, ["replay", recorded.directory.path])
        #expect(r1.status == 0, "\(r1.stderr)")
        let audio = try samples(recorded.directory.appendingPathComponent("audio.wav").path)
        let replay = try samples(recorded.directory.appendingPathComponent("replay.wav").path)
        #expect(audio.contains { abs($0) > 0.05 } && firstDifference(audio, replay) == nil)

        // Both whole performances, from the engine's start: the same samples.
        let wholeA = root.appendingPathComponent("a.wav").path, wholeB = root.appendingPathComponent("b.wav").path
        let r2 = try run(Paths.podium, ["replay", recorded.directory.path, "--whole", "-o", wholeA])
        let r3 = try run(Paths.podium, ["replay", journal.directory.path, "-o", wholeB])
        #expect(r2.status == 0 && r3.status == 0, "\(r2.stderr)\n\(r3.stderr)")
        #expect(!r3.stderr.contains("not exact"), "a seeded orchestra without input replays exactly: \(r3.stderr)")
        let (x, y) = (try samples(wholeA), try samples(wholeB))
        let common = min(x.count, y.count)
        #expect(common > 2 * 48000 * 3 / 2, "\(x.count) and \(y.count) samples")
        #expect(firstDifference(Array(x.prefix(common)), Array(y.prefix(common))) == nil)
        // And the journal-only replay holds the recorded audio where the recording began.
        let offset = Int(recorded.info.startCycle) * 64 * 2
        let overlap = min(audio.count, y.count - offset)
        #expect(overlap > 48000 && firstDifference(Array(audio.prefix(overlap)), Array(y[offset..<(offset + overlap)])) == nil)
    }

    @Test("kill -9 of a journal-only performance: podium sessions repairs it (events.log cut after its last sync line) and podium replay renders that far")
    func killedJournalOnly() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let orc = root.appendingPathComponent("killed.orc").path
        try Self.orchestra.write(toFile: orc, atomically: true, encoding: .utf8)
        let script = root.appendingPathComponent("killed.script").path
        try (0..<60).map { "@\(Double($0) * 0.1) i1 0 0.08 \(200 + $0 * 20)" }.joined(separator: "\n")
            .write(toFile: script, atomically: true, encoding: .utf8)
        let sessions = root.appendingPathComponent("S")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.podium)
        p.arguments = ["play", orc, "--server", server.name, "--name", "podkill", "--no-connect", "--no-osc", "--no-watch",
                       "--sessions", sessions.path, "--script", script, "--duration", "30", "--seed", "5"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        func syncs() -> Int {
            guard let dir = try? FileManager.default.contentsOfDirectory(atPath: sessions.path).first,
                  let log = try? String(contentsOfFile: sessions.appendingPathComponent(dir).appendingPathComponent("events.log").path, encoding: .utf8)
            else { return 0 }
            return log.split(separator: "\n").filter { $0.hasSuffix(" sync") }.count
        }
        #expect(eventually(10) { syncs() >= 2 })
        kill(p.processIdentifier, SIGKILL)
        waitForExit(p)
        let dir = try #require(SessionCatalog.list(sessions).first?.directory)
        #expect(try SessionInfo.read(dir).status == "recording")
        // What a writer cut short would leave after the last sync line.
        let events = dir.appendingPathComponent("events.log")
        let handle = try FileHandle(forWritingTo: events)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("99999 event 1.0 0.0 0.1 440.0\n100000 ev".utf8))
        try handle.close()

        let listing = try run(Paths.podium, ["sessions", "--dir", sessions.path])
        #expect(listing.status == 0 && listing.stdout.contains("journal only") && listing.stdout.contains("repaired"), "\(listing.stdout)")
        let info = try SessionInfo.read(dir)
        #expect(info.status == "repaired")
        let log = try String(contentsOf: events, encoding: .utf8)
        #expect(log.hasSuffix(" sync\n") && !log.contains("99999 event"), "cut after the last sync line: \(log.suffix(80))")
        let lastSync = try #require(log.split(separator: "\n").last.flatMap { Int64($0.split(separator: " ")[0]) })
        #expect(info.journalFrames == (lastSync + 1) * Int64(info.ksmps))
        #expect((info.events ?? 0) >= 5)

        let out = root.appendingPathComponent("replay.wav").path
        let r = try run(Paths.podium, ["replay", dir.path, "-o", out])
        #expect(r.status == 0, "\(r.stderr)")
        let replayed = try SoundFileContents(path: out)
        #expect(Int64(replayed.frames) == info.journalFrames && replayed.samples.contains { abs($0) > 0.05 })
    }

    @Test("--no-session keeps nothing (no directory); with --record it is refused")
    func noSession() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let sessions = root.appendingPathComponent("none")
        let r = try play(Paths.orchestra("sine.csd"), ["--no-session", "--sessions", sessions.path, "--duration", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sessions.path))
        let refused = try play(Paths.orchestra("sine.csd"), ["--no-session", "--record", "--sessions", sessions.path, "--duration", "1"])
        #expect(refused.status != 0 && refused.stderr.contains("--record and --no-session"), "\(refused.stderr)")
        // :record start cannot make a session that would not replay: it says why.
        let input = root.appendingPathComponent("in.txt").path
        try ":record start\n@0.3 :quit\n".write(toFile: input, atomically: true, encoding: .utf8)
        let piped = try run("/bin/sh", ["-c", "timeout -k 2 20 '\(Paths.podium)' play '\(Paths.orchestra("sine.csd"))' --server \(server.name) --no-connect --no-osc --no-watch --no-session --sessions '\(sessions.path)' < '\(input)'"])
        #expect(piped.status == 0 && piped.stdout.contains("keeps no journal (--no-session)"), "\(piped.stdout)\n\(piped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: sessions.path))
    }

    @Test(":record stop then :record start: a second take in the same session; each take replays to its own audio file")
    func twoTakes() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let driver = JackDriver(source: .text(orchestra: Self.orchestra, score: nil, name: "takes.orc"), options: EngineOptions(seed: 3),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startSession())
        let producer = driver.makeProducer()
        for take in 0..<2 {
            try producer.event([1, 0, 1, 300])
            Thread.sleep(forTimeInterval: 0.3)
            #expect(try recording.startRecording() == dir.path)
            try producer.event([1, 0, 0.2, 500 + Double(take) * 100])
            Thread.sleep(forTimeInterval: 0.5)
            #expect(recording.stopRecording()?.contains(take == 0 ? "recorded" : "take 2") == true)
            #expect(recording.sessionDirectory == dir.path, "the session goes on between takes")
        }
        _ = recording.finish()
        let info = try SessionInfo.read(dir)
        #expect(info.takes?.map(\.audio) == ["audio.wav", "audio-2.wav"] && info.status == "complete")
        #expect(SessionCatalog.list(root).count == 1)
        for (n, file) in [(1, "audio.wav"), (2, "audio-2.wav")] {
            let out = dir.appendingPathComponent("take\(n).wav").path
            _ = try SessionReplayer(directory: dir, take: n).run(output: out)
            let recorded = try samples(dir.appendingPathComponent(file).path)
            let replayed = try samples(out)
            #expect(recorded.contains { abs($0) > 0.05 } && firstDifference(recorded, replayed) == nil, "take \(n)")
        }
    }

    @Test("replay says before it starts why it cannot be exact: rnd with no seed (opcode and line), live input that was not recorded")
    func replayWarnings() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let orchestra = "nchnls = 2\nnchnls_i = 1\n0dbfs = 1\ninstr 1\n  ifreq = 300 * (1 + rnd(0.5))\n  outs oscili(0.2, ifreq) + inch(1), a(0)\nendin\n"
        let driver = JackDriver(source: .text(orchestra: orchestra, score: "i1 0 3600", name: "unseeded.orc"),
                                jack: JackOptions(clientName: "podwarn", serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let source = JackDriver(source: .text(orchestra: "nchnls = 1\n0dbfs = 1\ninstr 1\n out noise(0.3, 0.5)\nendin\n", score: "i1 0 3600", name: "src.orc"),
                                jack: JackOptions(clientName: "warnsrc", serverName: server.name, connect: false))
        try source.start()
        defer { source.stop() }
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startSession())
        let probe = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "warnwiring")
        #expect(jack_connect(probe.client, "warnsrc:out_1", "podwarn:in_1") == 0)
        Thread.sleep(forTimeInterval: 0.3)
        _ = recording.finish()
        #expect(try SessionInfo.read(dir).inputConnected == true)
        let r = try run(Paths.podium, ["replay", dir.path])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("not exact") }
        #expect(lines.contains { $0.contains("line 5: rnd draws random numbers") && $0.contains("no seed") }, "\(r.stderr)")
        #expect(lines.contains { $0.contains("live audio input (nchnls_i = 1) and its input ports were connected") }, "\(r.stderr)")
        // Lexically: a seed statement, comments and strings count as they should.
        #expect(ReplayWarnings.randomness(in: "seed 3\ninstr 1\n i = rnd(1)\nendin", file: "f", seeded: false).isEmpty)
        #expect(ReplayWarnings.randomness(in: "instr 1\n ; rnd(1)\n S = \"rnd\"\nendin", file: "f", seeded: false).isEmpty)
        #expect(ReplayWarnings.randomness(in: "seed 0\ninstr 1\n k = birnd(1)\nendin", file: "f", seeded: true).first?.contains("line 1: seed 0") == true)
    }
}
}

@Suite("podium sessions and prune")
struct SessionListTests {
    /// A session as a performance leaves it, `age` seconds old, with audio or not.
    func make(_ root: URL, _ name: String, age: TimeInterval, audio: Bool, events: Int = 3) throws -> URL {
        let dir = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("orchestras"), withIntermediateDirectories: true)
        let log = ["0 engine 64"] + (0..<events).map { "\($0 + 1) event 1.0 0.0 0.1 440.0" } + ["749 sync"]
        try (log.joined(separator: "\n") + "\n").write(to: dir.appendingPathComponent("events.log"), atomically: true, encoding: .utf8)
        var info: [String: Any] = [
            "format": 1, "orchestra": String(name.split(separator: "_").last ?? "x"),
            "source": ["kind": "orc", "file": "orchestras/x.orc", "original": "x.orc"],
            "sampleRate": 48000, "ksmps": 64, "outputs": 1, "inputs": 0, "seed": 1, "podiumVersion": "test", "csoundVersion": "6.18",
            "started": ISO8601DateFormatter().string(from: Date().addingTimeInterval(-age)), "startCycle": 0, "startSegment": 0,
            "status": "complete", "pid": 1, "channels": [String: Double](), "overruns": 0, "notes": [String](),
            "journalFrames": 750 * 64, "events": events,
        ]
        if audio {
            let w = try SoundFileWriter(path: dir.appendingPathComponent("audio.wav").path, sampleRate: 48000, channels: 1)
            let silence = [Double](repeating: 0, count: 4800)
            try silence.withUnsafeBufferPointer { try w.write($0.baseAddress!, frames: 4800) }
            w.close()
            info["takes"] = [["audio": "audio.wav", "startCycle": 0, "startSegment": 0, "frames": 4800, "overruns": 0]]
            info["frames"] = 4800
        }
        try JSONSerialization.data(withJSONObject: info).write(to: dir.appendingPathComponent("session.json"))
        _ = try SessionInfo.read(dir)
        return dir
    }

    @Test("the list shows date, orchestra, length, events, audio or journal only, size; prune keeps the newest, deletes by age, keeps audio unless asked, dry-runs, refuses bad values")
    func listAndPrune() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let day: TimeInterval = 86400
        let old = try make(root, "a_old", age: 10 * day, audio: false, events: 7)
        let oldAudio = try make(root, "b_oldaudio", age: 9 * day, audio: true)
        let middle = try make(root, "c_middle", age: 3 * day, audio: false)
        let recent = try make(root, "d_recent", age: 3600, audio: false)
        let newest = try make(root, "e_newest", age: 600, audio: false)
        func exists(_ d: URL) -> Bool { FileManager.default.fileExists(atPath: d.path) }
        func sessions(_ args: [String]) throws -> ProcessResult { try run(Paths.podium, ["sessions"] + args) }

        let list = try sessions(["--dir", root.path])
        let lines = list.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.split(separator: " ").filter { !$0.isEmpty } == ["date", "orchestra", "length", "events", "audio", "size", "status"], "\(list.stdout)")
        let oldRow = try #require(lines.first { $0.contains(" old ") })
        #expect(oldRow.contains("1.0 s") && oldRow.contains(" 7 ") && oldRow.contains("journal only") && oldRow.contains("KB") && oldRow.hasSuffix("complete"), "\(oldRow)")
        #expect(lines.contains { $0.contains(" oldaudio ") && $0.contains(" audio ") }, "\(list.stdout)")

        let dry = try sessions(["prune", "--dir", root.path, "--older-than", "7d", "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("would delete \(old.path) (journal only"), "\(dry.stdout)")
        #expect(dry.stdout.contains("kept \(oldAudio.path): holds recorded audio (--include-audio"), "\(dry.stdout)")
        #expect(exists(old) && exists(oldAudio))

        let byAge = try sessions(["prune", "--dir", root.path, "--older-than", "7d"])
        #expect(byAge.status == 0 && byAge.stdout.contains("deleted \(old.path)") && byAge.stdout.contains("deleted 1 session"), "\(byAge.stdout)")
        #expect(!exists(old) && exists(oldAudio) && exists(middle))

        let byCount = try sessions(["prune", "--dir", root.path, "--keep", "2"])
        #expect(byCount.status == 0, "\(byCount.stderr)")
        #expect(!exists(middle) && exists(oldAudio) && exists(recent) && exists(newest), "\(byCount.stdout)")

        let both = try sessions(["prune", "--dir", root.path, "--keep", "1", "--older-than", "30m", "--include-audio"])
        #expect(both.status == 0 && !exists(oldAudio) && !exists(recent) && exists(newest), "\(both.stdout)")

        for (args, message) in [(["--keep=-1"], "--keep: -1 is not a number of sessions"), (["--older-than", "7x"], "--older-than: not an age: 7x"),
                                (["--older-than", "soon"], "--older-than: not an age: soon"), ([], "say what to prune")] {
            let r = try sessions(["prune", "--dir", root.path] + args)
            #expect(r.status != 0 && r.stderr.contains(message), "\(args): \(r.stderr)")
        }
        #expect(exists(newest))
        #expect(PruneRule.age("12h") == 43200 && PruneRule.age("30m") == 1800 && PruneRule.age("d") == nil)
    }
}
