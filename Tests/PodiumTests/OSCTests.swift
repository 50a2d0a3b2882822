import CJack
import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSurfaces
import Testing

/// The OSC surface driven by real third-party clients (liblo's oscsend, python-osc)
/// against a real dummy JACK server.
extension JackSuites {
@Suite("OSC surface", .serialized)
final class OSCTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = JackSuites.JackDriverTests.orchestra + """

    chn_k "fader1", 1
    chn_k "xy_x", 1
    chn_k "xy_y", 1
    chn_k "multitoggle_2_3", 1
    chn_k "accelerometerX", 1
    chn_k "accelerometerY", 1
    chn_k "accelerometerZ", 1
    chn_S "label", 1

    chn_k "meter", 2

    instr beep
      a1 linseg p4, p3, p4
      outs a(0), a1
    endin

    instr 4 ; an output channel that moves every k-cycle
      chnset times:k(), "meter"
    endin
    """

    func start(ksmps: Int? = 64) throws -> (JackDriver, OSCSurface) {
        let driver = JackDriver(source: .text(orchestra: OSCTests.orchestra, score: nil, name: "osc.orc"),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: ksmps))
        try driver.start()
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.start()
        return (driver, osc)
    }

    func python(_ args: [String]) throws -> ProcessResult {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py")] + args)
        #expect(r.status == 0, "python-osc client: \(r.stderr)")
        return r
    }

    func oscsend(_ port: UInt16, _ args: [String]) throws {
        let r = try run(try #require(which("oscsend"), "oscsend (apt: liblo-tools)"), ["127.0.0.1", "\(port)"] + args)
        #expect(r.status == 0, "oscsend: \(r.stderr)")
    }

    @Test("oscsend and python-osc set channels that chnget reads")
    func channelSets() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        try oscsend(osc.port, ["/podium/chn/freq", "f", "550"])
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 550 })
        _ = try python(["\(osc.port)", "message", "/csound/channel/level", "f:0.25"])
        #expect(eventually(1) { (try? driver.engine.control("level")) == 0.25 })
        try oscsend(osc.port, ["/podium/chn/label", "s", "verse"])
        #expect(eventually(1) { (try? driver.engine.string("label")) == "verse" })
    }

    @Test("a TouchOSC-style session: fader, xy, multitoggle and /accxyz reach their channels")
    func touchOSCDefaults() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        _ = try python(["\(osc.port)", "message", "/1/fader1", "f:0.75"])
        _ = try python(["\(osc.port)", "message", "/3/xy", "f:0.1", "f:0.9"])
        _ = try python(["\(osc.port)", "message", "/4/multitoggle/2/3", "f:1"])
        _ = try python(["\(osc.port)", "message", "/accxyz", "f:0.5", "f:-0.25", "f:1.0"])
        #expect(eventually(1) { (try? driver.engine.control("fader1")) == 0.75 })
        #expect(eventually(1) { (try? driver.engine.control("xy_x")) == Double(Float(0.1)) && (try? driver.engine.control("xy_y")) == Double(Float(0.9)) })
        #expect(eventually(1) { (try? driver.engine.control("multitoggle_2_3")) == 1 })
        #expect(eventually(1) { (try? driver.engine.control("accelerometerZ")) == 1.0 && (try? driver.engine.control("accelerometerY")) == -0.25 })
    }

    @Test("events by number and by name are heard; unknown instruments and addresses are answered and counted")
    func events() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3)
        try capture.connect(from: "podium:out_2", channel: 0)
        capture.start()
        try oscsend(osc.port, ["/podium/event", "ifff", "2", "0", "0.05", "0.5"])
        Thread.sleep(forTimeInterval: 0.3)
        try oscsend(osc.port, ["/podium/event", "sfff", "beep", "0", "0.05", "0.5"])
        Thread.sleep(forTimeInterval: 0.3)
        capture.stopRecording()
        #expect(capture.onsets(0).count == 2)
        let reply = try python(["\(osc.port)", "ask", "/podium/event", "i:9", "f:0", "f:1"])
        #expect(reply.stdout.contains("/podium/error unknown instrument 9"))
        let reply2 = try python(["\(osc.port)", "ask", "/nowhere/at/all/really/deep", "f:1"])
        #expect(reply2.stdout.contains("/podium/error unknown address"))
        #expect(osc.stats.unknownTargets == 1)
        #expect(osc.stats.unknownAddresses == 1)
    }

    @Test("each datagram's way through the OSC thread is timed from the kernel's arrival: waited for the thread, parse, carried out")
    func receivePathTimed() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let before = ContinuousClock.now
        try oscsend(osc.port, ["/podium/event", "ifff", "2", "0", "0.05", "0.5"])
        let sending = (ContinuousClock.now - before) / .microseconds(1)
        #expect(eventually(1) { osc.stats.lastPath != nil })
        let path = try #require(osc.stats.lastPath)
        let waited = path.waited
        // The datagram arrived while oscsend ran: it cannot have waited longer than that.
        #expect(waited >= 0 && waited < sending, "waited \(waited) µs, oscsend took \(sending) µs")
        #expect(path.parse > 0 && path.carriedOut > 0 && path.total < sending + 1_000_000)
        #expect((osc.stats.slowestPath?.total ?? 0) >= path.total)
        #expect(osc.stats.summary.contains("slowest datagram \(Int(osc.stats.slowestPath!.total.rounded()))"), "\(osc.stats.summary)")
    }

    @Test("a bundle timetagged 200 ms ahead starts on the frame JACK's clock maps it to; bundles N frames apart start exactly N frames apart")
    func timetaggedBundles() throws {
        let (driver, osc) = try start(ksmps: 64)
        defer { osc.stop(); driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 4)
        try capture.connect(from: "podium:out_2", channel: 0)
        try driver.makeProducer().event([2, 0, 0.01, 0.0001])  // first-note allocation, out of the way
        Thread.sleep(forTimeInterval: 0.1)
        // A dummy JACK server in a VM has an xrun about once a second: JACK's frame clock jumps
        // and no wall-clock moment maps to one frame across it. Measure in an xrun-free window,
        // with a warm python-osc client so the window is short.
        let client = Process()
        client.executableURL = URL(fileURLWithPath: which("python3") ?? "/usr/bin/python3")
        client.arguments = [Paths.fixture("osc_client.py"), "\(osc.port)", "serve"]
        let toClient = Pipe(), fromClient = Pipe()
        client.standardInput = toClient
        client.standardOutput = fromClient
        try client.run()
        defer { try? toClient.fileHandleForWriting.close(); waitForExit(client) }
        func ask(_ line: String) {
            toClient.fileHandleForWriting.write(Data((line + "\n").utf8))
            _ = fromClient.fileHandleForReading.availableData  // "ok"
        }
        ask("message /podium/chn/level f:0")  // python is up
        var measured = false
        for attempt in 0..<8 where !measured {
            // A burst's first timetag is anchored to JACK's clock only after two seconds without
            // timetags (TimetagClock); before that it is counted from the last burst's anchor.
            if attempt > 0 { Thread.sleep(forTimeInterval: 2.1) }
            let xruns = driver.stats.xruns, captureXruns = capture.xruns
            capture.start()
            let when = Date().timeIntervalSince1970 + 0.2
            // The frame that moment maps to through JACK's clock, as seen from another client.
            let expected = Int64(jack_time_to_frames(capture.client, jack_get_time() + UInt64((when - Date().timeIntervalSince1970) * 1e6)))
            let step = 4801.0 / 48000.0
            ask("bundles \(String(format: "%.6f", when)) \(String(format: "%.9f", step)) 3 /podium/event i:2 f:0 f:0.02 f:0.5")
            Thread.sleep(forTimeInterval: max(0.1, when + 0.4 - Date().timeIntervalSince1970))
            capture.stopRecording()
            Thread.sleep(forTimeInterval: 0.1)  // xrun notifications arrive on JACK's own thread
            guard driver.stats.xruns == xruns, capture.xruns == captureXruns else { continue }
            measured = true
            let onsets = capture.onsets(0)
            #expect(onsets.count == 3)
            if onsets.count == 3 {
                // JACK's own clock (its DLL) wanders between two readings on a dummy server in a VM:
                // the test's reading and podium's are a moment apart.
                #expect(abs(onsets[0] - expected) <= 256, "onset \(onsets[0]), timetag maps to \(expected)")
                #expect(onsets[1] - onsets[0] == 4801 && onsets[2] - onsets[1] == 4801, "onsets \(onsets)")
            }
        }
        #expect(measured, "no xrun-free window in eight tries")
        #expect(osc.stats.lateBundles == 0)
    }

    @Test("a late bundle runs at once and is reported")
    func lateBundle() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        _ = try python(["\(osc.port)", "bundle", String(format: "%.6f", Date().timeIntervalSince1970 - 0.5), "/podium/chn/freq", "f:330"])
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 330 })
        #expect(osc.stats.lateBundles == 1)
    }

    @Test("orchestra code compiles from loopback; replies done or fail with the line")
    func codeFromLoopback() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let ok = try python(["\(osc.port)", "ask", "/podium/orc", "s:instr 7\n out a(0.1)\nendin\n"])
        #expect(ok.stdout.hasPrefix("/podium/done"))
        #expect(eventually(1) { driver.engine.instruments.defines(number: 7) })
        let bad = try python(["\(osc.port)", "ask", "/csound/compile", "s:instr 8\n a1 nosuch 1\nendin\n"])
        #expect(bad.stdout.hasPrefix("/podium/fail osc:127.0.0.1:"), "\(bad.stdout)")
        #expect(bad.stdout.contains(":2: "))
    }

    @Test("orchestra code from a non-loopback sender is refused unless allowed")
    func remoteCodeRefused() throws {
        let lan = try #require(nonLoopbackIPv4(), "this machine needs a non-loopback IPv4 address for this test")
        let driver = JackDriver(source: .text(orchestra: OSCTests.orchestra, score: nil, name: "osc.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0, bind: lan, allow: [CIDR(lan)!]))
        osc.start()
        defer { osc.stop() }
        let r = try python(["--bind", lan, "\(osc.port)", "ask", "/podium/orc", "s:instr 9\nendin\n"])
        #expect(r.stdout.contains("/podium/fail orchestra code is accepted from loopback only"))
        #expect(osc.stats.refusedCode == 1)
        #expect(!driver.engine.instruments.defines(number: 9))
        _ = try python(["--bind", lan, "\(osc.port)", "message", "/podium/chn/freq", "f:220"])
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 220 }, "channel sets from an allowed LAN source work")
    }

    @Test("sources outside the allowed ranges are dropped and counted")
    func sourcesRefused() throws {
        let lan = try #require(nonLoopbackIPv4(), "this machine needs a non-loopback IPv4 address for this test")
        let driver = JackDriver(source: .text(orchestra: OSCTests.orchestra, score: nil, name: "osc.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0, bind: "0.0.0.0"))
        osc.start()
        defer { osc.stop() }
        _ = try python(["--bind", lan, "\(osc.port)", "message", "/podium/chn/freq", "f:220"])
        #expect(eventually(1) { osc.stats.refusedSources == 1 })
        #expect((try? driver.engine.control("freq")) != 220)
    }

    @Test("100k random and mutated datagrams while audio runs: counted, no crash, no stalled callback")
    func fuzz() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let producer = driver.makeProducer()
        try producer.set("freq", 440)
        try producer.event([1, 0, 60])
        Thread.sleep(forTimeInterval: 0.2)
        driver.resetCallbackTimes()
        let cycles = driver.stats.cycles
        _ = try python(["\(osc.port)", "garbage", "100000", "7"])
        #expect(eventually(10) { osc.stats.datagrams == 100_000 }, "\(osc.stats.summary)")
        let s = osc.stats
        #expect(s.malformed > 40_000, "\(s.summary)")
        // Every datagram is counted once: malformed, or parsed (into one or more messages).
        #expect(s.malformed + s.parsed == 100_000, "\(s.summary)")
        #expect(s.messages >= s.parsed)
        let after = driver.stats
        #expect(after.cycles > cycles)
        #expect(after.silentCallbacks == 0)
        // The audio thread keeps its deadline: 99 % of callbacks stay under half the period
        // (wall time on two shared cores with the flood's sender running; the maximum is the
        // scheduler's, with jackd -r in a VM).
        #expect(after.p99 <= 0.5, "\(after)")
        try oscsend(osc.port, ["/podium/chn/freq", "f", "660"])
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 660 }, "still listening")
    }

    @Test("subscribers get output channels (≤30 Hz), echoes of input changes, compile results and console lines")
    func feedback() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        driver.onConsole = { osc.console($0) }
        try driver.makeProducer().event([4, 0, 10])
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: which("python3") ?? "/usr/bin/python3")
        // Until the console line comes (three python clients and a checked compile take their
        // time on a loaded machine), at most 10 s.
        listener.arguments = [Paths.fixture("osc_client.py"), "\(osc.port)", "listen", "10", "hello from instr 11"]
        let out = Pipe()
        listener.standardOutput = out
        try listener.run()
        #expect(eventually(3) { osc.subscriberCount == 1 })
        _ = try python(["\(osc.port)", "message", "/1/fader1", "f:0.75"])
        _ = try python(["\(osc.port)", "message", "/podium/orc", "s:instr 11\n prints \"hello from instr 11\\n\"\nendin\n"])
        _ = try python(["\(osc.port)", "message", "/podium/event", "i:11", "f:0", "f:0.01"])
        waitForExit(listener)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("/podium/started") })
        let meters = lines.filter { $0.contains("/podium/chn/meter") }
        #expect(meters.count >= 10, "output channel feedback: \(meters.count) messages")
        if let first = meters.first.flatMap({ Double($0.split(separator: " ")[0]) }), let last = meters.last.flatMap({ Double($0.split(separator: " ")[0]) }), meters.count > 1 {
            let rate = Double(meters.count - 1) / (last - first)
            #expect(rate <= 33, "feedback rate \(rate) Hz")
        }
        #expect(lines.contains { $0.hasSuffix("/1/fader1 0.75") }, "echo for faders to follow")
        #expect(lines.contains { $0.contains("/podium/done") })
        #expect(lines.contains { $0.contains("/podium/console") && $0.contains("hello from instr 11") })
    }

    @Test("the csound --port text protocol: code, {{ }} code, & score, @ and % channels, :@ replies, ##close##")
    func csoundTextProtocol() throws {
        let driver = JackDriver(source: .text(orchestra: OSCTests.orchestra, score: nil, name: "osc.orc"),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let port = try CsoundTextPort(driver: driver, options: OSCOptions(port: 0))
        let closed = AppliedLog()
        port.onClose = { closed.note("closed") }
        port.start()
        defer { port.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3)
        try capture.connect(from: "podium:out_2", channel: 0)
        func send(_ packets: [String], reply: Bool = false) throws -> String {
            let script = """
            import socket, sys
            s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.bind(("127.0.0.1", 0)); s.settimeout(2)
            for p in sys.argv[2:]:
                p = p.replace("REPLYPORT", str(s.getsockname()[1]))
                s.sendto(p.encode(), ("127.0.0.1", int(sys.argv[1])))
            if \(reply ? "True" : "False"): print(s.recvfrom(4096)[0].decode())
            """
            let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", script, "\(port.port)"] + packets)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        _ = try send(["instr 21\n a1 linseg p4, p3, p4\n outs a(0), a1\nendin\n"])
        #expect(eventually(1) { driver.engine.instruments.defines(number: 21) })
        _ = try send(["{{instr 22\n", " a1 linseg p4, p3, p4\n outs a(0), a1\n", "endin\n}}"])
        #expect(eventually(1) { driver.engine.instruments.defines(number: 22) })
        capture.start()
        _ = try send(["&i21 0 0.05 0.5"])
        Thread.sleep(forTimeInterval: 0.3)
        _ = try send(["$i22 0 0.05 0.5"])
        Thread.sleep(forTimeInterval: 0.3)
        capture.stopRecording()
        #expect(capture.onsets(0).count == 2)
        _ = try send(["@freq 330", "%label chorus"])
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 330 && (try? driver.engine.string("label")) == "chorus" })
        #expect(try send([":@freq 127.0.0.1 REPLYPORT"], reply: true) == "freq::330")
        #expect(try send([":%label 127.0.0.1 REPLYPORT"], reply: true) == "label::chorus")
        _ = try send(["@nosuch 1"])
        #expect(eventually(1) { port.errors == 1 })
        _ = try send(["##close##"])
        #expect(eventually(1) { closed.notes == ["closed"] })
    }

    static let map = """
    controls:
      /1/fader1: { channel: level, to: [0, 0.5] }
      /1/fader2: { channel: freq, to: [110, 1760], curve: exp, default: 220 }
      /1/toggle1: { channel: fader1, mode: toggle }
      /2/push1: { channel: button, mode: momentary }
      /3/xy: { mode: xy, channels: [xy_x, xy_y], to: [0, 100] }
      /4/multitoggle: { mode: multitoggle, event: { instr: 2, duration: 0.02 } }
      /accxyz: { mode: accelerometer, range: [-1, 1], to: [0, 1] }
    """

    @Test("/podium/status replies with the engine's numbers")
    func status() throws {
        let (driver, osc) = try start()
        defer { osc.stop(); driver.stop() }
        let r = try python(["\(osc.port)", "ask", "/podium/status"])
        #expect(r.stdout.hasPrefix("/podium/status.reply 48000 64 256 "), "\(r.stdout)")
    }
}
}

/// The first non-loopback IPv4 address of this machine, if any.
func nonLoopbackIPv4() -> String? {
    var list: UnsafeMutablePointer<ifaddrs>?
    guard getifaddrs(&list) == 0, let first = list else { return nil }
    defer { freeifaddrs(list) }
    var p: UnsafeMutablePointer<ifaddrs>? = first
    while let a = p {
        if let sa = a.pointee.ifa_addr, sa.pointee.sa_family == sa_family_t(AF_INET) {
            let addr = sa.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
            if addr >> 24 != 127 {
                return "\(addr >> 24).\((addr >> 16) & 255).\((addr >> 8) & 255).\(addr & 255)"
            }
        }
        p = a.pointee.ifa_next
    }
    return nil
}
