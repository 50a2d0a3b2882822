import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumPerformance
import PodiumProbe
import Synchronization
import Testing

/// An orchestra that `#include`s a library of instruments — the usual way Csound live-coding
/// libraries are shared — driven over the csound port its `<CsOptions>` ask for, as editor
/// plugins drive it: what the engine knows of its instruments comes from what Csound compiled.
extension JackSuites {
@Suite("Included libraries", .serialized)
final class IncludedLibraryTests {
    let server: TestJackServer

    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// The library: a vco2 voice, and a clock that plays a blip every 0.1 s forever.
    static let library = """
    ; a small library of instruments, included by the performance's orchestra
    instr Sub1
      aenv linseg 0, 0.005, 1, p3 - 0.01, 1, 0.005, 0
      a1 vco2 p5, p4
      out a1 * aenv
    endin

    instr Pulse
      ktrig metro 10
      schedkwhen ktrig, 0, 0, "Blip", 0, 0.05
    endin

    instr Blip
      out oscili(0.2, 880)
    endin

    instr 12
      out oscili(0.2, 660)
    endin
    """

    static func csd(port: Int) -> String {
        """
        <CsoundSynthesizer>
        <CsOptions>
        --port=\(port)
        </CsOptions>
        <CsInstruments>
        nchnls = 1
        0dbfs = 1
        #include "library.orc"
        instr Own
          out oscili(0.2, 330)
        endin
        </CsInstruments>
        <CsScore>
        </CsScore>
        </CsoundSynthesizer>
        """
    }

    func send(_ text: String, port: Int) throws {
        let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", "import socket, sys; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(sys.argv[2].encode(), ('127.0.0.1', int(sys.argv[1])))", "\(port)", text])
        #expect(r.status == 0, "\(r.stderr)")
    }

    @Test("an included library's instruments play by name over the csound port, the first vco2 note costs the callback little (its tables built before), and a hush stops the library's notes and its clock")
    func includedInstruments() throws {
        let port = Int(try freeUDPPort())
        var (options, dir) = try PerformanceTests.options(server: server.name, csd: IncludedLibraryTests.csd(port: port))
        try (IncludedLibraryTests.library + "\n").write(to: dir.appendingPathComponent("library.orc"), atomically: true, encoding: .utf8)
        options.osc = OSCOptions(port: 0)
        let said = Mutex<[String]>([])
        let performance = Performance(options: options, say: { line in said.withLock { $0.append(line) } }, output: { _ in })
        try performance.start()
        defer { performance.stop() }
        let driver = try #require(performance.driver)
        let oscPort = try #require(performance.osc?.port)

        // What Csound compiled: the included instruments, named and numbered, and the CSD's own.
        let table = driver.engine.instruments
        #expect(Set(table.names).isSuperset(of: Set<String>(["Sub1", "Pulse", "Blip", "Own"])), "\(table.names)")
        #expect(table.numbers.contains(12), "\(table.numbers)")
        #expect(driver.engine.uses("vco2"), "the library uses vco2")

        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3, name: "libprobe")
        defer { capture.close() }
        try capture.connect(from: "perf:out_1", channel: 0)

        // The first vco2 note: its band-limited tables were built before the first callback.
        Thread.sleep(forTimeInterval: 0.2)
        driver.resetLongestCallback()
        // Recorded from before the note is sent, long enough for python's start-up on a loaded
        // machine; the pitch is read from 0.1 to 0.35 s into the note.
        capture.start()
        try send("$i \"Sub1\" 0 0.6 220 0.3", port: port)
        Thread.sleep(forTimeInterval: 1.5)
        capture.stopRecording()
        let note = capture.samples(0)
        #expect((note.map(abs).max() ?? 0) > 0.2, "the included instrument is heard")
        let onset = note.firstIndex { abs($0) > 0.05 } ?? 0
        let rate = Int(capture.sampleRate)
        let window = Array(note.dropFirst(onset + rate / 10).prefix(rate / 4))
        #expect(abs(estimatedFrequency(window, sampleRate: capture.sampleRate) - 220) < 8, "from sample \(onset) of \(note.count)")
        let stats = driver.stats
        #expect(stats.maxCallbackCPUMicroseconds < 0.5 * stats.periodMicroseconds,
                "the first vco2 note's callback used \(stats.maxCallbackCPUMicroseconds) µs of CPU in a \(stats.periodMicroseconds) µs period: \(stats)")
        #expect(!said.withLock { $0 }.contains { $0.contains("unknown instrument") }, "\(said.withLock { $0 })")

        // Held notes of the library and its clock, then a hush over OSC.
        Thread.sleep(forTimeInterval: 0.3)
        try send("$i \"Sub1\" 0 -1 110 0.3", port: port)
        try send("$i \"Pulse\" 0 -1", port: port)
        try send("$i 12 0 -1", port: port)
        capture.record(seconds: 0.4)
        #expect((capture.samples(0).map(abs).max() ?? 0) > 0.2, "the held notes play")
        let r = try run(try #require(which("oscsend"), "oscsend (apt: liblo-tools)"), ["127.0.0.1", "\(oscPort)", "/podium/hush"])
        #expect(r.status == 0, "\(r.stderr)")
        Thread.sleep(forTimeInterval: 0.3)
        capture.record(seconds: 0.6)
        let after = capture.samples(0).map(abs).max() ?? 1
        #expect(after < 1e-4, "after the hush: silence (the library's held note and its clock's blips stopped), peak \(after)")
    }

    @Test("Csound's parse tree is read: an orchestra's instruments, included ones and instr lists, as the engine compiled them (not its instr lines)")
    func instrumentsFromTheParser() throws {
        let dir = Paths.temporaryDirectory(#function)
        try "instr 7, Lead, +Late\n out oscili(0.1, 440)\nendin\n#define SUB #instr Macro\n out vco2(0.1, 110)\nendin#\n".write(
            to: dir.appendingPathComponent("more.orc"), atomically: true, encoding: .utf8)
        let orc = dir.appendingPathComponent("main.orc").path
        try "sr = 48000\nksmps = 64\nnchnls = 1\n0dbfs = 1\n#include \"more.orc\"\n$SUB\n; instr 99 in a comment\ninstr 1\n out oscili(0.1, 220)\nendin\n".write(
            toFile: orc, atomically: true, encoding: .utf8)
        let engine = try Engine(options: EngineOptions())
        try engine.compile(.orchestra(path: orc, score: nil))
        let t = engine.instruments
        #expect(t.numbers == [1, 7], "\(t.numbers)")
        #expect(Set(t.names) == Set<String>(["Lead", "Late", "Macro"]), "\(t.names)")
        #expect(engine.uses("vco2") && engine.uses("oscili"))
        #expect(!engine.uses("instr99") && !t.numbers.contains(99))
    }
}
}
