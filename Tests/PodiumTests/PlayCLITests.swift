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
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--script", Paths.orchestra("sine.script"), "--no-connect"],
                        environment: ["JACK_DEFAULT_SERVER": name])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("started jackd \"\(name)\" with the dummy backend"))
        #expect(r.stderr.contains("ksmps 256"))
        #expect(r.stderr.contains("commands 5"), "the script's five :set lines")
        let left = try run("/usr/bin/pgrep", ["-f", name])
        #expect(left.stdout.isEmpty, "jackd \(name) still running")
    }

    @Test("a ksmps that does not divide the period is refused with the valid ones")
    func badKsmps() throws {
        let r = try run(Paths.podium, ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--ksmps", "100", "--no-connect"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("ksmps 100 does not divide the JACK period 256; valid: 1, 2, 4, 8, 16, 32, 64, 128, 256"))
    }

    @Test("SIGTERM stops cleanly: ports unregistered, statistics printed")
    func sigterm() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Paths.podium)
        p.arguments = ["play", Paths.orchestra("sine.csd"), "--server", server.name, "--name", "podterm", "--no-connect"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let probe = try CaptureClient(server: server.name, channels: 1, seconds: 1, name: "termprobe")
        #expect(eventually(5) { jack_port_by_name(probe.client, "podterm:out_1") != nil })
        Thread.sleep(forTimeInterval: 0.3)
        p.terminate()
        p.waitUntilExit()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(p.terminationStatus == 0)
        #expect(text.contains("podium: stopped. callbacks"))
        #expect(eventually(2) { jack_port_by_name(probe.client, "podterm:out_1") == nil })
    }
}
}
