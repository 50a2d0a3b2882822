import Foundation
import PodiumHost
import PodiumProbe
import Testing

extension JackSuites {
/// Parts on several machines: a netJACK2 master (`jackd -d dummy` with `jack_load netmanager`)
/// in one network namespace, `podium play --jack-server net` in another, joined by a veth pair;
/// nothing on this machine's network. JACK's own `jack_iodelay` on the master measures the
/// round trip through Podium.
@Suite("Parts on several machines: netJACK2", .serialized)
final class NetJackTests {
    /// `jack_iodelay` on `server` (its ports `jack_delay:out`/`in`), its latest measurement read
    /// from its output.
    final class IODelay {
        let child: LineChild
        init(server: String) throws {
            child = try LineChild(["/usr/bin/stdbuf", "-o0", "/usr/bin/jack_iodelay"], environment: ["JACK_DEFAULT_SERVER": server])
        }
        /// Frames of the round trip, once two measurements in a row agree (nil after `timeout`).
        func roundTrip(timeout: Double) -> Double? {
            var found: Double?
            _ = eventually(timeout) {
                let values = child.stdout.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
                    .filter { $0.contains("total roundtrip latency") }
                    .compactMap { Double($0.split(separator: " ").first ?? "") }
                guard values.count >= 2, values[values.count - 1] == values[values.count - 2] else { return false }
                found = values.last
                return true
            }
            return found
        }
        /// SIGKILL: jack_iodelay keeps the SIGTERM-blocking mask the test's children inherit.
        func stop() {
            if child.process.isRunning { kill(child.process.processIdentifier, SIGKILL) }
            waitForExit(child.process, timeout: 5)
        }
    }

    static func connect(_ server: String, _ from: String, _ to: String) throws {
        let r = try run("/usr/bin/jack_connect", [from, to], environment: ["JACK_DEFAULT_SERVER": server], timeout: 10)
        guard r.status == 0 else { throw TestFailure("jack_connect \(from) \(to) on \(server): \(r.stderr)") }
    }

    @Test("--jack-server net joins a master on another machine: it takes the master's rate and period, appears in its graph under its --name, and a signal sent through Podium comes back a whole number of periods later, measured by jack_iodelay; no master is a clear error")
    func playsIntoTheMastersGraph() throws {
        try #require(NetNamespace.available, "needs root and iproute2 (ip netns)")
        let m = try NetNamespace("netjm"), s = try NetNamespace("netjs")
        defer { m.remove(); s.remove() }
        try m.link(to: s, subnet: 94)
        let master = "podium-test-netmaster-\(getpid())", slave = "podium-test-netslave-\(getpid())"
        let masterServer = try LineChild(m.command(["/usr/bin/jackd", "-n", master, "-d", "dummy", "-r", "48000", "-p", "256"]))
        defer { masterServer.process.terminate(); waitForExit(masterServer.process, timeout: 10) }
        try #require(eventually(10) { JackServer.isRunning(name: master) }, "the master: \(masterServer.stderr)")

        // No master answers yet: a clear error, and podium exits.
        let alone = try run(Paths.podium, ["play", Paths.fixture("echo.csd"), "--jack-server", "net", "--net-master", "10.77.94.1",
                                           "--server", slave, "--no-watch", "--no-session", "--no-web", "--no-osc", "--no-repl"], timeout: 60)
        #expect(alone.status != 0 && alone.stderr.contains("no netJACK2 master answered within 15 s at 10.77.94.1:19000")
                && alone.stderr.contains("jack_load netmanager"), "\(alone.stderr)")

        let load = try run("/usr/sbin/ip", ["netns", "exec", m.name, "/usr/bin/jack_load", "-s", master, "netmanager"], timeout: 20)
        try #require(load.status == 0, "jack_load netmanager: \(load.stdout) \(load.stderr)")

        let pod = try LineChild(s.command([Paths.podium, "play", Paths.fixture("echo.csd"), "--jack-server", "net", "--net-master", "10.77.94.1",
                                           "--net-latency", "2", "--server", slave, "--name", "podnet",
                                           "--no-watch", "--no-session", "--no-web", "--no-osc"]))
        defer { pod.finish(":quit", timeout: 20) }
        #expect(eventually(30) { pod.stderr.contains("podium: playing") }, "\(pod.stderr)")
        #expect(pod.stderr.contains("started a netJACK2 slave \"\(slave)\": its master answered (48000 Hz, period 256, netJACK2 latency 2 periods)")
                && pod.stderr.contains("the client \"podnet\""), "\(pod.stderr)")
        let ports = try run("/usr/bin/jack_lsp", [], environment: ["JACK_DEFAULT_SERVER": master]).stdout
        #expect(ports.contains("podnet:from_slave_1") && ports.contains("podnet:to_slave_1"), "the master's graph: \(ports)")

        // The round trip on the master alone, then through Podium on the other machine.
        let direct = try IODelay(server: master)
        defer { direct.stop() }
        #expect(eventually(5) { ((try? run("/usr/bin/jack_lsp", [], environment: ["JACK_DEFAULT_SERVER": master]).stdout) ?? "").contains("jack_delay:out") })
        try Self.connect(master, "jack_delay:out", "jack_delay:in")
        let alone256 = direct.roundTrip(timeout: 10)
        try Self.connect(master, "jack_delay:out", "podnet:to_slave_1")
        let r = try run("/usr/bin/jack_disconnect", ["jack_delay:out", "jack_delay:in"], environment: ["JACK_DEFAULT_SERVER": master], timeout: 10)
        #expect(r.status == 0)
        try Self.connect(master, "podnet:from_slave_1", "jack_delay:in")
        Thread.sleep(forTimeInterval: 1)   // the direct loop's last measurement is gone
        let through = direct.roundTrip(timeout: 15)
        print("netJACK2 (latency 2): round trip on the master \(alone256.map { "\($0)" } ?? "none") frames, through podium on the slave \(through.map { "\($0)" } ?? "none") frames")
        let base = try #require(alone256, "jack_iodelay on the master alone: \(direct.child.stdout.suffix(300))")
        let net = try #require(through, "jack_iodelay through podium: \(direct.child.stdout.suffix(300))")
        let added = (net - base) / 256
        #expect(added == added.rounded() && added >= 2 && added <= 8, "netJACK2 added \(added) periods (\(net) − \(base) frames)")
    }
}
}
