import Foundation
import PodiumProbe
import Testing

/// Podium on a PipeWire desktop (Debian 12's pipewire 0.3.65, pipewire-jack, wireplumber), run
/// headless by the test (TestPipeWire), Podium through `pw-jack` as a performer runs it.
extension JackSuites {
@Suite("PipeWire", .serialized, .enabled(if: TestPipeWire.available, "pipewire, wireplumber, pw-jack (apt: pipewire pipewire-jack wireplumber pipewire-bin)"))
final class PipeWireTests {
    static let csd = """
    <CsoundSynthesizer>
    <CsInstruments>
    nchnls = 2
    0dbfs = 1
    instr 1
      a1 oscili 0.3, 440
      outs a1, a1
    endin
    </CsInstruments>
    <CsScore>
    i 1 0 3600
    </CsScore>
    </CsoundSynthesizer>
    """

    /// `pw-jack podium play` of the tone, once it says it plays (an issue recorded if it does not).
    func play(_ pw: TestPipeWire, _ extra: [String] = [], seconds: Int = 30) throws -> (Process, PipeReader) {
        let file = pw.directory.appendingPathComponent("tone.csd").path
        try PipeWireTests.csd.write(toFile: file, atomically: true, encoding: .utf8)
        let (p, err) = try pw.launch([Paths.podium, "play", file, "--jack-server", "none", "--no-repl", "--no-web", "--no-osc", "--no-advertise",
                                      "--no-session", "--duration", "\(seconds)"] + extra)
        #expect(eventually(10) { self.text(err).contains("podium: playing") }, "\(text(err))")
        return (p, err)
    }

    func text(_ err: PipeReader) -> String { String(decoding: err.snapshot, as: UTF8.self) }

