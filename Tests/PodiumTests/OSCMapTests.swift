import CJack
import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSurfaces
import Testing

/// The OSC surface through an orchestra's map (the TouchOSC-style session, and maps that are wrong).
extension JackSuites.OSCTests {
    @Test("a TouchOSC session through a map: fader levels change the captured audio; toggle, momentary, xy, multitoggle events, accelerometer")
    func mappedSession() throws {
        let orchestra = Self.orchestra + """

        instr 30 ; a sine whose level is the "level" channel, on output 1
          a1 oscili chnget:k("level"), 440
          outs a1, a(0)
        endin
        """
        let driver = JackDriver(source: .text(orchestra: orchestra, score: nil, name: "map.orc"),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: try OSCMap(yaml: Self.map))
        osc.start()
        defer { osc.stop() }
        #expect(eventually(1) { (try? driver.engine.control("freq")) == 220 }, "the map's default")
        try driver.makeProducer().event([30, 0, 60])
        try driver.makeProducer().event([3, 0, 60])
        let capture = try CaptureClient(server: server.name, channels: 2, seconds: 3)
        try capture.connect(from: "podium:out_1", channel: 0)
        try capture.connect(from: "podium:out_2", channel: 1)
        func rms() -> Double {
            capture.record(seconds: 0.3)
            let s = capture.samples(0).suffix(4800)
            return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(s.count, 1))).squareRoot()
        }
        _ = try python(["\(osc.port)", "message", "/1/fader1", "f:0.2"])   // → level 0.1
        Thread.sleep(forTimeInterval: 0.1)
        let quiet = rms()
        _ = try python(["\(osc.port)", "message", "/1/fader1", "f:0.8"])   // → level 0.4
        Thread.sleep(forTimeInterval: 0.1)
        let loud = rms()
        #expect(abs(quiet - 0.1 / 2.0.squareRoot()) < 0.01, "rms \(quiet)")
        #expect(abs(loud - 0.4 / 2.0.squareRoot()) < 0.01, "rms \(loud)")

        _ = try python(["\(osc.port)", "message", "/1/fader2", "f:0.5"])
        #expect(eventually(1) { abs(((try? driver.engine.control("freq")) ?? 0) - 440) < 1e-9 }, "exp curve: halfway from 110 to 1760 is 440")
        _ = try python(["\(osc.port)", "message", "/1/toggle1", "f:0.7"])
        #expect(eventually(1) { (try? driver.engine.control("fader1")) == 1 })
        for _ in 0..<3 {
            _ = try python(["\(osc.port)", "message", "/2/push1", "f:1"])
            _ = try python(["\(osc.port)", "message", "/2/push1", "f:0"])
        }
        #expect(eventually(1) { (try? driver.engine.control("buttonSeen")) == 3 }, "momentary: one k-cycle per press")
        _ = try python(["\(osc.port)", "message", "/3/xy", "f:0.25", "f:0.75"])
        #expect(eventually(1) { (try? driver.engine.control("xy_x")) == 25 && (try? driver.engine.control("xy_y")) == 75 })
        _ = try python(["\(osc.port)", "message", "/accxyz", "f:0", "f:1", "f:-1"])
        #expect(eventually(1) { (try? driver.engine.control("accelerometerX")) == 0.5 && (try? driver.engine.control("accelerometerZ")) == 0 })
        capture.start()
        _ = try python(["\(osc.port)", "message", "/4/multitoggle/2/5", "f:1"])
        _ = try python(["\(osc.port)", "message", "/4/multitoggle/2/5", "f:0"])
        Thread.sleep(forTimeInterval: 0.2)
        capture.stopRecording()
        #expect(capture.onsets(1).count == 1, "a multitoggle press plays one event")
    }

    @Test("maps that are wrong say where and why")
    func badMaps() throws {
        #expect(throws: OSCMap.LoadError.self) { try OSCMap(yaml: "controls:\n  /1/fader1: { channel: amp, mode: wobble }\n") }
        do { _ = try OSCMap(yaml: "controls:\n  /1/fader1: { channel: amp, mode: wobble }\n", path: "x.yaml") } catch {
            #expect("\(error)".hasPrefix("x.yaml: "))
            #expect("\(error)".contains("wobble"))
        }
        #expect(throws: OSCMap.LoadError(path: "m", message: "/3/xy: xy needs channels: [x, y]")) {
            try OSCMap(yaml: "controls:\n  /3/xy: { mode: xy, channel: a }\n", path: "m")
        }
        #expect(throws: OSCMap.LoadError(path: "m", message: "/1/f: an exp curve needs an output range above 0")) {
            try OSCMap(yaml: "controls:\n  /1/f: { channel: a, curve: exp, to: [0, 1] }\n", path: "m")
        }
        #expect(throws: OSCMap.LoadError.self) { try OSCMap(yaml: "controls: [unclosed\n") }
        let driver = JackDriver(source: .text(orchestra: Self.orchestra, score: nil, name: "osc.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        #expect(throws: OSCMap.LoadError(path: "OSC map", message: "channels the orchestra does not declare: cutoff (declare them with chn_k)")) {
            _ = try OSCSurface(driver: driver, options: OSCOptions(port: 0), map: try OSCMap(yaml: "controls:\n  /1/f: { channel: cutoff }\n"))
        }
    }
}
