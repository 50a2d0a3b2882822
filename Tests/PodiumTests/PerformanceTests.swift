import CJack
import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumPerformance
import PodiumProbe
import PodiumWeb
import Synchronization
import Testing

/// A whole performance (driver, session, OSC, the stage page, hot reload, loops) started and
/// stopped through the library, without the CLI.
extension JackSuites {
@Suite("Performance", .serialized)
final class PerformanceTests {
    let server: TestJackServer

    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let csd = """
    <CsoundSynthesizer>
    <CsInstruments>
    nchnls = 1
    0dbfs = 1
    instr 1
      out oscili(0.5, 440)
    endin
    </CsInstruments>
    <CsScore>
    i 1 0 3600
    </CsScore>
    </CsoundSynthesizer>
    """

    /// A performance of `csd` written in a fresh directory, on `server`, without the surfaces
    /// that need a terminal or a fixed port.
    static func options(server: String, tag: String = #function, csd text: String = csd) throws -> (PerformanceOptions, URL) {
        let dir = Paths.temporaryDirectory(tag)
        let file = dir.appendingPathComponent("tone.csd").path
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        var options = PerformanceOptions(orchestra: file, source: .csd(path: file), seed: 7,
                                         jack: JackOptions(clientName: "perf", serverName: server, connect: false),
                                         sessions: dir.appendingPathComponent("Sessions").path)
        options.startServer = false
        options.osc = nil
        options.web = nil
        return (options, dir)
    }

    @Test("a Performance plays (a 440 Hz tone reaches a capture client), its session is kept, and stop leaves no client, port or surface behind")
    func startsPlaysAndStops() throws {
        var (options, _) = try PerformanceTests.options(server: server.name)
        let file = options.orchestra, sessions = options.sessions
        options.osc = OSCOptions(port: 0)
        options.web = WebOptions(port: 0)
        let said = Mutex<[String]>([])
        let performance = Performance(options: options, say: { line in said.withLock { $0.append(line) } }, output: { _ in })
        try performance.start()
        var stopped = false
        defer { if !stopped { performance.stop() } }
        let oscPort = try #require(performance.osc?.port)
        #expect(oscPort != 0)
        #expect(performance.web != nil)

        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "perfprobe")
        defer { capture.close() }
        try capture.connect(from: "perf:out_1", channel: 0)
        capture.record(seconds: 0.5)
        let samples = capture.samples(0)
        #expect((samples.map(abs).max() ?? 0) > 0.4, "the tone is heard")
        #expect(abs(estimatedFrequency(samples, sampleRate: capture.sampleRate) - 440) < 5)