    @Test("pw-jack podium play: sound reaches the sink; the quantum changes (1024 → 128 → 32 → 2048) restart nothing (ksmps 32 divides them), the score's note goes on; the statistics measure each callback against its own period")
    func playsAndFollowsQuantum() throws {
        let pw = try TestPipeWire()
        defer { pw.stop() }
        let (p, err) = try play(pw)
        defer { if p.isRunning { p.interrupt() }; waitForExit(p) }
        #expect(text(err).contains("period 1024, ksmps 32"), "PipeWire's quantum, ksmps 32 by default: \(text(err))")
        #expect(try pw.recordSinkPeak(seconds: 1) > 0.2, "the tone reaches the sink")
        try pw.forceQuantum(128)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try pw.recordSinkPeak(seconds: 0.8) > 0.2, "still playing at quantum 128")
        try pw.forceQuantum(32)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try pw.recordSinkPeak(seconds: 0.8) > 0.2, "still playing at quantum 32")
        try pw.forceQuantum(2048)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try pw.recordSinkPeak(seconds: 0.8) > 0.2, "still playing at quantum 2048")
        try pw.forceQuantum(0)
        p.interrupt()
        waitForExit(p)
        let said = text(err)
        #expect(!said.contains("restarting the engine"), "no restart, the score not started again: \(said)")
        let stop = said.split(separator: "\n").first { $0.contains("podium: stopped.") }.map(String.init) ?? ""
        // "max N µs of P µs": P is the longest callback's own period; the DSP load is Podium's.
        if let r = stop.range(of: #"DSP load ([0-9.]+)%"#, options: .regularExpression) {
            let load = Double(stop[r].dropFirst("DSP load ".count).dropLast()) ?? 1000
            #expect(load < 100, "\(stop)")
        } else {
            Issue.record("no DSP load in the stop line: \(said)")
        }
    }

    @Test("PipeWire killed mid-set and started again: Podium says so, reconnects within 2 s of PipeWire being back; the sink's ports come later (the session manager starts 1.5 s after the server): the outputs are connected when they appear, the note still sounding")
    func pipewireRestart() throws {
        let pw = try TestPipeWire()
        defer { pw.stop() }
        let (p, err) = try play(pw)
        defer { if p.isRunning { p.interrupt() }; waitForExit(p) }
        #expect(try pw.recordSinkPeak(seconds: 0.5) > 0.2)
        try pw.kill()
        #expect(eventually(3) { self.text(err).contains("JACK server went away") }, "\(text(err))")
        Thread.sleep(forTimeInterval: 0.5)
        try pw.restartServerOnly()
        let back = ContinuousClock.now
        #expect(eventually(5) { self.text(err).contains("reconnected to JACK") }, "\(text(err))")
        let took = ContinuousClock.now - back
        #expect(took < .seconds(2), "reconnected \(took) after PipeWire was back")
        #expect(eventually(3) { self.text(err).contains("no physical playback ports to connect the outputs to yet") }, "\(text(err))")
        let waited = ContinuousClock.now - back
        if waited < .milliseconds(1500) { Thread.sleep(forTimeInterval: Double((.milliseconds(1500) - waited) / .milliseconds(1)) / 1000) }
        #expect(!text(err).contains("playback ports appeared"), "nothing to connect to before the session manager: \(text(err))")
        try pw.startSessionManager()
        #expect(eventually(3) { self.text(err).contains("playback ports appeared: connected podium:out_1 → podium-null-sink:playback_FL, podium:out_2 → podium-null-sink:playback_FR") }, "\(text(err))")
        #expect(try pw.recordSinkPeak(seconds: 0.8) > 0.2, "connected to the sink, the held note sounding: \(text(err))")
    }

    @Test("--transport master on an idle sink: the transport rolls where Podium's ports are (the sink's driver), seen by a client connected to the sink")
    func transportMasterRolls() throws {
        let pw = try TestPipeWire()
        defer { pw.stop() }
        let (p, err) = try play(pw, ["--transport", "master"])
        defer { if p.isRunning { p.interrupt() }; waitForExit(p) }
        Thread.sleep(forTimeInterval: 1)
        let r = try run(try #require(which("pw-jack")), ["python3", Paths.fixture("jack-transport-state.py"), "podium-null-sink:playback_FL", "2"],
                        environment: pw.environment, timeout: 20)
        let states = r.stdout.split(separator: "\n").filter { $0.hasPrefix("state ") }
        #expect(states.count == 2 && states.allSatisfy { $0 == "state 1" }, "rolling (1) on the sink's driver: \(r.stdout)\(r.stderr)")
    }

    @Test("podium doctor under pw-jack names PipeWire and its quantum (no priority of -6); without pw-jack, doctor and podium play say how to play through PipeWire, and play starts no jackd beside it")
    func doctorAndPlayAdvice() throws {
        let pw = try TestPipeWire()
        defer { pw.stop() }
        let dout = try run(try #require(which("pw-jack")), [Paths.podium, "doctor"], environment: pw.environment, timeout: 60)
        let doctor = dout.stdout + dout.stderr
        #expect(doctor.contains("PipeWire 0.3") && doctor.contains("quantum 1024"), "\(doctor)")
        #expect(!doctor.contains("priority -"), "\(doctor)")
        // A server name no jackd has (a jackd "default" another program started would answer).
        let plain = try run(Paths.podium, ["doctor", "--server", "podium-test-none-\(getpid())"], environment: pw.environment, timeout: 60)
        #expect((plain.stdout + plain.stderr).contains("pw-jack podium play"), "\(plain.stdout)")
        let file = pw.directory.appendingPathComponent("tone.csd").path
        try PipeWireTests.csd.write(toFile: file, atomically: true, encoding: .utf8)
        var env = pw.environment
        env["JACK_DEFAULT_SERVER"] = "podium-test-none-\(getpid())"
        let refused = try run(Paths.podium, ["play", file, "--no-repl", "--no-web", "--no-osc", "--no-advertise", "--no-session", "--duration", "1"], environment: env, timeout: 60)
        #expect(refused.status != 0 && refused.stderr.contains("PipeWire is: play through it with pw-jack"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("started jackd"))
    }
}
}
