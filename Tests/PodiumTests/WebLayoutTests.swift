import Foundation
import PodiumEngine
@testable import PodiumHost
import PodiumOSC
@testable import PodiumRealtime
import PodiumWeb
import Testing

/// The stage page's layout rules, the pie's and the push's rules, and the meters' level
/// storage, without a server (the browser tests are in WebTests and WebWidgetTests).
@Suite("stage page layout")
struct WebLayoutTests {
    static func channel(_ name: String, _ min: Double = 0, _ max: Double = 1, curve: ChannelInfo.Curve = .linear,
                        place: ChannelInfo.Place? = nil, attributes: String? = nil, ranged: Bool = true) -> ChannelInfo {
        ChannelInfo(name: name, kind: .control, isInput: true, isOutput: false,
                    range: ranged ? ChannelInfo.Range(minimum: min, maximum: max, defaultValue: min, curve: curve) : nil,
                    place: place, attributes: attributes)
    }

    @Test("a map's pie, keys and channel push; chn_k places and names controls; numbered faders stay together; a stray kick_0 is no control")
    func layout() throws {
        let map = try OSCMap(yaml: """
        controls:
          /1/fader1: { channel: bar1 }
          /2/push1: { mode: push, event: { instr: 1, note: 64 } }
          /2/push2: { mode: push, event: { instr: 1, note: 61 } }
          /2/push3: { channel: gate, mode: push }
          /5/pie: { mode: pie, channels: [a, b, c], total: 2 }
          /4/multitoggle: { mode: multitoggle, channels: [kick], steps: 4 }
        """)
        var channels = ["bar1", "bar3", "bar2", "chorus", "gate", "a", "b", "c", "kick_1", "kick_2", "kick_3", "kick_4"].map { WebLayoutTests.channel($0) }
        channels.append(WebLayoutTests.channel("kick_0", ranged: false))
        channels.append(WebLayoutTests.channel("freq", 20, 2000, curve: .exponential, place: .init(x: 10, y: 20, width: 100, height: 120),
                                               attributes: #"label="Pitch knob" widget=fader"#))
        let l = WebLayout(orchestra: "t.csd", channels: channels, map: map)
        let all = l.groups.flatMap(\.controls)
        #expect(l.groups.first?.title == "stage" && l.groups.first?.placed == true)
        let freq = try #require(l.groups.first?.controls.first)
        #expect(freq.channels == ["freq"] && freq.label == "Pitch knob" && freq.widget == "fader" && freq.place == .init(x: 10, y: 20, width: 100, height: 120))
        #expect(l.groups.first { $0.title == "controls" }?.controls.map(\.label) == ["bar1", "bar2", "bar3", "chorus"])
        let pie = try #require(all.first { $0.widget == "pie" })
        #expect(pie.channels == ["a", "b", "c"] && pie.total == 2 && pie.id == "/5/pie")
        let keys = all.filter { $0.widget == "push" && $0.note != nil }
        #expect(keys.map(\.label) == ["C♯4", "E4"] && keys.map(\.id) == ["/2/push2", "/2/push1"], "in pitch order, named")
        #expect(all.contains { $0.widget == "push" && $0.channels == ["gate"] && $0.id == "/2/push3" })
        #expect(!all.flatMap(\.channels).contains("kick_0"), "a stray cell")
        #expect(l.inputChannels.isSuperset(of: ["a", "b", "c", "gate", "freq"]))
    }

    @Test("a pie's shares: proportions of its total; wrong counts, negative, non-finite or all-zero values refused in words")
    func pieShares() throws {
        let map = try OSCMap(yaml: "controls:\n  /p: { mode: pie, channels: [a, b, c, d], total: 2 }\n")
        let pie = try #require(map.controls["/p"])
        let shares = try pie.pieShares([1, 1, 2, 0])
        #expect(shares.map(\.0) == ["a", "b", "c", "d"] && shares.map(\.1) == [0.5, 0.5, 1, 0])
        #expect(throws: InputError("a pie of 4 (a, b, c, d) needs 4 values, not 3")) { try pie.pieShares([1, 1, 1]) }
        #expect(throws: InputError("a pie's values are finite numbers, at least 0")) { try pie.pieShares([1, -1, 1, 1]) }
        #expect(throws: InputError("a pie's values are finite numbers, at least 0")) { try pie.pieShares([1, .nan, 1, 1]) }
        #expect(throws: InputError("a pie's values cannot all be 0")) { try pie.pieShares([0, 0, 0, 0]) }
        #expect(throws: InputError("a pie's values are too large: their sum is not finite")) { try pie.pieShares([.greatestFiniteMagnitude, .greatestFiniteMagnitude, 0, 0]) }
        #expect(throws: OSCMap.LoadError(path: "m", message: "/p: a pie needs channels: [a, b, …] (two or more)")) {
            try OSCMap(yaml: "controls:\n  /p: { mode: pie, channel: a }\n", path: "m")
        }
        #expect(throws: OSCMap.LoadError(path: "m", message: "/f: total: is for a pie, above 0")) {
            try OSCMap(yaml: "controls:\n  /f: { channel: a, total: 2 }\n", path: "m")
        }
    }

