import Foundation
import PodiumHost
import PodiumPerformance
import PodiumProbe
import PodiumWeb
import Synchronization
import Testing

/// The editor page (/editor) in real headless Chromium against a whole performance: a pattern
/// typed and evaluated with Ctrl-Enter is heard, its steps light up on the frames the audio
/// thread started them on; a broken instrument shows its error on its line while the old one
/// plays on; two pages typing at once end with the same text; the audience's page cannot act;
/// the phone layout. Screenshots are kept in the test's directory (`EDITOR_SHOTS` to keep them).
extension JackSuites {
@Suite("The editor page", .serialized)
final class EditorTests {
    let server: TestJackServer

    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 1
    0dbfs = 1
    instr bd ; podium: amp
      aLevel linseg 0.5, p3, 0.5
      out aLevel
    endin
    """

    func perform(_ body: (Performance, WebSurface, CaptureClient, URL, () -> [String]) throws -> Void) throws {
        try EditorTests.perform(on: server, body)
    }

    /// A whole performance on `server` with the web surface, its output captured, what it said kept.
    static func perform(on server: TestJackServer, samples: Bool = false, patterns: String? = nil,
                        _ body: (Performance, WebSurface, CaptureClient, URL, () -> [String]) throws -> Void) throws {
        let dir = Paths.temporaryDirectory()
        let file = dir.appendingPathComponent("set.orc").path
        try EditorTests.orchestra.write(toFile: file, atomically: true, encoding: .utf8)
        if let patterns { try patterns.write(toFile: dir.appendingPathComponent("set.tidal").path, atomically: true, encoding: .utf8) }
        var options = PerformanceOptions(orchestra: file, source: .text(orchestra: EditorTests.orchestra, score: nil, name: "set.orc"), seed: 3,
                                         jack: JackOptions(clientName: "podium", serverName: server.name, connect: false, ksmps: 64),
                                         sessions: dir.appendingPathComponent("Sessions").path)
        options.startServer = false
        options.osc = nil
        options.web = WebOptions(port: 0)
        options.defaultSamples = samples
        let said = Mutex<[String]>([])
        let performance = Performance(options: options, say: { line in said.withLock { $0.append(line) } }, output: { _ in })
        try performance.start()
        defer { performance.stop() }
        let web = try #require(performance.web)
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 30, name: "editorprobe")
        defer { capture.close() }
        try capture.connect(from: "podium:out_1", channel: 0)
        capture.start()
        try body(performance, web, capture, dir) { said.withLock { $0 } }
    }

    func page(_ url: String, _ args: [String], timeout: TimeInterval = 120) throws -> String {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("editor_page.py"), url] + args, timeout: timeout)
        #expect(r.status == 0, "editor_page.py \(args.first ?? ""): \(r.stderr.suffix(2000))")
        return r.stdout
    }

    static func line(_ out: String, _ prefix: String) -> String? {
        out.split(separator: "\n").first { $0.hasPrefix(prefix + " ") }.map { String($0.dropFirst(prefix.count + 1)) }
    }

    @Test("a pattern of sounds nothing has answers silent on the page, not playing; a control no instrument takes is named there")
    func silentSaid() throws {
        try perform { performance, web, capture, dir, said in
            let out = try page(web.editorURL, ["play", "d6 $ s \"superpianox*2\" # n \"0 7\"", "0.5"])
            #expect(out.contains("evaluated ok d6: silent — no instrument \"superpianox\" in the orchestra"), "\(out)")
            #expect(out.contains("note d6: silent — no instrument \"superpianox\""), "the page shows it: \(out)")
            let part = try page(web.editorURL, ["play", "d1 $ s \"bd*2\" # vowel \"a\"", "0.5"])
            #expect(part.contains("evaluated ok d1: playing — instrument bd has no parameter `vowel`"), "\(part)")
            // The terminal hears what the page played, and who played it.
            #expect(eventually(3) { said().joined(separator: "\n").contains("podium: web: page ana: d6: silent — no instrument \"superpianox\"") },
                    "\(said().suffix(6))")
            #expect(said().joined(separator: "\n").contains("podium: web: page ana: d1: playing — "), "\(said().suffix(6))")
        }
    }

    @Test("the page tells what sounds: a stack's layers in lanes of their own, a silent slot's warning on its line and its lane greyed, the clip light after a loud note, meters, the sounds panel (the kit's samples, the orchestra's instruments; a click inserts), help for jux where the cursor rests; at 390×844 every lane at least 12 px and the header one row")
    func truth() throws {
        try EditorTests.perform(on: server, samples: true) { _, web, _, dir, _ in
            let shot = dir.appendingPathComponent("editor-truth.png").path, phone = dir.appendingPathComponent("editor-truth-phone.png").path
            // Two browsers one after the other, many steps: under a full run's load (the pages
            // process runs at nice 5) it took over 120 s.
            let out = try page(web.editorURL, ["truth", shot, phone], timeout: 300)
            let lines = out.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("lanes d3 ") && $0.contains("cp") && $0.contains("hh") }, "two lanes for [[~ cp]*2, hh*8]: \(out)")
            #expect(lines.contains("silent d6 yes"), "\(out)")
            #expect(lines.contains { $0.hasPrefix("warning d6: silent — no instrument \"superpianox\"") }, "a warning under d6's line: \(out)")
            // The scope: the page's own measure of the samples the audio thread wrote (440 Hz sine).
            let scope = (EditorTests.line(out, "scope") ?? "").split(separator: " ").map(String.init)
            let crossing = scope.count > 1 ? Double(scope[1]) ?? 0 : 0, spectrum = scope.count > 3 ? Double(scope[3]) ?? 0 : 0
            #expect(abs(crossing - 440) < 4.4 && abs(spectrum - 440) < 13, "the scope's 440 Hz: \(scope)")
            #expect(lines.contains("scope drawn yes"), "\(out)")
            // A problem met while playing: marked on d7's line (7), listed, and a click goes there.
            #expect(lines.contains { $0.hasPrefix("warning d7: more than 128 events in 20 ms") }, "\(out)")
            #expect(lines.contains { $0.hasPrefix("message warning patterns:7 warning | d7: more than 128 events") }, "\(out)")
            #expect(lines.contains { $0.hasPrefix("message warning patterns:3 warning | d6: silent") }, "\(out)")
            #expect(lines.contains("revealed patterns 7"), "\(out)")
            #expect(lines.contains("phone mark d6 line 3") && lines.contains("phone mark d7 line 7"), "a page that evaluated nothing marks the slots' lines: \(out)")
            #expect(lines.contains("clip on"), "\(out)")
            #expect(lines.contains { $0.hasPrefix("meters ") && $0 != "meters 0" }, "\(out)")
            #expect(lines.contains("has bd") && lines.contains("has superpiano") && lines.contains("has kick"), "the orchestra's bd, a SuperDirt synth, a kit's sample: \(out.prefix(3000))")
            #expect(lines.contains("inserted yes"), "\(out)")
            #expect(lines.contains { $0.hasPrefix("help jux :: ") }, "\(out)")
            let phoneLanes = lines.first { $0.hasPrefix("phone lanes ") }?.split(separator: " ") ?? []
            #expect(phoneLanes.count == 5 && (Double(phoneLanes[4]) ?? 0) >= 12, "\(out)")
            let header = Int(lines.first { $0.hasPrefix("header height ") }?.split(separator: " ").last ?? "") ?? 999
            #expect(header < 56, "one row: \(header) px")
            #expect(lines.contains("overflow no"), "\(out)")
            #expect(lines.contains("phone silent d6 yes"), "the server says which slots are silent: \(out)")
            #expect(lines.contains("phone tabs visible 3"), "the three buffers' tabs fit the phone's header: \(out)")
            if let keep = ProcessInfo.processInfo.environment["EDITOR_SHOTS"] {
                for f in ["editor-truth.png", "editor-truth-phone.png"] { try? FileManager.default.copyItem(atPath: dir.appendingPathComponent(f).path, toPath: keep + "/" + f) }
            }
        }
    }

    @Test("a 500 KB patterns file loads in the page, takes edits at its end and middle, saves whole, and a page that joins later gets the same text (frames up to 4 MiB: a browser sends each message as one)")
    func bigBuffer() throws {
        // 500 KB of a set's notes (comments: the file is read at the start), and one statement.
        var text = "d1 $ s \"bd*2\"\n"
        var i = 0
        while text.utf8.count < 500_000 { text += "-- \(i): a long set's notes, kept beside its patterns (bd sn hh cp arpy)\n"; i += 1 }
        try EditorTests.perform(on: server, patterns: text) { performance, web, _, dir, _ in
            let out = try page(web.editorURL, ["big", "\(text.count)"])
            let loaded = Int((EditorTests.line(out, "loaded") ?? "").split(separator: " ").first ?? "") ?? 0
            #expect(loaded == text.count, "\(out)")
            #expect(out.contains("saved yes"), "\(out)")
            #expect(out.contains("second same"), "\(out)")
            #expect(EditorTests.line(out, "status") == "live live", "\(out)")
            let saved = (try? String(contentsOfFile: dir.appendingPathComponent("set.tidal").path, encoding: .utf8)) ?? ""
            #expect(saved.utf8.count > 500_000 && saved.hasSuffix("\n-- edited at the end") && saved.contains("-- edited in the middle\n"), "\(saved.utf8.count) bytes saved")
        }
    }

    @Test("a pattern typed in the editor and run with Ctrl-Enter is heard; each step lights up on the frame the audio thread started its note on")
    func typeAndHear() throws {
        try perform { performance, web, capture, dir, said in
            let shot = dir.appendingPathComponent("editor-playing.png").path
            let out = try page(web.editorURL, ["play", "d1 $ s \"bd*4 [~ bd] bd*2\" # legato 0.25", "4", shot])
            #expect(out.contains("evaluated ok d1: playing"), "\(out)")
            capture.stopRecording()
            let onsets = capture.onsets(0, threshold: 0.1)
            #expect(onsets.count >= 6, "\(onsets.count) onsets heard")
            let lit = (EditorTests.line(out, "lit") ?? "").split(separator: " ").dropFirst().compactMap { Int64($0) }
            #expect(lit.count >= 6, "\(out)")
            // Every lit step's frame is a heard onset's (the note the audio thread started), within a period.
            let period = Int64(capture.period)
            let unheard = lit.filter { f in f < capture.frame(ofSample: capture.samples(0).count - 1) && !onsets.contains { abs($0 - f) <= period } }
            #expect(unheard.isEmpty, "lit frames without a sound: \(unheard), onsets \(onsets)")
            // The step lit is `bd` in the buffer (its span, mapped to the buffer's lines and columns).
            #expect(EditorTests.line(out, "spantext")?.hasPrefix("bd") == true, "\(out)")
            #expect((Int(EditorTests.line(out, "marks") ?? "") ?? 0) > 0, "the page drew the lit marks: \(out)")
            #expect(said().contains { $0.contains("the editor") }, "\(said())")
            // A loop evaluated from the loops buffer: the roll shows it beside the pattern.
            let loop = try page(web.editorURL, ["loop", "loop beat 2\n  i \"bd\" 0 0.1 0.3\n  i \"bd\" 1 0.1 0.3\nend"])
            #expect(loop.contains("evaluated ok"), "\(loop)")
            let rows = (EditorTests.line(loop, "roll") ?? "").split(separator: " ").map(String.init)
            #expect(rows.contains { $0.hasPrefix("d1:") && !$0.hasSuffix(":0") } && rows.contains { $0.hasPrefix("loop_beat:") && !$0.hasSuffix(":0") }, "\(loop)")
            if let keep = ProcessInfo.processInfo.environment["EDITOR_SHOTS"] { try? FileManager.default.copyItem(atPath: shot, toPath: keep + "/editor-playing.png") }
        }
    }

    @Test("a broken instrument evaluated from the editor shows its error on its line and column; the old one plays on")
    func brokenInstrument() throws {
        try perform { performance, web, capture, dir, said in
            _ = try page(web.editorURL, ["play", "d1 $ s \"bd*2\" # legato 0.25", "0.5"])
            // The orchestra buffer holds the file's 6 lines; a blank line, then the broken instr from line 8.
            let shot = dir.appendingPathComponent("editor-error.png").path
            let out = try page(web.editorURL, ["orchestra", "instr bd ; podium: amp\n  aLevel linsegg 0.5, p3, 0.5\n  out aLevel\nendin", "9", shot])
            #expect(out.contains("evaluated fail"), "\(out)")
            let widget = EditorTests.line(out, "widget") ?? ""
            #expect(widget.hasPrefix("9:"), "the error is on line 9 (linsegg): \(out)")
            #expect(widget.contains("linsegg"), "\(out)")
            // The old bd plays on after the refusal.
            let heardBefore = capture.onsets(0, threshold: 0.1).count
            Thread.sleep(forTimeInterval: 1.2)
            #expect(capture.onsets(0, threshold: 0.1).count > heardBefore, "bd plays on")
            if let keep = ProcessInfo.processInfo.environment["EDITOR_SHOTS"] { try? FileManager.default.copyItem(atPath: shot, toPath: keep + "/editor-error.png") }
        }
    }

    @Test("two pages typing into one buffer at the same time end with the same text holding both, and a third that joins shows it; the audience's page cannot type or evaluate; the phone layout shows the editor and the hush")
    func together() throws {
        try perform { performance, web, capture, dir, said in
            let shot = dir.appendingPathComponent("editor-together.png").path
            let out = try page(web.editorURL, ["together", shot])
            #expect(out.contains("same yes"), "\(out)")
            #expect(out.contains("holds yes"), "\(out)")
            #expect(EditorTests.line(out, "peers") == "2", "both pages in the peer list: \(out)")
            #expect(out.contains("third yes"), "a third page that joins later shows the same text: \(out)")

            let ro = try page(web.editorURL, ["readonly", web.audienceURL])
            #expect(ro.contains("typed no"), "\(ro)")
            #expect(ro.contains("owner changed no"), "\(ro)")
            #expect(ro.contains("read-only"), "the server refuses the audience's eval: \(ro)")

            let phone = dir.appendingPathComponent("editor-phone.png").path
            let p = try page(web.editorURL, ["phone", phone])
            #expect(p.contains("hush visible yes") && p.contains("overflow no"), "\(p)")
            let size = (EditorTests.line(p, "editor") ?? "").split(separator: " ").compactMap { Int($0) }
            #expect(size.count == 2 && size[0] >= 350 && size[1] >= 400, "the editor fills the phone: \(p)")

            let saved = try page(web.editorURL, ["save", "d1 $ s \"bd\"\n"])
            #expect(saved.contains("saved yes"), "\(saved)")
            let file = (performance.options.orchestra as NSString).deletingPathExtension + ".tidal"
            #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "d1 $ s \"bd\"\n")
            if let keep = ProcessInfo.processInfo.environment["EDITOR_SHOTS"] {
                for f in ["editor-together.png", "editor-phone.png"] { try? FileManager.default.copyItem(atPath: dir.appendingPathComponent(f).path, toPath: keep + "/" + f) }
            }
        }
    }
}
}
