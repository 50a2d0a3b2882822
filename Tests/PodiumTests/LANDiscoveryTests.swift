import Foundation
import PodiumDiscovery
import PodiumOSC
import PodiumProbe
import Testing

/// What is published, and where (no daemon needed).
@Suite("LAN discovery: what is published")
struct LANPlanTests {
    @Test("loopback publishes nothing; 0.0.0.0 all interfaces; a LAN address its interface; an address not on this machine nothing; names cut at 63 bytes")
    func plan() {
        let osc = LANService(type: "_osc._udp", port: 7770), page = LANService(type: "_http._tcp", port: 7780, txt: ["path=/"])
        let index: (String) -> Int32? = { ["10.0.0.5": 3, "10.0.0.6": 3, "192.168.1.2": 4][$0] }
        func plan(_ o: String, _ p: String) -> [String] {
            LANPlan.entries([.init(service: osc, bind: o), .init(service: page, bind: p)], interfaceIndex: index)
                .map { "\($0.service.type)@\($0.interface.map(String.init) ?? "all")" }
        }
        #expect(plan("127.0.0.1", "127.0.0.1") == [])
        #expect(plan("0.0.0.0", "127.0.0.1") == ["_osc._udp@all"])
        #expect(plan("10.0.0.5", "192.168.1.2") == ["_osc._udp@3", "_http._tcp@4"])
        #expect(plan("10.9.9.9", "0.0.0.0") == ["_http._tcp@all"], "an address not on this machine")
        #expect(InterfaceAddresses.interfaceIndex(holding: "127.0.0.1") != nil && InterfaceAddresses.interfaceIndex(holding: "not an address") == nil)
        let long = AvahiPublisher.instanceName(String(repeating: "é", count: 40))
        #expect(long.utf8.count == 62 && long == String(repeating: "é", count: 31))
    }
}

extension JackSuites {
/// Podium on a LAN address is found by another machine's Avahi: two network namespaces joined
/// by a veth pair, an Avahi daemon in each with a D-Bus of its own (nothing on this machine's
/// network or bus); avahi-browse asks the other side's daemon.
@Suite("LAN discovery through Avahi", .serialized)
final class LANDiscoveryTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    var host: String { InterfaceAddresses.hostName ?? "" }

    func podium(in ns: NetNamespace, _ avahi: TestAvahi, name: String, extra: [String]) throws -> LineChild {
        try LineChild(ns.command([Paths.podium, "play", Paths.orchestra("synth.csd"), "--server", server.name, "--name", name,
                                  "--no-connect", "--no-watch", "--no-session"] + extra), environment: avahi.environment)
    }

    @Test("OSC and the page on LAN addresses: published once the Avahi daemon runs, found from the other side with their ports, withdrawn at the stop; loopback and --no-advertise publish nothing")
    func foundFromAnotherMachine() throws {
        try #require(TestLAN.available, "needs root, iproute2, avahi-daemon, avahi-utils and dbus-daemon")
        let lan = try TestLAN(subnet: 91)
        defer { lan.stop() }
        let (a, stage, phone) = (lan.stage, lan.stageAvahi, lan.phoneAvahi)
        try phone.startDaemon()
        let expected = "synth (podium on \(host))"

        // Podium starts before the stage's daemon: it waits for it and publishes when it comes.
        let pod = try podium(in: a, stage, name: "podlan", extra: ["--osc-bind", "10.77.91.1", "--web-bind", "0.0.0.0"])
        defer { if pod.process.isRunning { pod.finish(":quit") } }
        #expect(eventually(15) { pod.stderr.contains("waiting for the Avahi daemon") }, "\(pod.stderr)")
        try stage.startDaemon()
        #expect(eventually(10) { pod.stderr.contains("found on the LAN as “\(expected)” (_osc._udp ") && pod.stderr.contains(", _http._tcp 7780) through Avahi") }, "\(pod.stderr)")
        #expect(pod.stderr.components(separatedBy: "waiting for the Avahi daemon").count == 2, "said once: \(pod.stderr)")
        let oscPort = pod.stderr.range(of: "OSC on 10.77.91.1:").flatMap { Int(pod.stderr[$0.upperBound...].prefix { $0.isNumber }) } ?? -1
        #expect(oscPort > 0, "\(pod.stderr)")
        var osc: [(name: String, address: String, port: Int, txt: String)] = []
        var page: [(name: String, address: String, port: Int, txt: String)] = []
        _ = eventually(10) {
            osc = (try? phone.browse("_osc._udp")) ?? []
            page = (try? phone.browse("_http._tcp")) ?? []
            return osc.contains { $0.name == expected } && page.contains { $0.name == expected }
        }
        #expect(osc.contains { $0.name == expected && $0.address == "10.77.91.1" && $0.port == oscPort }, "OSC from the phone's side: \(osc)")
        #expect(page.contains { $0.name == expected && $0.address == "10.77.91.1" && $0.port == 7780 && $0.txt.contains("path=/") }, "the page: \(page)")
        #expect(!page.contains { $0.txt.contains("token") }, "the page's token is not published")

        pod.finish(":quit")
        #expect(eventually(10) { (try? phone.browse("_osc._udp")).map { $0.allSatisfy { $0.name != expected } } ?? false }, "withdrawn at the stop")
        #expect(try phone.browse("_http._tcp").allSatisfy { $0.name != expected })

        // Loopback (the default) and --no-advertise: nothing published, nothing said.
        for extra in [[String](), ["--osc-bind", "10.77.91.1", "--no-advertise", "--no-web"]] {
            let quiet = try podium(in: a, stage, name: "podquiet", extra: extra)
            #expect(eventually(15) { quiet.stderr.contains("OSC on ") }, "\(quiet.stderr)")
            Thread.sleep(forTimeInterval: 2)
            #expect(try phone.browse("_osc._udp").isEmpty && stage.browse("_osc._udp").isEmpty, "\(extra): published")
            quiet.finish(":quit")
            #expect(!quiet.stderr.contains("lan:"), "\(extra): \(quiet.stderr)")
        }
    }

