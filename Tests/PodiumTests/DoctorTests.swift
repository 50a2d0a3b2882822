import Foundation
import PodiumProbe
import Testing

/// `podium doctor` against conditions the tests set: a user without real-time priority
/// (`prlimit --rtprio=0`, as nobody when the tests run as root, whose CAP_SYS_NICE ignores the
/// limit), a port in use, a running JACK server, a sessions directory on a nearly full disk.
extension JackSuites {
@Suite("podium doctor", .serialized)
struct DoctorTests {
    func doctor(_ args: [String]) throws -> ProcessResult {
        try run(Paths.podium, ["doctor", "--watch", "0"] + args, timeout: 60)
    }

    /// The line of one check (`✔ OSC port UDP 7770: …`), with its fix line when it has one.
    func finding(_ output: String, _ check: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let i = lines.firstIndex(where: { $0.dropFirst(2).hasPrefix(check + ":") }) else { return nil }
        return lines[i] + (i + 1 < lines.count && lines[i + 1].hasPrefix("    fix: ") ? "\n" + lines[i + 1] : "")
    }

    @Test("no real-time priority (ulimit -r 0, not root): a problem with the limits.d and audio-group fix, and exit status 1")
    func noRealtime() throws {
        // A copy of podium that any user may run (the checkout may sit under a private home).
        let dir = Paths.temporaryDirectory("doctor")
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o755)
        let copy = dir.appendingPathComponent("podium").path
        try FileManager.default.copyItem(atPath: Paths.podium, toPath: copy)
        chmod(copy, 0o755)
        let user = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"] : []
        let r = try run("/usr/bin/prlimit", ["--rtprio=0"] + user + [copy, "doctor", "--watch", "0", "--sessions", dir.path])
        let line = finding(r.stdout, "real-time priority") ?? ""
        #expect(line.hasPrefix("✖ real-time priority: this user may not use real-time scheduling (ulimit -r is 0)"), "\(r.stdout)\(r.stderr)")
        #expect(line.contains("fix: echo '@audio - rtprio 95' | sudo tee /etc/security/limits.d/"), "\(line)")
        #expect(r.status == 1, "a problem: exit 1 (\(r.status))")
        #expect(r.stdout.contains("podium doctor: ") && r.stdout.contains(" problem"), "\(r.stdout)")
    }

    @Test("the OSC and page ports: free, or in use by a named process with the option that chooses another")
    func portsInUse() throws {
        var udp: PortBlocker? = try PortBlocker(), tcp: PortBlocker? = try PortBlocker(tcp: true)
        let oscPort = Int(udp!.port), webPort = Int(tcp!.port)
        let r = try doctor(["--osc-port", "\(oscPort)", "--web-port", "\(webPort)"])
        let me = "(pid \(getpid()))"
        let osc = finding(r.stdout, "OSC port UDP \(oscPort)") ?? "", web = finding(r.stdout, "stage page port TCP \(webPort)") ?? ""
        #expect(osc.hasPrefix("! OSC port UDP \(oscPort): in use by ") && osc.contains(me) && osc.contains("--osc-port N"), "\(r.stdout)")
        #expect(web.hasPrefix("! stage page port TCP \(webPort): in use by ") && web.contains(me) && web.contains("--web-port N"), "\(r.stdout)")
        udp = nil
        tcp = nil
        let free = try doctor(["--osc-port", "\(oscPort)", "--web-port", "\(webPort)"])
        #expect(finding(free.stdout, "OSC port UDP \(oscPort)") == "✔ OSC port UDP \(oscPort): free on 127.0.0.1", "\(free.stdout)")
        #expect(finding(free.stdout, "stage page port TCP \(webPort)") == "✔ stage page port TCP \(webPort): free on 127.0.0.1", "\(free.stdout)")
    }

    @Test("a running JACK server: its period, rate and scheduling; none running is said, not an error")
    func jackServer() throws {
        let server = try TestJackServer(period: 128)
        defer { server.stop() }
        let r = try run(Paths.podium, ["doctor", "--server", server.name, "--watch", "0.5"], timeout: 60)
        let line = finding(r.stdout, "JACK server") ?? ""
        #expect(line.contains("\(server.name): period 128 frames at 48000 Hz (2.7 ms a period)"), "\(r.stdout)")
        #expect(line.contains("real-time") && line.contains("xrun"), "\(line)")
        server.stop()
        let none = try doctor(["--server", server.name])
        #expect(finding(none.stdout, "JACK server")?.hasPrefix("· JACK server: none running under the name \(server.name)") == true, "\(none.stdout)")
    }

    @Test("sessions on a nearly full disk (a 2 MiB tmpfs): a problem naming the space and the fix, exit 1")
    func diskNearlyFull() throws {
        let dir = Paths.temporaryDirectory("doctordisk")
        defer { try? FileManager.default.removeItem(at: dir) }
        let mounted = try run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", dir.path])
        try #require(mounted.status == 0, "mounting a tmpfs needs root: \(mounted.stderr)")
        defer { _ = try? run("/usr/bin/umount", [dir.path]) }
        let r = try doctor(["--sessions", dir.appendingPathComponent("Sessions").path])
        let line = finding(r.stdout, "disk for sessions") ?? ""
        #expect(line.hasPrefix("✖ disk for sessions: 0.0 GB free for \(dir.path)/Sessions"), "\(r.stdout)")
        #expect(line.contains("fix: free space, or keep sessions elsewhere: podium play --sessions DIR"), "\(line)")
        #expect(r.status == 1)
    }

}
}
