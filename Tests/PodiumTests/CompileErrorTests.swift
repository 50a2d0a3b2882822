import Foundation
import PodiumEngine
import PodiumProbe
import PodiumSurfaces
import Testing

/// Every failed compile or save says what and where, like a compiler.
@Suite("Compile errors: what and where", .serialized)
struct CompileErrorTests {
    static let csd = """
    <CsoundSynthesizer>
    <CsOptions>
    </CsOptions>
    <CsInstruments>
    sr = 48000
    ksmps = 64
    nchnls = 2
    0dbfs = 1

    instr 1
      a1 oscili 0.1, 440
      outs a1, a1
    endin
    </CsInstruments>
    <CsScore>
    i1 0 1
    </CsScore>
    </CsoundSynthesizer>

    """

    func file(_ name: String, _ contents: String) throws -> (URL, String) {
        let dir = Paths.temporaryDirectory()
        let path = dir.appendingPathComponent(name).path
        try contents.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    func failure(_ body: () throws -> Void) -> CompileFailure? {
        do { try body() } catch let EngineError.compile(f) { return f } catch { Issue.record("not a compile error: \(error)") }
        return nil
    }

    @Test("code compiled into a CSD's engine later (REPL, OSC, hot reload) has its own line numbers, not shifted by <CsInstruments>'s line")
    func linesAfterACSD() throws {
        let (dir, path) = try file("a.csd", CompileErrorTests.csd)
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try Engine(options: EngineOptions(extra: ["-n"]))
        try engine.compile(.csd(path: path))
        try engine.start()
        let f = failure { try engine.compileOrchestra("instr 5\n a1 nosuch 1\nendin\n", source: "<repl>") }
        #expect(f?.lines.first == 2, "\(f?.description ?? "")")
        #expect(f?.description.hasPrefix("<repl>:2: ") == true)
        #expect(f?.description.contains("line 2") == true, "Csound's own line in the message moved too: \(f?.description ?? "")")
        // A save, :load or /podium/reload of the file: the file's own line.
        let broken = CompileErrorTests.csd.replacingOccurrences(of: "  outs a1, a1", with: "  outs a1, nosuch")
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        let lines = broken.split(separator: "\n", omittingEmptySubsequences: false)
        let line = try #require(lines.firstIndex { $0.contains("nosuch") }) + 1
        let text = try CSDSections.orchestra(ofFile: path)  // as hot reload, :load and /podium/reload read it
        let g = failure { try engine.compileOrchestra(text, source: path) }
        #expect(g?.lines.first == line, "\(g?.description ?? "")")
    }

    @Test("an empty CSD, no <CsInstruments>, a missing </CsInstruments>, not a CSD: each in words with its line")
    func structure() throws {
        let cases: [(String, String)] = [
            ("", "the file is empty"),
            ("<CsoundSynthesizer>\n<CsScore>\ni1 0 1\n</CsScore>\n</CsoundSynthesizer>\n", ":1: error: no <CsInstruments> section"),
            ("<CsoundSynthesizer>\n<CsInstruments>\ninstr 1\nendin\n", ":2: error: <CsInstruments> is never closed"),
            ("garbage <<< not a csd", "not a CSD file: no <CsoundSynthesizer> tag"),
        ]
        for (text, expected) in cases {
            let (dir, path) = try file("s.csd", text)
            defer { try? FileManager.default.removeItem(at: dir) }
            let engine = try Engine(options: EngineOptions(extra: ["-n"]))
            let f = failure { try engine.compile(.csd(path: path)) }
            #expect(f?.description.contains(expected) == true, "\(f?.description ?? "no error")")
            let r = try run(Paths.podium, ["render", path, "-o", dir.appendingPathComponent("o.wav").path])
            #expect(r.status != 0 && r.stderr.contains(expected) && !r.stderr.contains("(null)"), "\(r.stderr)")
        }
    }

    @Test("one Latin-1 byte in a comment does not reject the file; a binary file is named as one")
    func encodings() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("l.csd").path
        var bytes = Array(CompileErrorTests.csd.utf8)
        let at = CompileErrorTests.csd.utf8.distance(from: CompileErrorTests.csd.startIndex, to: try #require(CompileErrorTests.csd.range(of: "instr 1")).lowerBound)
        bytes.insert(contentsOf: Array("; caf".utf8) + [0xE9] + [10], at: at)
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        let engine = try Engine(options: EngineOptions(extra: ["-n"]))
        try engine.compile(.csd(path: path))
        #expect(engine.instruments.defines(number: 1))
        let binary = dir.appendingPathComponent("b.orc").path
        FileManager.default.createFile(atPath: binary, contents: Data([0x52, 0x49, 0x46, 0x46, 10, 0, 1, 2]))
        #expect(throws: EngineError.unreadable(path: binary, reason: "it is not text (a NUL byte on line 2: a binary file?)")) { _ = try Engine.read(binary) }
    }

    @Test("a failing ftgen at start names the file and line, with Csound's reason")
    func failingFtgen() throws {
        let text = CompileErrorTests.csd.replacingOccurrences(of: "0dbfs = 1\n", with: "0dbfs = 1\ngiX ftgen 0, 0, 0, 1, \"nosuch.wav\", 0, 0, 0\n")
        let (dir, path) = try file("f.csd", text)
        defer { try? FileManager.default.removeItem(at: dir) }
        let engine = try Engine(options: EngineOptions(extra: ["-n"]))
        try engine.compile(.csd(path: path))
        let f = failure { try engine.start() }
        #expect(f?.description.hasPrefix("\(path):9: INIT ERROR") == true, "\(f?.description ?? "")")
        #expect(f?.description.contains("nosuch.wav") == true)
    }

    @Test("a save whose global code fails at init (ftgen of a missing file) is refused with its line, before the performing engine runs it")
    func failingFtgenLive() throws {
        let f = failure { try OrchestraCheck.inChild("\n\ngiX ftgen 0, 0, 0, 1, \"nosuch.wav\", 0, 0, 0\n", source: "live.csd") }
        #expect(f?.description.hasPrefix("live.csd:3: INIT ERROR") == true, "\(f?.description ?? "")")
        #expect(f?.description.contains("nosuch.wav") == true)
        try OrchestraCheck.inChild("giY ftgen 0, 0, 1024, 10, 1\n", source: "live.csd")
    }

    @Test("CLI: a directory or an unreadable file where a file is expected is said in words")
    func cliFiles() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try run(Paths.podium, ["render", dir.path, "-o", dir.appendingPathComponent("o.wav").path])
        #expect(r.stderr.contains("it is a directory") && !r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
        do { _ = try Script(contentsOf: dir.path); Issue.record("a directory read as a script") } catch {
            #expect("\(error)" == "\(dir.path): cannot read: it is a directory")
        }
    }
}
