import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import Testing

/// What a TouchOSC "Simple" layout sends, page by page (REFERENCE.md).
enum TouchOSCSimple {
    static let addresses: Set<String> = Set(
        (1...5).map { "/1/fader\($0)" } + (1...4).map { "/1/toggle\($0)" } + (1...16).map { "/2/push\($0)" }
            + ["/3/xy", "/4/multitoggle", "/accxyz"])
}

/// One example orchestra, what its map's comment promises, sent as TouchOSC would send it.
struct MapCase: Sendable, CustomTestStringConvertible {
    var orchestra: String
    /// `ADDRESS f:V …` lines.
    var messages: [String]
    /// Channel values afterwards.
    var channels: [String: Double]
    var testDescription: String { orchestra }
}

extension JackSuites {
@Suite("Example OSC maps against TouchOSC's default layout", .serialized)
final class ExampleMapTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let cases: [MapCase] = [
        MapCase(orchestra: "sine", messages: ["/1/fader1 f:0.5", "/1/fader2 f:1"], channels: ["amp": 0.25, "freq": 1760]),
        MapCase(orchestra: "looper", messages: ["/1/toggle1 f:0", "/1/fader1 f:0.75", "/1/fader2 f:0.25", "/1/fader3 f:0.5", "/1/fader4 f:0.5"],
                channels: ["play": 0, "speed": 1, "loopstart": 0.25, "loopend": 0.5, "level": 0.5]),
        MapCase(orchestra: "motion", messages: ["/accxyz f:0.5 f:-0.5 f:1", "/1/fader1 f:0.25", "/1/fader4 f:0.75", "/1/fader5 f:0.25"],
                channels: ["accelerometerX": 0.5, "accelerometerY": -0.5, "accelerometerZ": 1, "level": 0.25, "gyroX": 5, "gyroZ": -5]),
        MapCase(orchestra: "organ", messages: (1...5).map { "/1/fader\($0) f:0.5" } + ["/1/toggle1 f:0", "/1/toggle2 f:1", "/1/toggle3 f:0", "/1/toggle4 f:1"],
                channels: ["drawbar1": 4, "drawbar2": 4, "drawbar3": 4, "drawbar4": 4, "drawbar5": 4, "perc": 0, "vibrato": 1, "rotary": 0, "rotaryfast": 1]),
        MapCase(orchestra: "synth", messages: ["/1/fader2 f:0.5", "/1/fader3 f:0.5", "/1/fader5 f:0.5", "/1/toggle1 f:0", "/1/toggle2 f:1", "/1/toggle3 f:1",
                                               "/3/xy f:0.25 f:0.75", "/4/multitoggle/1/3 f:1", "/4/multitoggle/2/8 f:1", "/4/multitoggle/1/1 f:0",
                                               "/4/multitoggle/3/2 f:1", "/4/multitoggle/6/8 f:0", "/synth/pie f:1 f:1 f:2"],
                channels: ["reverbmix": 0.5, "distortion": 0.5, "drums": 0, "eqbypass": 1, "distbypass": 1, "timbre": 0.25, "delaymix": 0.75,
                           "kick_3": 1, "kick_16": 1, "kick_1": 0, "snare_2": 1, "hat_16": 0,
                           "osc_shape": 0.25, "osc_saw": 0.25, "osc_sub": 0.5]),
        MapCase(orchestra: "tonematrix", messages: ["/4/multitoggle/2/3 f:1", "/1/fader1 f:1", "/1/fader2 f:0.5"],
                channels: ["cell_2_3": 1, "podium.tempo": 240, "volume": 0.5]),
    ]