        // run() returns when asked to stop (from another thread); stop() is the one teardown.
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) { performance.requestStop() }
        performance.run()
        performance.stop()
        stopped = true
        performance.stop()  // idempotent
        #expect(eventually(2) { jack_port_by_name(capture.client, "perf:out_1") == nil })
        let ports = jack_get_ports(capture.client, "^perf:", nil, 0)
        #expect(ports == nil, "no port of the performance's client is left")
        if let ports { jack_free(ports) }
        #expect(performance.driver?.isConnected == false)
        let lines = said.withLock { $0 }
        #expect(lines.contains { $0.hasPrefix("podium: playing \(file)") })
        #expect(lines.contains { $0.hasPrefix("podium: stopped.") })
        // The session was kept and finished: its journal holds the engine's start and a sync.
        let kept = try FileManager.default.contentsOfDirectory(atPath: sessions).filter { !$0.hasPrefix(".") && $0 != "presets" }
        #expect(kept.count == 1)
        let log = try String(contentsOfFile: sessions + "/" + (kept.first ?? "") + "/events.log", encoding: .utf8)
        #expect(log.contains(" engine "))
        #expect(log.contains(" sync"))
    }

    @Test("an OSC map that cannot be read is an error naming the file even with OSC off (the stage page reads it too); nothing is left running")
    func brokenMapWithoutOSC() throws {
        var (options, dir) = try PerformanceTests.options(server: server.name)
        let map = dir.appendingPathComponent("broken.oscmap.yaml").path
        try "controls: [unclosed\n".write(toFile: map, atomically: true, encoding: .utf8)
        options.oscMap = map
        options.web = WebOptions(port: 0)
        let performance = Performance(options: options, say: { _ in }, output: { _ in })
        #expect {
            try performance.start()
        } throws: { error in
            (error as? PerformanceError)?.description.contains("broken.oscmap.yaml") ?? false
        }
        #expect(performance.web == nil)
        #expect(performance.driver?.isConnected != true)
        performance.stop()
    }

    @Test("a Performance that cannot start (no such server) throws and leaves nothing running")
    func failedStart() throws {
        let (options, _) = try PerformanceTests.options(server: "podium-test-no-such-server")
        let performance = Performance(options: options, say: { _ in }, output: { _ in })
        #expect(throws: PerformanceError.self) { try performance.start() }
        #expect(performance.driver == nil)
        performance.stop()
    }

    @Test("a .csd whose <CsOptions> say --port=N --realtime -odac:hw:7 -M hw:9: the devices are said and JACK takes their place, realtime mode is set back (said; exact replay needs it off); Csound's own server (every address, unjournaled) is not started; Podium's csound port takes N on loopback, and what it plays is journaled")
    func csOptionsPort() throws {
        let port = Int(try freeUDPPort())
        let csd = PerformanceTests.csd.replacingOccurrences(of: "<CsInstruments>", with: "<CsOptions>\n--port=\(port) --realtime -odac:hw:7 -M hw:9\n</CsOptions>\n<CsInstruments>")
            .replacingOccurrences(of: "i 1 0 3600\n", with: "")
        #expect(!csd.contains("i 1 0 3600"), "no held note: only what the port plays sounds")
        var (options, _) = try PerformanceTests.options(server: server.name, csd: csd)
        options.record = true
        let said = Mutex<[String]>([])
        let performance = Performance(options: options, say: { line in said.withLock { $0.append(line) } }, output: { _ in })
        try performance.start()
        var stopped = false
        defer { if !stopped { performance.stop() } }
        #expect(said.withLock { $0 }.contains { $0.contains("ask for --port=\(port): Podium's csound port takes it") }, "\(said.withLock { $0 })")
        #expect(said.withLock { $0 }.contains { $0.contains("ask for --realtime (Csound's realtime mode): a performance runs without it") }, "\(said.withLock { $0 })")
        #expect(performance.driver?.engine.modesFromOptions == ["--realtime"])
        // Devices the options name: said, and Podium's ports take their place.
        #expect(performance.driver?.engine.devicesFromOptions == ["-o dac:hw:7", "-M hw:9"], "\(performance.driver?.engine.devicesFromOptions ?? [])")
        #expect(said.withLock { $0 }.contains { $0.contains("name -o dac:hw:7, -M hw:9: Podium's JACK ports play and take MIDI in their place") }, "\(said.withLock { $0 })")
        // Bound on loopback only, once (/proc/net/udp: local address 0100007F:PORT, never 00000000:PORT).
        let udp = try String(contentsOfFile: "/proc/net/udp", encoding: .utf8)
        let hex = String(format: "%04X", port)
        #expect(udp.contains("0100007F:\(hex)"), "Podium's csound port on 127.0.0.1:\(port)")
        #expect(!udp.contains("00000000:\(hex)"), "no server on every address")

        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 2, name: "portprobe")
        defer { capture.close() }
        try capture.connect(from: "perf:out_1", channel: 0)
        capture.start()
        let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", "import socket, sys; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b'&i 1 0 0.5', ('127.0.0.1', int(sys.argv[1])))", "\(port)"])
        #expect(r.status == 0, "\(r.stderr)")
        Thread.sleep(forTimeInterval: 0.8)
        capture.stopRecording()
        #expect((capture.samples(0).map(abs).max() ?? 0) > 0.3, "the note sent to the port is heard")
        let session = try #require(performance.recording?.recordingDirectory)
        performance.stop()
        stopped = true
        let log = try String(contentsOfFile: session + "/events.log", encoding: .utf8)
        #expect(log.split(separator: "\n").contains { $0.contains(" event 1.0 ") }, "the port's note is journaled")
    }
}
}
