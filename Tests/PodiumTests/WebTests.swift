import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumWeb
import Testing

/// The stage page in a real headless Chromium (Debian's, driven by Selenium) and a real
/// WebSocket client, against a real JACK server and engine.
extension JackSuites {
@Suite("stage page", .serialized)
final class WebTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    func start(_ orchestra: String, token: String? = nil) throws -> (JackDriver, WebSurface) {
        let driver = JackDriver(source: .csd(path: Paths.orchestra(orchestra + ".csd")), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let map = try? OSCMap(contentsOf: Paths.orchestra(orchestra + ".oscmap.yaml"))
        let web = WebSurface(driver: driver, options: WebOptions(port: 0, token: token), orchestra: orchestra + ".csd", map: map)
        try web.start()
        return (driver, web)
    }

    func page(_ url: String, _ steps: [String], pages: Int = 1) throws -> String {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("web_page.py"), url] + (pages > 1 ? ["--pages", "\(pages)"] : []) + steps)
        #expect(r.status == 0, "the browser script failed: \(r.stderr.suffix(1500))")
        return r.stdout
    }

    @Test("synth's page: its widgets from the orchestra and its map; a fader, a step, the XY pad and the score box change the engine; an OSC value shows on two pages; a page's change reaches the other")
    func synthPage() throws {
        let (driver, web) = try start("synth")
        defer { web.stop(); driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("kick_5", 1)   // as OSC or the REPL would: the page must show it
        #expect(eventually(2) { (try? driver.engine.control("kick_5")) == 1 })
        let out = try page(web.url, ["widgets", "state:1:kick_5", "state:2:kick_5", "fader:volume:0.25", "click:kick_3", "xy:timbre:0.25:0.75",
                                     "click:drums", "wait:0.4", "state:2:kick_3", "state:2:drums", "score:i1 0 0.5 a4", "score:i 77 0 1",
                                     "wait:0.3", "errors", "shot:\(FileManager.default.temporaryDirectory.path)/podium-synth-page.png"], pages: 2)
        let widgets = out.split(separator: "\n").filter { $0.hasPrefix("widget ") }
        for expected in ["widget fader volume", "widget fader timbre", "widget xy timbre", "widget toggle drums", "widget grid kick_1", "widget grid hat_16"] {
            #expect(widgets.contains { $0.hasPrefix(expected) }, "\(expected) in \(widgets.count) widgets")
        }
        #expect(out.contains("state 1 kick_5 on") && out.contains("state 2 kick_5 on"), "a value set elsewhere shows on every page: \(out)")
        #expect(out.contains("state 2 kick_3 on") && out.contains("state 2 drums off"), "page 1's clicks show on page 2: \(out)")
        #expect(out.contains("errors unknown instrument 77"), "\(out)")
        #expect(eventually(2) { (try? driver.engine.control("kick_3")) == 1 })
        #expect(abs(((try? driver.engine.control("volume")) ?? 0) - 0.25) < 0.03)
        #expect(abs(((try? driver.engine.control("timbre")) ?? 0) - 0.25) < 0.03 && abs(((try? driver.engine.control("delaymix")) ?? 0) - 0.75) < 0.03)
        #expect((try? driver.engine.control("drums")) == 0)
        #expect(web.stats.applied >= 6 && web.stats.malformed == 0, "\(web.stats)")
        #expect(driver.stats.commands >= 6)
    }

    @Test("a phone's motion reaches motion.csd's accelerometer channels (synthetic DeviceMotion events in the browser)")
    func motion() throws {
        let (driver, web) = try start("motion")
        defer { web.stop(); driver.stop() }
        let out = try page(web.url, ["motion:4.905:-9.81:19.62", "wait:0.4"])
        _ = out
        #expect(eventually(2) { abs(((try? driver.engine.control("accelerometerX")) ?? 0) - 0.5) < 0.01 })
        #expect(abs(((try? driver.engine.control("accelerometerY")) ?? 0) + 1) < 0.01)
        #expect((try? driver.engine.control("accelerometerZ")) == 1, "2 g is held to the channel's range (1)")
    }

    func start(_ orchestra: String, options: WebOptions) throws -> (JackDriver, WebSurface) {
        let driver = JackDriver(source: .csd(path: Paths.orchestra(orchestra + ".csd")), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let web = WebSurface(driver: driver, options: options, orchestra: orchestra + ".csd", map: nil)
        try web.start()
        return (driver, web)
    }

    @Test("with a token, the page and its WebSocket refuse a wrong or missing one; every performance has one, on loopback too")
    func token() throws {
        #expect(WebOptions().token.count == 16 && WebOptions().token != WebOptions().token, "a new token for each performance")
        let (driver, web) = try start("sine", token: "s3cret")
        defer { web.stop(); driver.stop() }
        #expect(web.url.hasSuffix("?token=s3cret"))
        let wrong = web.url.replacingOccurrences(of: "s3cret", with: "guess")
        #expect(try page(wrong, ["title"]).contains("wrong or missing token"))
        let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", "import websocket\ntry:\n websocket.create_connection('ws://127.0.0.1:\(web.port)/ws?token=guess'); print('open')\nexcept Exception as e: print('refused', e)"])
        #expect(r.stdout.hasPrefix("refused"), "\(r.stdout) \(r.stderr)")
        #expect(try page(web.url, ["widgets"]).contains("widget fader"))
    }

    @Test("the page answers only itself: a foreign, null or missing Origin, a Host it is not served as (DNS rebinding) and a wrong token get 403 and are counted; its own origin, localhost and --web-origin's are accepted")
    func trust() throws {
        let extra = "https://editor.example:8443"
        let (driver, web) = try start("sine", options: WebOptions(port: 0, origins: [extra]))
        defer { web.stop(); driver.stop() }
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("web_trust.py"), web.url, extra])
        #expect(r.status == 0, "\(r.stderr.suffix(800))")
        var seen: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") {
            let w = line.split(separator: " ")
            if w.count == 2 { seen[String(w[0])] = String(w[1]) }
        }
        let expected = ["ws-own-origin": "open", "ws-extra-origin": "open", "ws-foreign-origin": "403", "ws-null-origin": "403",
                        "ws-no-origin": "403", "ws-rebound-host": "403", "ws-wrong-token": "403", "get-own": "200",
                        "get-localhost": "200", "get-rebound-host": "403", "get-script-rebound-host": "403",
                        "get-other-port": "403", "get-two-hosts": "403", "get-foreign-origin": "403", "get-wrong-token": "403"]
        for (name, want) in expected.sorted(by: { $0.key < $1.key }) { #expect(seen[name] == want, "\(name): \(seen[name] ?? "no answer"), want \(want)") }
        let stats = web.stats
        #expect(stats.forbiddenOrigin == 4 && stats.forbiddenHost == 5 && stats.forbiddenToken == 2 && stats.forbiddenAddress == 0, "\(stats.summary)")
        #expect(stats.pages == 0 && stats.messages == 0, "no refused client reached the performance: \(stats.summary)")
    }

    @Test("30 000 malformed WebSocket messages (PODIUM_WEB_FUZZ_MESSAGES: more) and a client that never reads, against podium play: each gets a clear error, nothing reaches the audio thread but valid commands, the music goes on")
    func fuzz() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.podium)
        p.arguments = ["play", Paths.orchestra("synth.csd"), "--server", server.name, "--no-connect", "--no-osc", "--no-repl", "--no-watch",
                       "--no-session", "--web-port", "0", "--duration", "600"]
        let pipe = Pipe()
        p.standardOutput = FileHandle.nullDevice
        p.standardError = pipe
        try p.run()
        let reader = PipeReader(pipe.fileHandleForReading)
        func printed() -> String { String(decoding: reader.snapshot, as: UTF8.self) }
        defer { if p.isRunning { p.terminate() }; waitForExit(p) }
        #expect(eventually(10) { printed().contains("the stage page: http://") })
        let url = try #require(printed().split(separator: "\n").first { $0.contains("the stage page: http://") }?.split(separator: " ").last)
        let ws = url.replacingOccurrences(of: "http://", with: "ws://").replacingOccurrences(of: "/?token=", with: "/ws?token=")
        let deaf = Process()
        deaf.executableURL = URL(fileURLWithPath: which("python3") ?? "/usr/bin/python3")
        deaf.arguments = [Paths.fixture("web_fuzz.py"), ws, "deaf", "4"]
        deaf.standardOutput = FileHandle.nullDevice
        try deaf.run()
        // 30 000 in the suite (each kind of damage thousands of times); `scripts/test --sanitize` sends 100 000.
        let messages = Int(ProcessInfo.processInfo.environment["PODIUM_WEB_FUZZ_MESSAGES"] ?? "") ?? 30_000
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("web_fuzz.py"), ws, "\(messages)", "7"], timeout: 300)
        waitForExit(deaf)
        #expect(r.status == 0, "\(r.stderr.suffix(800))")
        let words = r.stdout.split(separator: " ")
        let sent = words.count > 1 ? Int(words[1]) ?? 0 : 0
        let replies = words.count > 3 ? Int(words[3].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 : 0
        #expect(sent == messages && replies > messages / 10, "errors come back to the sender: \(r.stdout)")
        let page = try self.page(String(url), ["widgets"])
        #expect(page.contains("widget fader"), "a new page still gets the layout")
        // A message past Hummingbird's default 16 KiB frame (a 1 MB buffer's text) is answered on
        // an open connection; it dropped the connection before.
        let big = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("web_fuzz.py"), ws, "big", "1000000"], timeout: 60)
        #expect(big.status == 0 && big.stdout.contains("big 1000000 answered"), "\(big.stdout) \(big.stderr.suffix(600))")
        p.interrupt()
        waitForExit(p)
        #expect(p.terminationStatus == 0, "\(printed().suffix(1500))")
        let out = printed()
        #expect(out.contains("silenced k-cycles 0") && out.contains("web: pages"), "\(out.suffix(1500))")
        if let web = out.split(separator: "\n").first(where: { $0.contains("web: pages") }) {
            // The fuzzer's messages, a probe after every 100 of them, the deaf client's own.
            let count = { (key: String) in Int(web.components(separatedBy: key + " ").dropFirst().first?.prefix { $0.isNumber } ?? "") ?? 0 }
            #expect(count("messages") >= messages + messages / 100 && count("malformed") + count("refused") >= messages * 6 / 10, "\(web)")
        }
    }
}
}