    @Test("a push that plays holds its own fractional instance from press to release; other controls hold no note")
    func heldNote() throws {
        let map = try OSCMap(yaml: "controls:\n  /k: { mode: push, event: { instr: 3, note: 67 } }\n  /g: { channel: g, mode: push }\n")
        let press = try #require(map.controls["/k"]?.heldNote(pressed: true))
        let release = try #require(map.controls["/k"]?.heldNote(pressed: false))
        #expect(press.instrument == 3.067 && press.fields == [0, -1, 67])
        #expect(release.instrument == -3.067 && release.fields == [0, 0])
        #expect(map.controls["/g"]?.heldNote(pressed: true) == nil)
    }

    @Test("a pie's commands go into the ring in one write: all of them, or none (counted) when they do not all fit")
    func ringWritesAll() {
        // At least 4 commands (jack_ringbuffer rounds its bytes up to a power of two).
        let ring = Ring<Command>(capacity: 4)
        #expect(ring.push(all: (0..<3).map { Command(kind: .setControl, id: UInt64($0)) }))
        var filled = 3
        while ring.push(Command(kind: .setControl, id: UInt64(100 + filled))) { filled += 1 }
        #expect(filled >= 4 && ring.overflows == 1, "\(filled) fit")
        _ = ring.pop()
        _ = ring.pop()  // room for exactly two
        #expect(!ring.push(all: (3..<6).map { Command(kind: .setControl, id: UInt64($0)) }), "three do not fit in two places")
        #expect(ring.overflows == 2)
        #expect(ring.push(all: [Command(kind: .setControl, id: 9), Command(kind: .setControl, id: 10)]))
        var ids: [UInt64] = []
        while let c = ring.pop() { ids.append(c.id) }
        #expect(ids == [2] + (3..<filled).map { UInt64(100 + $0) } + [9, 10])
    }

    @Test("output levels: a period's peak and RMS are kept until taken, then start again; several periods keep the highest peak")
    func levels() {
        let levels = OutputLevels(ports: 2)
        defer { levels.deallocate() }
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 4)
        defer { buffer.deallocate() }
        buffer.update(from: [0.5, -0.5, 0.5, -0.5], count: 4)
        levels.measure(buffer, port: 1, frames: 4)
        buffer.update(from: [0.25, -0.9, 0, 0], count: 4)
        levels.measure(buffer, port: 1, frames: 4)
        let l = levels.take(port: 1)
        #expect(abs(l.peak - 0.9) < 1e-6)
        #expect(abs(l.rms - ((4 * 0.25 + 0.0625 + 0.81) / 8).squareRoot()) < 1e-6)
        #expect(levels.take(port: 1) == (0, 0) && levels.take(port: 0) == (0, 0))
    }
}

/// `podium layout touchosc`: the stage page's widgets as a TouchOSC layout, read back by
/// `tosclib` (PyPI), the library that reads and writes TouchOSC's files.
@Suite("TouchOSC layout export")
struct TouchOSCExportTests {
    /// Each control of a .tosc file as "TYPE name path", read by tosclib.
    func controls(_ file: String) throws -> [String] {
        let script = """
        import sys, tosclib as tosc
        root = tosc.ElementTOSC(tosc.load(sys.argv[1])[0])
        print("root", root.getName(), *root.getFrame())
        for n in root:
            e = tosc.ElementTOSC(n)
            p = n.find("messages/osc/path/partial/value")
            print(n.get("type"), e.getName(), p.text if p is not None else "-", *e.getFrame())
        """
        let r = try run(which("python3") ?? "/usr/bin/python3", ["-c", script, file])
        #expect(r.status == 0, "tosclib could not read \(file): \(r.stderr.suffix(800))")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test("synth's and organ's layouts: faders, toggles, the XY pad and the keys send their OSC map's addresses; other channels /podium/chn/<name>; step grids as toggles; sine's placed knob where chn_k put it")
    func export() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-tosc-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String: [String]] = [:]
        for name in ["synth", "organ", "sine"] {
            let r = try run(Paths.podium, ["layout", "touchosc", Paths.orchestra(name + ".csd"), "-o", "\(dir)/\(name).tosc"])
            #expect(r.status == 0 && r.stderr.contains("a TouchOSC layout with"), "\(r.stderr)")
            lines[name] = try controls("\(dir)/\(name).tosc")
        }
        let synth = lines["synth"] ?? []
        #expect(synth.first?.hasPrefix("root synth.csd 0 0 1024") == true, "\(synth.first ?? "")")
        for expected in ["FADER timbre /1/fader1", "FADER volume /podium/chn/volume", "BUTTON drums /1/toggle1", "XY timbre × delaymix /3/xy",
                         "BUTTON kick_1 /podium/chn/kick_1", "BUTTON hat_16 /podium/chn/hat_16", "FADER osc_saw /podium/chn/osc_saw"] {
            #expect(synth.contains { $0.hasPrefix(expected + " ") }, "\(expected) in \(synth.count) lines")
        }
        let organ = lines["organ"] ?? []
        #expect(organ.contains { $0.hasPrefix("BUTTON C4 /2/push1 ") } && organ.contains { $0.hasPrefix("BUTTON D6 /2/push16 ") }, "\(organ)")
        #expect(organ.contains { $0.hasPrefix("FADER drawbar9 /podium/chn/drawbar9 ") })
        let sine = lines["sine"] ?? []
        #expect(sine.contains("RADIAL pitch /1/fader2 110 100 200 220"), "the placed knob: \(sine)")
        let r = try run(Paths.podium, ["layout", "touchosc", Paths.orchestra("sine.csd"), "-o", "/nonexistent-dir/x.tosc"])
        #expect(r.status != 0 && r.stderr.contains("cannot write /nonexistent-dir/x.tosc"), "\(r.stderr)")
    }
}
