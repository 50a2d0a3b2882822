import Foundation
import PodiumAudioFile
import PodiumDrivers
import PodiumEngine
import Testing

/// `podium render` against `csound -o OUT -f FILE`: the same samples, bit for bit.
@Suite("Render equivalence with the csound CLI", .serialized)
struct RenderEquivalenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var file: String
        var score: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "sine.csd", file: Paths.orchestra("sine.csd")),
        Case(name: "chords.csd (named instruments, reverb)", file: Paths.orchestra("chords.csd")),
        Case(name: "noise.csd (random opcodes)", file: Paths.fixture("noise.csd")),
        Case(name: "sections.csd (0dbfs 32768, tempo, sections)", file: Paths.fixture("sections.csd")),
        Case(name: "drone.orc + drone.sco", file: Paths.fixture("drone.orc"), score: Paths.fixture("drone.sco")),
    ]

    @Test("identical samples", arguments: cases)
    func identicalSamples(_ c: Case) throws {
        let csound = try #require(which("csound"), "the csound CLI is needed (apt: csound; scripts/setup installs it)")
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reference = dir.appendingPathComponent("csound.wav").path
        let ours = dir.appendingPathComponent("podium.wav").path

        let cli = try run(csound, ["-o", reference, "-f", c.file] + (c.score.map { [$0] } ?? []))
        #expect(cli.status == 0, "csound CLI failed: \(cli.stderr.suffix(500))")

        let source: EngineSource = c.score == nil ? .csd(path: c.file) : .orchestra(path: c.file, score: c.score)
        let summary = try OfflineRenderer(RenderRequest(source: source, output: ours)).run()

        let a = try SoundFileContents(path: reference)
        let b = try SoundFileContents(path: ours)
        #expect(a.sampleRate == b.sampleRate)
        #expect(a.channels == b.channels)
        #expect(a.frames == b.frames)
        #expect(Int64(b.frames) == summary.frames)
        #expect(firstDifference(a.samples, b.samples) == nil)
        #expect(b.peaks.contains { $0 > 0.01 }, "the render is silent")
    }

    @Test("the podium binary renders the same file as the library")
    func binaryMatchesLibrary() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let viaBinary = dir.appendingPathComponent("bin.wav").path
        let viaLibrary = dir.appendingPathComponent("lib.wav").path
        let result = try run(Paths.podium, ["render", Paths.orchestra("sine.csd"), "-o", viaBinary])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("wrote \(viaBinary): 10.000 s, 2 ch, 48000 Hz"))
        #expect(result.stdout.contains("× real time"))
        _ = try OfflineRenderer(RenderRequest(source: .csd(path: Paths.orchestra("sine.csd")), output: viaLibrary)).run()
        #expect(firstDifference(try SoundFileContents(path: viaBinary).samples, try SoundFileContents(path: viaLibrary).samples) == nil)
    }

    @Test("a fixed seed makes random orchestras repeat; another seed changes them")
    func seedIsRepeatable() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let orc = """
        sr = 48000
        ksmps = 32
        nchnls = 1
        0dbfs = 1
        instr 1
          a1 oscili 0.2, 300 + random:i(0, 500)
          out a1
        endin
        """
        func render(_ seed: UInt32, _ name: String) throws -> [Double] {
            let out = dir.appendingPathComponent(name).path
            _ = try OfflineRenderer(RenderRequest(source: .text(orchestra: orc, score: "i1 0 0.5\n", name: "seed"),
                                                  output: out, options: EngineOptions(seed: seed))).run()
            return try SoundFileContents(path: out).samples
        }
        let first = try render(7, "a.wav"), again = try render(7, "b.wav"), other = try render(8, "c.wav")
        #expect(firstDifference(first, again) == nil)
        #expect(firstDifference(first, other) != nil)
    }

    @Test("24-bit output is written and reads back within one 24-bit step")
    func pcm24() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let float = dir.appendingPathComponent("f.wav").path, pcm = dir.appendingPathComponent("p.wav").path
        _ = try OfflineRenderer(RenderRequest(source: .csd(path: Paths.orchestra("sine.csd")), output: float, duration: 0.5)).run()
        _ = try OfflineRenderer(RenderRequest(source: .csd(path: Paths.orchestra("sine.csd")), output: pcm, format: .pcm24, duration: 0.5)).run()
        let a = try SoundFileContents(path: float), b = try SoundFileContents(path: pcm)
        #expect(a.frames == 24000 && b.frames == 24000)
        let worst = zip(a.samples, b.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= 1.0 / 8_388_608.0 + 1e-9)
    }
}
