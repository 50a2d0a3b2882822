import Foundation
import PodiumAudioFile
import Testing

/// `podium render` with bad input: a clear, specific error, a non-zero exit, never a crash.
@Suite("podium render: bad input", .serialized)
struct RenderCLITests {
    let dir = Paths.temporaryDirectory("cli")

    func render(_ args: [String]) throws -> ProcessResult { try run(Paths.podium, ["render"] + args) }

    @Test("a missing input file is named")
    func missingInput() throws {
        let r = try render(["/nonexistent/song.csd", "-o", dir.appendingPathComponent("x.wav").path])
        #expect(r.status != 0)
        #expect(r.stderr.contains("no such file: /nonexistent/song.csd"))
    }

    @Test("a syntax error exits non-zero with Csound's error lines and the line number")
    func syntaxError() throws {
        let out = dir.appendingPathComponent("broken.wav").path
        let r = try render([Paths.fixture("broken.csd"), "-o", out])
        #expect(r.status == 1)
        #expect(r.stderr.contains("broken.csd:10: "), "\(r.stderr)")
        #expect(r.stderr.contains("foobar"))
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("unknown options are refused by name")
    func unknownOption() throws {
        let r = try render([Paths.orchestra("sine.csd"), "--loud", "-o", dir.appendingPathComponent("x.wav").path])
        #expect(r.status == 64)
        #expect(r.stderr.contains("Unknown option '--loud'"))
    }

    @Test("an output path in a missing directory is named")
    func missingDirectory() throws {
        let r = try render([Paths.orchestra("sine.csd"), "-o", "/nonexistent-dir/out.wav"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("output directory /nonexistent-dir does not exist"))
    }

    @Test("an output path that cannot be written is named with the reason")
    func unwritable() throws {
        // A directory that is a regular file, and /proc, which refuses new files even to root.
        let r1 = try render([Paths.orchestra("sine.csd"), "-o", "/etc/hostname/out.wav"])
        #expect(r1.status == 1)
        #expect(r1.stderr.contains("output directory /etc/hostname does not exist"))
        let r2 = try render([Paths.orchestra("sine.csd"), "-o", "/proc/podium-out.wav"])
        #expect(r2.status == 1)
        #expect(r2.stderr.contains("/proc"), "\(r2.stderr)")
    }

    @Test("a score that never ends needs --duration, and says so")
    func unendingScore() throws {
        let out = dir.appendingPathComponent("forever.wav").path
        let r = try render([Paths.fixture("forever.csd"), "-o", out])
        #expect(r.status == 1)
        #expect(r.stderr.contains("the score never ends"))
        #expect(r.stderr.contains("give --duration SECONDS"))
        #expect(!FileManager.default.fileExists(atPath: out), "no partial file is left (the render began while the length was worked out)")
        let ok = try render([Paths.fixture("forever.csd"), "-o", out, "--duration", "1.5"])
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(try SoundFileContents(path: out).frames == 72000)
    }

    @Test("overrides no performance can mean are refused before rendering")
    func badOverrides() throws {
        let out = dir.appendingPathComponent("x.wav").path
        let r1 = try render([Paths.orchestra("sine.csd"), "-o", out, "--sr", "1"])
        #expect(r1.status == 64)
        #expect(r1.stderr.contains("invalid sr 1: out of range"))
        let r2 = try render([Paths.orchestra("sine.csd"), "-o", out, "--sr", "8000", "--ksmps", "9000"])
        #expect(r2.status == 64)
        #expect(r2.stderr.contains("invalid ksmps 9000"))
        // Csound 6.18 takes seeds from 2^31 on as 0: every such seed would play alike.
        let r3 = try render([Paths.orchestra("sine.csd"), "-o", out, "--seed", "3000000000"])
        #expect(r3.status == 64)
        #expect(r3.stderr.contains("--seed: 3000000000 is beyond Csound's largest seed (2147483647)"), "\(r3.stderr)")
        let r4 = try render([Paths.orchestra("sine.csd"), "-o", out, "--seed", "2147483647", "--verbose"])
        #expect(r4.status == 0 && r4.stderr.contains("SECTION 1") && !r4.stderr.contains("Seeding with 0"), "\(r4.stderr.suffix(400))")
    }

    @Test("overrides Csound itself refuses are reported with Csound's words")
    func csoundRefusesOverride() throws {
        let orc = dir.appendingPathComponent("kr.orc").path
        try "sr = 48000\nkr = 1000\nksmps = 64\ninstr 1\nendin\n".write(toFile: orc, atomically: true, encoding: .utf8)
        let sco = dir.appendingPathComponent("kr.sco").path
        try "i1 0 1\n".write(toFile: sco, atomically: true, encoding: .utf8)
        let r = try render([orc, "--score", sco, "-o", dir.appendingPathComponent("x.wav").path])
        #expect(r.status == 1)
        #expect(r.stderr.contains("inconsistent sr, kr, ksmps"))
    }

    @Test("plain progress lines and a summary when not on a terminal")
    func summaryLine() throws {
        let out = dir.appendingPathComponent("s.wav").path
        let r = try render([Paths.orchestra("chords.csd"), "-o", out])
        #expect(r.status == 0)
        #expect(!r.stderr.contains("\r"), "no bar drawing when stderr is a pipe")
        let line = try #require(r.stdout.split(separator: "\n").last.map(String.init))
        #expect(line.hasPrefix("wrote \(out): 9.160 s, 2 ch, 48000 Hz, peak -10.0 dBFS, -10.1 dBFS; wall "))
    }
}
