import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumWeb
import Synchronization
import Testing

/// The stage page's pie, push buttons, output meters and chn_k-placed widgets, in a real headless
/// Chromium against a real JACK server and engine; bad pie and push messages over a real WebSocket.
extension JackSuites {
@Suite("stage page widgets", .serialized)
final class WebWidgetTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// An orchestra (a path without `.csd`) with its map beside it, served on a free port.
    func start(_ base: String) throws -> (JackDriver, WebSurface) {
        let driver = JackDriver(source: .csd(path: base + ".csd"), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let map = try? OSCMap(contentsOf: base + ".oscmap.yaml")
        let web = WebSurface(driver: driver, options: WebOptions(port: 0), orchestra: (base as NSString).lastPathComponent + ".csd", map: map)
        try web.start()
        return (driver, web)
    }

    func browse(_ url: String, _ steps: [String]) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: which("python3") ?? "/usr/bin/python3")
        p.arguments = [Paths.fixture("web_page.py"), url] + steps
        return p
    }

    func page(_ url: String, _ steps: [String]) throws -> String {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("web_page.py"), url] + steps)
        #expect(r.status == 0, "the browser script failed: \(r.stderr.suffix(1500))")
        return r.stdout
    }

    static func levels(_ out: Substring) -> [(port: String, peak: Double)] {
        out.split(separator: "\n").filter { $0.hasPrefix("level ") }.map { line in
            let w = line.split(separator: " ")
            return (String(w[1]), Double(w[2]) ?? -1)
        }
    }

    @Test("synth's pie: dragging a border sets osc_shape, osc_saw and osc_sub together (shares of 1) through the command path; the page shows the split; its output meters move while it plays")
    func pie() throws {
        let (driver, web) = try start(Paths.orchestra("synth"))
        defer { web.stop(); driver.stop() }
        // Only the pie sets channels here: the k-cycles its commands were applied in.
        let applied = Mutex<[Int64]>([])
        driver.onApplied = { r in if r.kind == .command, r.command.kind == .setControl { applied.withLock { $0.append(r.cycle) } } }
        let out = try page(web.url, ["widgets", "pie:osc_shape:1:0.5", "wait:0.5", "state:1:osc_shape", "levels"])
        #expect(out.contains("widget pie osc_shape"), "\(out)")
        func value(_ name: String) -> Double { (try? driver.engine.control(name)) ?? -1 }
        #expect(eventually(2) { abs(value("osc_shape") - 0.5) < 0.05 }, "osc_shape \(value("osc_shape"))")
        #expect(abs(value("osc_saw") - 0.5) < 0.05 && value("osc_sub") == 0, "saw \(value("osc_saw")), sub \(value("osc_sub"))")
        #expect(abs(value("osc_shape") + value("osc_saw") + value("osc_sub") - 1) < 1e-9, "the shares add up to the pie's total")
        #expect(out.contains("osc_shape 5") && out.contains("osc_sub 0%"), "the legend shows the split: \(out)")
        // Every drag step's three values were applied in one k-cycle.
        let cycles = applied.withLock { Dictionary(grouping: $0, by: { $0 }) }
        #expect(!cycles.isEmpty && cycles.values.allSatisfy { $0.count % 3 == 0 }, "\(cycles.mapValues(\.count))")
        let levels = WebWidgetTests.levels(Substring(out))
        #expect(levels.map(\.port) == ["out_1", "out_2"] && levels.allSatisfy { $0.peak > 0.01 }, "synth's drums move both meters: \(levels)")
        #expect(web.stats.refused == 0, "\(web.stats)")
    }

    @Test("a push button holds a note from press to release (the map's held note, as OSC's push); a push with a channel is 1 while held; the meters are still at silence and move while a key sounds")
    func push() throws {
        let (driver, web) = try start(Paths.fixture("keys"))
        defer { web.stop(); driver.stop() }
        func value(_ name: String) -> Double { (try? driver.engine.control(name)) ?? -1 }
        let browser = try browse(web.url, ["widgets", "wait:0.3", "levels", "hold:/2/push1:1.5", "wait:0.5", "hold:/2/push3:1.2"])
        let pipe = Pipe()
        browser.standardOutput = pipe
        let reader = PipeReader(pipe.fileHandleForReading)
        try browser.run()
        defer { if browser.isRunning { browser.terminate() } }
        #expect(eventually(20) { value("held") == 1 }, "the key sounds while held")
        #expect(eventually(2.5) { value("held") == 0 }, "and stops when let go")
        #expect(eventually(8) { value("gate") == 1 }, "the gate is 1 while held")
        #expect(eventually(3) { value("gate") == 0 }, "and 0 after")
        waitForExit(browser, timeout: 20)
        reader.done.wait()
        let out = String(decoding: reader.snapshot, as: UTF8.self)
        #expect(browser.terminationStatus == 0)
        #expect(out.contains("widget push /2/push1") && out.contains("widget push /2/push3"), "\(out)")
        let parts = out.components(separatedBy: "held /2/push1")
        let idle = WebWidgetTests.levels(Substring(parts[0])), sounding = WebWidgetTests.levels(Substring(parts.count > 1 ? parts[1] : ""))
        #expect(idle.count == 2 && idle.allSatisfy { $0.peak == 0 }, "silence: \(idle)")
        #expect(sounding.count >= 2 && sounding.prefix(2).allSatisfy { $0.peak > 0.2 && $0.peak <= 0.41 }, "a held key at 0.4: \(sounding)")
        #expect(web.stats.refused == 0 && web.stats.applied >= 4, "\(web.stats)")
    }

    @Test("chn_k's x, y, width, height place sine's controls on one canvas, in proportion at a laptop's and a phone's width; its attributes name the widget and label")
    func placed() throws {
        let (driver, web) = try start(Paths.orchestra("sine"))
        defer { web.stop(); driver.stop() }
        let out = try page(web.url, ["widgets", "rect:amp", "rect:freq", "size:390:844", "rect:amp", "rect:freq"])
        #expect(out.contains("widget fader amp") && out.contains("widget knob freq"), "widget=knob: \(out)")
        let rects = out.split(separator: "\n").filter { $0.hasPrefix("rect ") }.map { $0.split(separator: " ").dropFirst(2).compactMap { Double($0) } }
        #expect(rects.count == 4)
        // The canvas is 310 × 280 (the widest and lowest control): amp at 0, 0, 90 × 280; freq at 110, 60, 200 × 220.
        let amp = [0, 0, 90.0 / 310, 1], freq = [110.0 / 310, 60.0 / 280, 200.0 / 310, 220.0 / 280]
        for (i, r) in rects.enumerated() {
            let want = i % 2 == 0 ? amp : freq
            #expect(r.count == 4 && zip(r, want).allSatisfy { abs($0 - $1) < 0.02 }, "rect \(i): \(r) vs \(want)")
        }
        let labels = try page(web.url, ["title"])
        #expect(labels.contains("level") && labels.contains("pitch"), "labels from the attributes: \(labels)")
    }

    @Test("bad pie and push messages over the WebSocket: each gets its own error, counted; nothing is posted")
    func badInput() throws {
        let (driver, web) = try start(Paths.orchestra("synth"))
        defer { web.stop(); driver.stop() }
        let messages = [
            #"{"type":"pie","id":"/synth/pie","values":[1,2]}"#, #"{"type":"pie","id":"/synth/pie","values":[1,"x",1]}"#,
            #"{"type":"pie","id":"/synth/pie","values":[0,0,0]}"#, #"{"type":"pie","id":"/synth/pie","values":[-1,1,1]}"#,
            #"{"type":"pie","id":"/synth/pie","values":[1e308,1e308,1]}"#, #"{"type":"pie","id":"/nope","values":[1,1,1]}"#,
            #"{"type":"pie","id":"/synth/pie"}"#, #"{"type":"push","id":"/2/push1"}"#, #"{"type":"push","id":"/nope","down":true}"#,
        ]
        let script = """
        import json, sys, websocket
        ws = websocket.create_connection(sys.argv[1]); ws.recv()
        for m in sys.argv[2:]:
            ws.send(m)
            while True:
                r = json.loads(ws.recv())
                if r["type"] == "error": print(r["message"]); break
        """
        let before = driver.stats.commands
        let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", script, web.socketURL] + messages)
        #expect(r.status == 0, "\(r.stderr)")
        let replies = r.stdout.split(separator: "\n").map(String.init)
        let expected = ["needs 3 values, not 2", "a pie's values are numbers", "cannot all be 0", "finite numbers, at least 0",
                        "too large: their sum is not finite", "unknown pie /nope", "pie needs \"id\"", "push needs \"id\"", "unknown push button /nope"]
        #expect(replies.count == expected.count, "\(replies)")
        for (reply, want) in zip(replies, expected) { #expect(reply.contains(want), "\(reply) should say \(want)") }
        #expect(web.stats.refused == messages.count, "\(web.stats)")
        Thread.sleep(forTimeInterval: 0.1)
        #expect(driver.stats.commands == before, "nothing reached the audio thread")
        #expect((try? driver.engine.control("osc_shape")) == 1)
    }

    @Test("every example orchestra's page at a phone's and a laptop's size: widgets, and a meter per output (screenshots in the temporary directory)")
    func screenshots() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-pages").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for name in ["sine", "synth", "organ", "tonematrix", "looper", "motion", "chords"] {
            let (driver, web) = try start(Paths.orchestra(name))
            defer { web.stop(); driver.stop() }
            let out = try page(web.url, ["wait:0.6", "widgets", "levels", "page:\(dir)/\(name)-laptop.png", "size:390:844", "page:\(dir)/\(name)-phone.png"])
            #expect(WebWidgetTests.levels(Substring(out)).count == 2, "\(name): a meter per output port: \(out)")
            #expect(name == "chords" || out.split(separator: "\n").contains { $0.hasPrefix("widget ") && !$0.hasPrefix("widget level") }, "\(name): \(out)")
        }
    }
}
}
