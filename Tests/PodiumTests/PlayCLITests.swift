import CJack
import PodiumProbe
import Foundation
import Testing

/// `podium play` as a performer runs it.
extension JackSuites {
@Suite("podium play", .serialized)
final class PlayCLITests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    @Test("with no server and --jack-server none it refuses by name")
    func noServerRefused() throws {
        let name = "podium-absent-\(UUID().uuidString.prefix(6))"
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--jack-server", "none"], environment: ["JACK_DEFAULT_SERVER": name])
        #expect(r.status == 1)
        #expect(r.stderr.contains("no JACK server \"\(name)\" is running (--jack-server none)"))
    }

    @Test("with no server it starts one (dummy here), plays the script, and stops the server on exit")
    func embeddedServer() throws {
        let name = "podium-embedded-\(UUID().uuidString.prefix(6))"
        let sessions = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: sessions) }
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--script", Paths.orchestra("sine.script"), "--no-connect", "--no-osc",
                                       "--sessions", sessions.path],
                        environment: ["JACK_DEFAULT_SERVER": name])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("started jackd \"\(name)\" with the dummy backend"))
        #expect(r.stderr.contains("ksmps 256"))
        #expect(r.stderr.contains("commands 5"), "the script's five :set lines")
        // Nobody hears the dummy backend: the performance is recorded, and the last line says
        // where, how long and how loud.
        #expect(r.stderr.contains("no sound card: recording the performance to \(sessions.path)/"), "\(r.stderr)")
        let last = r.stderr.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("podium: listen to the performance: \(sessions.path)/") && last.contains("/audio.wav ("), "\(last)")
        let seconds = last.split(separator: "audio.wav (").last.flatMap { Double($0.prefix { $0 != " " }) } ?? 0
        // The script is timed by the wall clock. Beside the whole suite, the dummy server this
        // run started falls behind it (86 xruns once; 5.3 s of audio once): the file holds at
        // most the periods it ran, and about the script's six seconds.
        let stop = r.stderr.split(separator: "\n").first { $0.contains("stopped. callbacks ") }.map(String.init) ?? ""
        let callbacks = stop.firstMatch(of: /callbacks (\d+)/).flatMap { Double($0.1) } ?? 0
        let period = stop.firstMatch(of: /\ µs of (\d+) µs/).flatMap { Double($0.1) } ?? 0
        #expect(seconds <= callbacks * period / 1e6 + 0.1, "no more than the periods the server ran: \(last); \(stop)")
        #expect((4.5...6.5).contains(seconds), "the script's six seconds: \(last)")
        let peak = last.split(separator: "peak ").last.flatMap { Double($0.prefix { $0 != " " }) } ?? -200
        #expect(peak > -20, "the sine is in the file: \(last)")
        let left = try run("/usr/bin/pgrep", ["-f", name])
        #expect(left.stdout.isEmpty, "jackd \(name) still running")
    }

    @Test("a ksmps that does not divide the period is refused with the valid ones")
    func badKsmps() throws {
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--ksmps", "100", "--no-connect", "--no-osc"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ksmps 100 does not divide the JACK period 256; valid: 1, 2, 4, 8, 16, 32, 64, 128, 256"))
    }

    @Test("netJACK2 options out of place or out of range are refused before anything starts, each naming the option")
    func badNetOptions() throws {
        let cases: [([String], String)] = [
            (["--net-latency", "2"], "--net-master and --net-latency go with --jack-server net"),
            (["--jack-server", "net", "--net-latency", "0"], "--net-latency: 0 periods is not a latency netJACK2 takes (1 to 15)"),
            (["--jack-server", "net", "--net-master", "mixer.local"], "--net-master: not an IPv4 address: mixer.local"),
        ]
        for (extra, message) in cases {
            let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--no-osc"] + extra, timeout: 30)
            #expect(r.status != 0 && r.stderr.contains(message), "\(extra): \(r.stderr)")
        }
    }

    @Test("a broken OSC map or a busy port is a clear error before the performance")
    func oscStartErrors() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let map = dir.appendingPathComponent("bad.oscmap.yaml").path
        try "controls:\n  /1/fader1: { channel: nosuch }\n".write(toFile: map, atomically: true, encoding: .utf8)
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--no-connect", "--osc-port", "0", "--osc-map", map])
        #expect(r.status == 1)
        #expect(r.stderr.contains("channels the orchestra does not declare: nosuch"))
        let blocker = try PortBlocker()
        let r2 = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--no-connect", "--osc-port", "\(blocker.port)"])
        #expect(r2.status == 1)
        #expect(r2.stderr.contains("cannot listen for OSC on 127.0.0.1:\(blocker.port): Address already in use"))
    }

    /// `podium play sine.csd` on the test server as `name`, its stderr on a pipe.
    func playSine(name: String) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.podium)
        p.arguments = ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--name", name, "--no-connect", "--osc-port", "0"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return (p, err)
    }

    @Test("SIGTERM while the performance is still starting is not lost: it stops once started, exit 0 (libdispatch's signal source ignored a SIGTERM that came before its handler was in place)")
    func sigtermWhileStarting() throws {
        let (p, err) = try playSine(name: "podstart")
        // The start's first line: the engine plays, the surfaces are still starting.
        var text = ""
        let deadline = Date().addingTimeInterval(15)
        while !text.contains("podium: playing"), Date() < deadline {
            let d = err.fileHandleForReading.availableData
            if d.isEmpty { break }
            text += String(decoding: d, as: UTF8.self)
        }
        p.terminate()
        waitForExit(p)
        text += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationReason == .exit && p.terminationStatus == 0, "\(p.terminationReason.rawValue) \(p.terminationStatus): \(text)")
        #expect(text.contains("podium: stopped. callbacks"), "\(text)")
    }

    @Test("SIGTERM stops cleanly: ports unregistered, statistics printed")
    func sigterm() throws {
        let (p, err) = try playSine(name: "podterm")
        let probe = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "termprobe")
        #expect(eventually(5) { jack_port_by_name(probe.client, "podterm:out_1") != nil })
        Thread.sleep(forTimeInterval: 0.3)
        p.terminate()
        waitForExit(p)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0)
        #expect(text.contains("podium: stopped. callbacks"))
        #expect(eventually(2) { jack_port_by_name(probe.client, "podterm:out_1") == nil })
    }
}
}

/// Holds a free loopback port (the kernel's choice) to make a bind fail: UDP, or TCP listening.
final class PortBlocker {
    let fd: Int32
    let port: UInt16
    init(tcp: Bool = false) throws {
        let fd = socket(AF_INET, Int32(tcp ? SOCK_STREAM.rawValue : SOCK_DGRAM.rawValue), 0)
        self.fd = fd
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        _ = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        port = UInt16(bigEndian: a.sin_port)
        if tcp { listen(fd, 1) }
    }
    deinit { close(fd) }
}
