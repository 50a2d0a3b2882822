import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumPerformance
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Synchronization
import Testing

/// TidalCycles plays Podium: Debian's Tidal 1.7.10 in ghci, started as BootTidal starts it
/// (`startTidal superdirtTarget …`, `tidal-client.ghci`), sends to a performance's SuperDirt
/// surface (`--dirt`); a capture client hears what it played.
extension JackSuites {
@Suite("Tidal plays Podium (SuperDirt)", .serialized)
final class DirtTests {
    let server: TestJackServer

    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// `bd` writes a level (`speed` × 0.2) for its length: onsets and levels are read exactly.
    /// It declares `speed cps`; Tidal's `foo` is no parameter of it.
    static let orchestra = """
    nchnls = 1
    0dbfs = 1
    instr bd ; podium: speed cps
      aLevel linseg p4 * 0.2, p3, p4 * 0.2
      out aLevel
    endin
    """

    /// A performance of `orchestra` with the SuperDirt surface on a free port, recording.
    func perform(_ orchestra: String = DirtTests.orchestra, samples: [String] = [], osc: Bool = false,
                 _ body: (Performance, DirtSurface, CaptureClient, () -> [String]) throws -> Void) throws {
        let dir = Paths.temporaryDirectory()
        let file = dir.appendingPathComponent("dirt.orc").path
        try orchestra.write(toFile: file, atomically: true, encoding: .utf8)
        var options = PerformanceOptions(orchestra: file, source: .text(orchestra: orchestra, score: nil, name: "dirt.orc"), seed: 5,
                                         jack: JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64),
                                         sessions: dir.appendingPathComponent("Sessions").path)
        options.startServer = false
        options.osc = osc ? OSCOptions(port: 0) : nil
        options.web = nil
        options.record = true
        options.dirt = OSCOptions(port: 0)
        options.samples = samples
        options.defaultSamples = false
        let said = Mutex<[String]>([])
        let performance = Performance(options: options, say: { line in said.withLock { $0.append(line) } }, output: { _ in })
        try performance.start()
        defer { performance.stop() }
        let dirt = try #require(performance.dirt)
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 20, name: "dirtprobe")
        defer { capture.close() }
        try capture.connect(from: "podium:out_1", channel: 0)
        Thread.sleep(forTimeInterval: 0.1)
        capture.start()
        try body(performance, dirt, capture) { said.withLock { $0 } }
    }

    /// Runs Tidal's code against `port` for `seconds` after it connected; returns its stdout.
    func tidal(_ code: String, port: UInt16, seconds: Double, latency: Double = 0.1) throws -> String {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Support/tidal-client.ghci").path
        let r = try run("/bin/sh", ["-c", "exec ghci -v0 < \"$0\"", script],
                        environment: ["DIRT_PORT": "\(port)", "TIDAL_CODE": code, "TIDAL_SECONDS": "\(seconds)", "DIRT_LATENCY": "\(latency)"])
        #expect(r.status == 0, "tidal-client exited \(r.status) (2: no handshake reply): \(r.stderr)")
        #expect(r.stderr.isEmpty, "Tidal said: \(r.stderr)")
        return r.stdout
    }

    @Test("d1 $ s \"bd*4\" plays a named instrument on Tidal's timetags: onsets 1/(4·cps) apart to a frame, speed \"<1 2>\" reaches it, the handshake is answered, Podium's clock takes Tidal's cps, hush silences, and the session replays without Tidal")
    func bdFour() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        try perform { performance, dirt, capture, said in
            let lateBefore = performance.driver?.stats.lateCommands ?? 0
            let out = try tidal("d1 $ s \"bd*4\" # speed \"<1 2>\" # legato 0.5 # pF \"foo\" 3", port: dirt.port, seconds: 3.7)
            #expect(out.contains("tidal-client: connected"), "\(out)")
            // Tidal hushed as it quit; what it had sent (0.15 s ahead at most) has played by now.
            Thread.sleep(forTimeInterval: 0.6)
            let heardUntil = capture.samples(0).count
            Thread.sleep(forTimeInterval: 0.8)
            capture.stopRecording()
            let samples = capture.samples(0)
            #expect(dirt.stats.handshakes >= 1)
            #expect(dirt.stats.late == 0, "\(dirt.summary)")
            #expect(dirt.player.stats.instrumentNotes >= 8, "\(dirt.summary)")

            // Onsets: a quarter of a cycle apart at Tidal's default 0.5625 cps, to a frame or two.
            let onsets = capture.onsets(0, threshold: 0.05)
            #expect(onsets.count >= 8, "\(onsets.count) onsets")
            let spacing = 48000 / (4 * 0.5625)
            let gaps = zip(onsets.dropFirst(), onsets).map { Double($0 - $1) }
            // A dummy server that falls behind skips periods: a note whose frame fell in one starts
            // at the next period Podium performs, late (counted), which moves its onset and two gaps.
            let late = (performance.driver?.stats.lateCommands ?? 0) - lateBefore
            let off = gaps.filter { abs($0 - spacing) > 2 }.count
            #expect(off == 0 || off <= 2 * Int(late), "gaps \(gaps), expected \(spacing) (late notes \(late))")

            // speed "<1 2>": levels 0.2 and 0.4, a cycle each.
            let levels = Set(onsets.compactMap { o -> Int? in
                let i = Int(o - capture.frame(ofSample: 0)) + 100
                return i < samples.count ? Int((samples[i] * 10).rounded()) : nil
            })
            #expect(levels == [2, 4], "levels ×10: \(levels)")
            // hush (as Tidal quit): silence after what was sent.
            #expect(samples[heardUntil...].allSatisfy { $0 == 0 }, "silence after hush")

            // Podium's clock follows Tidal's cps: a cycle is a bar of 4 beats.
            #expect(abs(performance.driver!.clock.tempo - 0.5625 * 60 * 4) < 1e-6, "tempo \(performance.driver!.clock.tempo)")
            // A control the instrument does not declare is named once.
            let foo = said().filter { $0.contains("no parameter `foo`") }
            #expect(foo.count == 1, "\(said())")

            // The session replays without Tidal, sample for sample.
            let dir = URL(fileURLWithPath: try #require(performance.recording?.recordingDirectory))
            performance.stop()
            _ = try SessionReplayer(directory: dir).run(output: dir.appendingPathComponent("replay.wav").path)
            let recorded = try SoundFileContents(path: dir.appendingPathComponent("audio.wav").path).samples
            #expect(recorded.contains { $0 > 0.3 }, "the notes were recorded")
            let replayed = try SoundFileContents(path: dir.appendingPathComponent("replay.wav").path).samples
            let diff = firstDifference(recorded, replayed)
            #expect(diff == nil, "replay differs at sample \(diff ?? -1)")
        }
    }

    @Test("SuperDirt's synths from Tidal: d1 $ n \"0 4 7\" # s \"<superpiano ~ supersaw ~>\" and d2's drums (superkick, superhat, supersnare, superclap), with SuperDirt's effects (lpf, shape, crush, hpf, vowel), play in Podium's stereo performance with no orchestra naming them; no control is unknown; each note at its pitch (MIDI 60, 64, 67) within 1 %, from Tidal's n and SuperDirt's event maths")
    func synthsFromTidal() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        // A sample bank, so that the sampler (and with it the synths' effects) is compiled.
        let bank = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bank) }
        try SampleJackTests.level(bank.path + "/lvl/0.wav", level: 0.1, seconds: 0.05)
        try perform("nchnls = 2\n0dbfs = 1\n", samples: [bank.path]) { performance, dirt, capture, said in
            // The tune on even cycles, the drums on odd ones (a slot of their own), with effects.
            let out = try tidal("setcps 1\nd1 $ n \"0 4 7\" # s \"<superpiano ~ supersaw ~>\" # sustain 0.2 # lpf 4000 # shape 0.2\n"
                                + "d2 $ s \"<~ [superkick superhat supersnare superclap]>\" # crush 6 # hpf 300 # vowel \"o\"",
                                port: dirt.port, seconds: 5.4)
            #expect(out.contains("tidal-client: connected"), "\(out)")
            Thread.sleep(forTimeInterval: 0.6)
            capture.stopRecording()
            // A late bundle still plays (at once, counted); under a full run's load 2 of 19
            // arrived late. What this test claims is the synths' sound: none refused, few late.
            #expect(dirt.stats.late * 5 <= dirt.stats.events && dirt.player.stats.refused == 0, "\(dirt.summary)")
            #expect(!said().contains { $0.contains("no instrument") || $0.contains("no parameter") || $0.contains("no control") }, "\(said())")
            let samples = capture.samples(0)
            // Notes start out of silence (50 ms under the threshold before each; the tune's notes last 0.2 s).
            var onsets: [Int] = []
            var below = 2400
            for (i, v) in samples.enumerated() {
                if abs(v) > 0.002 { if below >= 2400 { onsets.append(i) }; below = 0 } else { below += 1 }
            }
            // At 1 cps the tune's notes are a third of a second apart (16,000 samples), and its
            // last is as far from the drums; the drums are a quarter of a second apart (12,000).
            var pitches: [Double] = []
            var drumGaps = 0
            for (k, start) in onsets.enumerated() {
                let next = k + 1 < onsets.count ? onsets[k + 1] - start : Int.max
                if abs(next - 12000) < 200 { drumGaps += 1 }
                // Only from the first drums on the grid on: before Tidal's setcps took, a kick
                // can fall a third of a second before the next onset by chance (read 65.7 Hz once).
                guard drumGaps > 0 else { continue }
                // (exactly a third of a cycle from the next: Tidal's first events, sent before
                // its setcps took, are not on this grid)
                guard abs(next - 16000) < 200, start + 480 + 4096 <= samples.count else { continue }
                if let f = yinPitch(Array(samples[(start + 480)..<(start + 480 + 4096)])) { pitches.append(f) }
            }
            print("synths from Tidal: pitches \(pitches.map { ($0 * 10).rounded() / 10 }), drum gaps \(drumGaps)")
            let expected = [261.63, 329.63, 392.0]
            let named = pitches.map { f in expected.first { abs(f / $0 - 1) <= 0.01 } }
            // (How many cycles fall on the grid depends on when Tidal's setcps took: 5 of 6
            // notes once; every one read must be at its pitch, and all three heard.)
            #expect(pitches.count >= 3 && named.allSatisfy { $0 != nil }, "pitches \(pitches.map { ($0 * 10).rounded() / 10 }) (onsets \(onsets))")
            #expect(Set(named.compactMap { $0 }) == Set(expected), "every note of the tune: \(pitches)")
            // The four drums, each heard out of silence on its quarter of the cycle.
            #expect(drumGaps >= 3, "drum onsets 0.25 s apart: \(drumGaps) (onsets \(onsets))")
        }
    }

    /// The fundamental of a periodic stretch (YIN, threshold 0.15, 50–1000 Hz at 48 kHz), or nil.
    func yinPitch(_ x: [Float]) -> Double? {
        let w = x.count / 2, minLag = 48, maxLag = min(960, w)
        var d = [Double](repeating: 0, count: maxLag + 1)
        for tau in 1...maxLag {
            var sum = 0.0
            for i in 0..<w { let e = Double(x[i] - x[i + tau]); sum += e * e }
            d[tau] = sum
        }
        var running = 0.0
        var cm = [Double](repeating: 1, count: maxLag + 1)
        for tau in 1...maxLag { running += d[tau]; cm[tau] = running > 0 ? d[tau] * Double(tau) / running : 1 }
        guard var tau = (minLag...maxLag).first(where: { cm[$0] < 0.15 }) else { return nil }
        while tau + 1 <= maxLag && cm[tau + 1] < cm[tau] { tau += 1 }
        guard tau > minLag && tau < maxLag else { return 48000 / Double(tau) }
        let den = cm[tau - 1] - 2 * cm[tau] + cm[tau + 1]
        return 48000 / (Double(tau) + (den != 0 ? 0.5 * (cm[tau - 1] - cm[tau + 1]) / den : 0))
    }

    @Test("numbers no Int holds never stop a performance: /dirt/play with n 1e19, 3.4e38 (float32) and 1e300, unbundled; bundled with a nudge of NaN, inf or 1e300; each is played or ignored and the engine plays on")
    func hugeNumbers() throws {
        let bank = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bank) }
        for i in 0..<3 { try SampleJackTests.level(bank.path + "/lvl/\(i).wav", level: 0.1 * Double(i + 1), seconds: 0.05) }
        try perform(samples: [bank.path]) { performance, dirt, capture, said in
            let port = "\(dirt.port)"
            for n in ["d:1e19", "f:3.4e38", "d:1e300", "d:-1e19", "d:nan"] {
                _ = try CompileQueueTests.python("osc_client.py", [port, "message", "/dirt/play", "s:s", "s:lvl", "s:n", n])
            }
            let when = String(format: "%.6f", Date().timeIntervalSince1970 + 0.2)
            for nudge in ["d:nan", "d:inf", "d:-inf", "d:1e300", "d:-1e300"] {
                _ = try CompileQueueTests.python("osc_client.py", [port, "bundle", when, "/dirt/play", "s:_id_", "s:1", "s:cps", "f:0.5625",
                                                                 "s:cycle", "f:3", "s:nudge", nudge, "s:s", "s:lvl", "s:n", "d:1e19"])
            }
            // One event with 1,500 controls the sampler does not take, and one named with a
            // newline: one line names them (eight and how many more), the newline escaped.
            var keys: [String] = []
            for i in 0..<1500 { keys += ["s:k\(i)", "f:1"] }
            _ = try CompileQueueTests.python("osc_client.py", [port, "message", "/dirt/play", "s:s", "s:lvl", "s:bad\nname", "f:1"] + keys)
            #expect(eventually(5) { dirt.stats.datagrams >= 11 }, "\(dirt.summary)")
            let driver = try #require(performance.driver)
            let callbacks = driver.stats.callbacks
            #expect(eventually(2) { driver.stats.callbacks > callbacks + 10 }, "the engine plays on")
            #expect(dirt.stats.malformed == 0, "\(dirt.summary)")
            let unknown = said().filter { $0.contains("has no control") }
            #expect(unknown.count == 1 && unknown.allSatisfy { $0.contains("and 1493 more") && $0.contains("`bad\\nname`") && !$0.contains("\n") },
                    "\(unknown.map { $0.prefix(300) })")
        }
    }

    @Test("samples by name from Tidal with its latency at 0.3 s, a nudge and a once, several slots at once, and a flood of bd*128 on 8 orbits: every event played, no ring full, OSC answers within 50 ms meanwhile")
    func samplesAndFlood() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        let bank = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: bank) }
        for i in 0..<3 { try SampleJackTests.level(bank.path + "/lvl/\(i).wav", level: 0.1 * Double(i + 1), seconds: 0.05) }
        try perform(samples: [bank.path], osc: true) { performance, dirt, capture, said in
            let osc = try #require(performance.osc)
            // One python-osc client asks /podium/status every 50 ms while Tidal floods, and says
            // its slowest answer (ms).
            let pinger = Mutex<ProcessResult?>(nil)
            let asking = Thread {
                let code = """
                import socket, sys, time
                from pythonosc import osc_message_builder
                s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(2)
                m = osc_message_builder.OscMessageBuilder(address="/podium/status").build().dgram
                worst, end = 0.0, time.time() + float(sys.argv[2])
                while time.time() < end:
                    t = time.time(); s.sendto(m, ("127.0.0.1", int(sys.argv[1]))); s.recvfrom(65536)
                    worst = max(worst, time.time() - t); time.sleep(0.05)
                print(round(worst * 1000, 1))
                """
                let r = try? run(which("python3") ?? "/usr/bin/python3", ["-c", code, "\(osc.port)", "6"])
                pinger.withLock { $0 = r }
            }
            asking.start()
            // A BootTidal of its own: latency 0.3 s, a nudge, and a `once`.
            let out = try tidal("d1 $ s \"lvl:2 lvl:1*2\" # nudge 0.01\nd2 $ s \"bd*128\" # orbit (irand 8) # legato 0.1\nonce $ s \"lvl\"",
                                port: dirt.port, seconds: 3.6, latency: 0.3)
            #expect(out.contains("tidal-client: connected"), "\(out)")
            Thread.sleep(forTimeInterval: 0.4)
            capture.stopRecording()
            let p = dirt.player.stats
            // 128 a cycle for about two cycles, and the samples' three a cycle.
            #expect(p.instrumentNotes >= 200, "\(dirt.summary)")
            #expect(p.sampleNotes >= 5, "\(dirt.summary)")
            // A bundle that came after its timetag is played at once and counted. On two cores
            // shared by five test processes ghci's sender now and then sends past Tidal's 0.3 s
            // (32 of 270 in one CI run): the kernel's arrival stamp tells those apart, and the
            // claim is on the rest, the bundles late in Podium's hands.
            let lateInPodium = dirt.stats.late - dirt.stats.lateOnArrival
            #expect(p.ringFull == 0 && p.refused == 0 && lateInPodium * 10 <= dirt.stats.events, "\(dirt.summary)")
            #expect(dirt.stats.malformed == 0 && dirt.stats.badArguments == 0, "\(dirt.summary)")
            var answered: ProcessResult?
            for _ in 0..<100 where answered == nil { Thread.sleep(forTimeInterval: 0.1); answered = pinger.withLock { $0 } }
            let worst = Double(answered?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? .infinity
            #expect(worst < 50, "the slowest /podium/status answer during the flood took \(worst) ms: \(answered?.stderr ?? "no answer")")
            #expect(!said().contains { $0.contains("ring is full") || $0.contains("no parameter") || $0.contains("no control") }, "\(said())")
        }
    }
}
}