    @Test("the Avahi daemon restarted under a performance: the services are withdrawn, then published again under the same name; the performance plays on; podium doctor reads the daemon, or says there is none")
    func daemonRestarted() throws {
        try #require(TestLAN.available, "needs root, iproute2, avahi-daemon, avahi-utils and dbus-daemon")
        let lan = try TestLAN(subnet: 93)
        defer { lan.stop() }
        let (a, stage, phone) = (lan.stage, lan.stageAvahi, lan.phoneAvahi)
        func doctor() throws -> String {
            let r = try run(Paths.podium, ["doctor", "--watch", "0", "--server", "\(server.name)-none"], environment: stage.environment, timeout: 60)
            return r.stdout.split(separator: "\n").first { $0.contains("LAN discovery") }.map(String.init) ?? "no LAN discovery line: \(r.stdout)"
        }
        let without = try doctor()
        #expect(without.hasPrefix("· LAN discovery: no Avahi daemon (avahi_client_new failed: Daemon not running)"), "\(without)")
        try stage.startDaemon()
        try phone.startDaemon()
        let with = try doctor()
        #expect(with.hasPrefix("✔ LAN discovery: the Avahi daemon runs (avahi ") && with.contains(" as podium-stage.local"), "\(with)")

        let expected = "synth (podium on \(host))"
        let pod = try podium(in: a, stage, name: "podrestart", extra: ["--osc-bind", "10.77.93.1", "--no-web"])
        defer { if pod.process.isRunning { pod.finish(":quit") } }
        func published() -> Bool { ((try? phone.browse("_osc._udp")) ?? []).contains { $0.name == expected && $0.address == "10.77.93.1" } }
        #expect(eventually(15) { pod.stderr.contains("found on the LAN as “\(expected)”") }, "\(pod.stderr)")
        #expect(eventually(10, published), "published before the restart")

        stage.stopDaemon()
        #expect(eventually(10) { pod.stderr.contains("the Avahi daemon went away: waiting for it to publish again") }, "\(pod.stderr)")
        #expect(eventually(10) { !published() }, "withdrawn while the stage has no daemon")
        try stage.startDaemon()
        #expect(eventually(15) { pod.stderr.components(separatedBy: "found on the LAN as “\(expected)”").count == 3 }, "published again: \(pod.stderr)")
        #expect(eventually(10, published), "found again from the phone")
        #expect(pod.process.isRunning && pod.ask(":status", every: 0.2, timeout: 5) { $0.contains(" xruns ") } != nil, "the performance plays on: \(pod.stderr)")
    }

    @Test("a second performance of the same orchestra on the LAN is published as “NAME #2”; both are found")
    func secondPerformanceTakesTheNextName() throws {
        try #require(TestLAN.available, "needs root, iproute2, avahi-daemon, avahi-utils and dbus-daemon")
        let lan = try TestLAN(subnet: 92)
        defer { lan.stop() }
        let (a, stage, phone) = (lan.stage, lan.stageAvahi, lan.phoneAvahi)
        try stage.startDaemon()
        try phone.startDaemon()
        let expected = "synth (podium on \(host))"
        let first = try podium(in: a, stage, name: "podfirst", extra: ["--osc-bind", "10.77.92.1", "--no-web"])
        defer { if first.process.isRunning { first.finish(":quit") } }
        #expect(eventually(15) { first.stderr.contains("found on the LAN as “\(expected)”") }, "\(first.stderr)")
        let second = try podium(in: a, stage, name: "podsecond", extra: ["--osc-bind", "10.77.92.1", "--no-web"])
        defer { if second.process.isRunning { second.finish(":quit") } }
        #expect(eventually(15) { second.stderr.contains("found on the LAN as “\(expected) #2”") }, "\(second.stderr)")
        var found: [(name: String, address: String, port: Int, txt: String)] = []
        _ = eventually(10) {
            found = (try? phone.browse("_osc._udp")) ?? []
            return found.count >= 2
        }
        #expect(Set(found.map(\.name)) == [expected, expected + " #2"] && Set(found.map(\.port)).count == 2, "\(found)")
    }
}
}