    @Test("every example map binds only TouchOSC Simple addresses (or its own, documented ones)")
    func addressesExist() throws {
        let own: Set<String> = ["/tonematrix/grid", "/synth/pie"]
        for file in try FileManager.default.contentsOfDirectory(atPath: Paths.orchestra("")).filter({ $0.hasSuffix(".oscmap.yaml") }) {
            let map = try OSCMap(contentsOf: Paths.orchestra(file))
            for address in map.controls.keys { #expect(TouchOSCSimple.addresses.contains(address) || own.contains(address), "\(file): \(address)") }
        }
        #expect(Set(ExampleMapTests.cases.map { $0.orchestra + ".oscmap.yaml" }) ==
                Set(try FileManager.default.contentsOfDirectory(atPath: Paths.orchestra("")).filter { $0.hasSuffix(".oscmap.yaml") }), "a case per map")
    }

    @Test("each map does what its comment says, with no error reply", arguments: ExampleMapTests.cases)
    func mapDoesWhatItSays(_ c: MapCase) throws {
        let path = Paths.orchestra(c.orchestra + ".csd")
        let driver = JackDriver(source: .csd(path: path), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: try OSCMap(contentsOf: Paths.orchestra(c.orchestra + ".oscmap.yaml")))
        osc.start()
        defer { osc.stop() }
        try send(c.messages, to: osc.port)
        for (name, value) in c.channels.sorted(by: { $0.key < $1.key }) {
            #expect(eventually(2) { abs(((try? driver.engine.control(name)) ?? .nan) - value) < 1e-4 },
                    "\(c.orchestra): \(name) = \((try? driver.engine.control(name)).map { "\($0)" } ?? "?"), expected \(value)")
        }
        let s = osc.stats
        #expect(s.unknownAddresses == 0 && s.badArguments == 0 && s.unknownTargets == 0, "\(c.orchestra): \(s.summary)")
        #expect(s.notesInPlace == 0, "\(c.orchestra): \(s.summary)")
        // A map binds no note address: notes are still read in place, not by liblo.
        // The statistics are published when the socket runs dry, and an orchestra's own score
        // also posts commands: wait for the note's datagram to be counted, then for its command.
        let commands = driver.stats.commands
        try send(["/podium/event i:1 f:0 f:0.1 f:0.01"], to: osc.port)
        #expect(eventually(2) { osc.stats.notesInPlace == 1 }, "\(c.orchestra): the note was not read in place: \(osc.stats.summary)")
        #expect(eventually(2) { driver.stats.commands > commands }, "\(c.orchestra): the note was not played: \(osc.stats.summary)")
        #expect(osc.stats.unknownTargets == 0 && osc.stats.datagrams == c.messages.count + 1, "\(c.orchestra): \(osc.stats.summary)")
    }

    @Test("organ: page 2's push buttons hold notes of a C major scale while pressed")
    func organPushes() throws {
        // The orchestra without its demo score: only the buttons play instr 1.
        let organ = CSDSections(try Engine.read(Paths.orchestra("organ.csd"))).orchestra
        let driver = JackDriver(source: .text(orchestra: organ, score: nil, name: "organ.orc"), jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: try OSCMap(contentsOf: Paths.orchestra("organ.oscmap.yaml")))
        osc.start()
        defer { osc.stop() }
        func active() -> Double {
            _ = try? driver.evaluate("chnset active(1), \"podium.test.active\"\n")
            return (try? driver.engine.control("podium.test.active")) ?? -1
        }
        #expect(active() == 0)
        try send(["/2/push1 f:1", "/2/push8 f:1"], to: osc.port)
        #expect(eventually(2) { active() == 2 }, "C4 and C5 held")
        try send(["/2/push1 f:0", "/2/push8 f:0"], to: osc.port)
        #expect(eventually(3) { active() == 0 }, "released")
        #expect(osc.stats.unknownTargets == 0 && osc.stats.badArguments == 0, "\(osc.stats.summary)")
    }

    /// Sends each `ADDRESS ARG…` line with python-osc, in order.
    func send(_ lines: [String], to port: UInt16) throws {
        let input = lines.map { "message \($0)" }.joined(separator: "\n") + "\n"
        let r = try run("/bin/sh", ["-c", "printf '%s' \"$0\" | python3 '\(Paths.fixture("osc_client.py"))' \(port) serve", input])
        #expect(r.status == 0, "\(r.stderr)")
    }
}
}
