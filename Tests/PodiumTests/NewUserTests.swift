import Foundation
import PodiumEngine
import PodiumHost
@testable import PodiumOSC
import PodiumProbe
import PodiumSurfaces
import Testing

@Suite("Tried as a new user would: helpers")
struct NewUserUnitTests {
    @Test("the p-fields an instrument reads, from its text: synth.csd's instr 1 reads p5 (its amplitude, optional)")
    func pfieldsUsed() throws {
        let synth = CSDSections(try Engine.read(Paths.orchestra("synth.csd"))).orchestra
        #expect(PFields.used(by: .number(1), in: [synth]) == 5)
        #expect(PFields.used(by: .number(20), in: [synth]) == 3)
        #expect(PFields.used(by: .number(7), in: [synth]) == nil)
        #expect(PFields.used(by: .name("pad"), in: ["instr pad\n a1 oscili p4, p7 ; p9 in a comment\nendin\n"]) == 7)
        let padded = PFields.padded(.event(instrument: .number(1), fields: [0, 2, 261.6]), orchestras: [synth])
        #expect(padded == .event(instrument: .number(1), fields: [0, 2, 261.6, 0]))
    }

    @Test("repeated OSC errors: the first at once, then one summary a second per sender and address, with the count")
    func repeatedErrors() {
        var e = RepeatedErrors()
        let a = Endpoint(address: 0x7F00_0001, port: 9000)
        let t0 = ContinuousClock.now
        #expect(e.admit("unknown channel x", address: "/accxyz", target: a, now: t0) == "unknown channel x")
        for k in 1...49 { #expect(e.admit("unknown channel x", address: "/accxyz", target: a, now: t0 + .milliseconds(k * 20)) == nil) }
        #expect(e.admit("other", address: "/1/fader9", target: a, now: t0 + .milliseconds(500)) == "other", "another address is its own")
        #expect(e.due(now: t0 + .milliseconds(990)).isEmpty)
        let due = e.due(now: t0 + .milliseconds(1100))  // swept ten times a second
        #expect(due.count == 1 && due[0].1 == "unknown channel x (49 times since the last report)")
        #expect(e.due(now: t0 + .milliseconds(3000)).isEmpty)
    }
}

/// What a performer meets in the first minutes with the example orchestras.
extension JackSuites {
@Suite("Tried as a new user would", .serialized)
final class NewUserTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// `podium play ORCHESTRA` with `lines` piped on stdin (ends within 20 s whatever happens).
    func piped(_ orchestra: String, _ lines: String) throws -> ProcessResult {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.txt").path
        try lines.write(toFile: input, atomically: true, encoding: .utf8)
        return try run("/bin/sh", ["-c", "timeout -k 2 20 '\(Paths.podium)' play '\(orchestra)' --server \(server.name) --no-connect --no-osc --no-watch < '\(input)'"])
    }

    func python(_ args: [String]) throws -> ProcessResult {
        let r = try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture("osc_client.py")] + args)
        #expect(r.status == 0, "python-osc client: \(r.stderr)")
        return r
    }

    func synth() throws -> (JackDriver, OSCSurface) {
        let driver = JackDriver(source: .csd(path: Paths.orchestra("synth.csd")), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: try OSCMap(contentsOf: Paths.orchestra("synth.oscmap.yaml")))
        osc.start()
        return (driver, osc)
    }

    @Test(":set tempo abc says the value is not a number (tempo exists); over OSC too")
    func setNotANumber() throws {
        let r = try piped(Paths.orchestra("synth.csd"), ":set tempo abc\n:set nosuch 1\n:quit\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("tempo is a control channel: abc is not a number"), "\(r.stdout)")
        #expect(r.stdout.contains("unknown channel \"nosuch\""))
        let (driver, osc) = try synth()
        defer { osc.stop(); driver.stop() }
        let reply = try python(["\(osc.port)", "ask", "/podium/chn/tempo", "s:abc"])
        #expect(reply.stdout.contains("tempo is a control channel: \"abc\" is not a number"), "\(reply.stdout)")
    }

    @Test("chord c4 maj7 0 2 in synth.csd plays with no warning per note: the helper gives instr 1 its p5")
    func chordPFields() throws {
        let r = try piped(Paths.orchestra("synth.csd"), "chord c4 maj7 0 2\n@0.5 :quit\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("p-fields but is given"), "\(r.stderr)")
    }

    @Test("synth.csd over OSC: /3/xy 0.2 0.9 sets both channels and is echoed with both values (TouchOSC's XY pad follows)")
    func xyEcho() throws {
        let (driver, osc) = try synth()
        defer { osc.stop(); driver.stop() }
        let r = try python(["\(osc.port)", "stream", "1", "50", "0.3", "/3/xy", "f:0.25", "f:0.75"])
        let echoes = r.stdout.split(separator: "\n").filter { $0.contains(" /3/xy ") }
        #expect(echoes.count == 1 && echoes[0].hasSuffix("/3/xy 0.25 0.75"), "\(r.stdout)")
        #expect(eventually(1) { (try? driver.engine.control("timbre")) == 0.25 && (try? driver.engine.control("delaymix")) == 0.75 })
    }

    @Test("/accxyz streamed at 50 Hz to an orchestra without those channels: one error, then a summary a second, not three a message")
    func accelerometerFlood() throws {
        let (driver, osc) = try synth()
        defer { osc.stop(); driver.stop() }
        let r = try python(["\(osc.port)", "stream", "75", "50", "1.2", "/accxyz", "f:0.1", "f:0.2", "f:0.3"])
        let errors = r.stdout.split(separator: "\n").filter { $0.contains("/podium/error") }
        #expect((2...4).contains(errors.count), "\(errors.count) replies for 75 messages: \(r.stdout)")
        #expect(errors.first?.contains("unknown channel \"accelerometerX\"") == true)
        #expect(errors.first?.contains("accelerometerZ") == true, "one reply names the three channels")
        #expect(errors.dropFirst().contains { $0.contains("times since the last report") })
        // The client may exit before the OSC thread has read its last datagram.
        #expect(eventually(1) { osc.stats.messages == 77 }, "75, /podium/subscribe and unsubscribe: \(osc.stats.messages)")
    }
}
}
