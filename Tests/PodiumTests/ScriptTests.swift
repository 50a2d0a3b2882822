import Foundation
import PodiumPatterns
import PodiumHost
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing

/// Scripts (`--script`): the examples' demos parse, `:load` swaps an instrument at its time.
extension JackSuites {
@Suite("Scripts", .serialized)
final class ScriptTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    @Test("every example's demo parses; synth's (the main job's) is about 30 s and hot-swaps its voice mid-way")
    func examples() throws {
        let dir = URL(fileURLWithPath: Paths.orchestra("synth.csd")).deletingLastPathComponent()
        let scripts = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".script") }
        #expect(scripts.count >= 6)
        for name in scripts { #expect(throws: Never.self) { try Script(contentsOf: dir.appendingPathComponent(name).path) } }
        let demo = try Script(contentsOf: Paths.orchestra("synth.script"))
        #expect(demo.steps.last?.action == .quit && (28...35).contains(demo.steps.last?.time ?? 0))
        // Its patterns (drums on the default kit's samples, a bassline) are Tidal's words.
        let patterns = demo.steps.compactMap { if case let .pattern(text) = $0.action { return text }; return nil }
        #expect(patterns.count >= 6)
        for text in patterns { #expect(throws: Never.self, "\(text)") { try PatternLanguage().statement(text) } }
        let loads = demo.steps.filter { if case .load = $0.action { return true }; return false }
        #expect(loads.count == 1 && (10...20).contains(loads[0].time), "\(loads)")
        #expect(loads.first.map { if case let .load(path) = $0.action { return path == dir.appendingPathComponent("synth-lead.orc").path }; return false } == true)
    }

    @Test(":load takes a file beside the script, says which line names a missing one, and knows its commands")
    func loadParsing() throws {
        #expect(try Script(text: "@2 :load lead.orc", path: "/x/y/demo.script").steps.first?.action == .load(path: "/x/y/lead.orc"))
        #expect(try Script(text: "@2 :load /abs/lead.orc", path: "/x/demo.script").steps.first?.action == .load(path: "/abs/lead.orc"))
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("s.script").path
        try "@0 i1 0 1\n@1 :load nosuch.orc\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect { try Script(contentsOf: path) } throws: { "\($0)" == "\(path):2: no such file: \(dir.path)/nosuch.orc" }
        #expect { try Script(text: ":load") } throws: { "\($0)".hasSuffix(":1: expected :load FILE") }
        #expect { try Script(text: ":play x") } throws: { "\($0)".contains("known: :set, :load, :tempo, :quant, :quit") }
    }

    @Test("a script's chord gives its instrument every p-field it reads (no warning per note); a plain i line is sent as written")
    func chordPFields() throws {
        let driver = JackDriver(source: .text(orchestra: JackSuites.JackDriverTests.orchestra, score: "", name: "chords.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        _ = try driver.compileAndWait("instr 7\n iamp = p5 > 0 ? p5 : 0.1\n outs a(0), a(0)\nendin\n", source: "test")
        let before = driver.journal.count
        let script = try Script(text: "@0 chord c4 maj 0 0.1 7\n@0.1 i7 0 0.1 440\n")
        #expect(ScriptPlayer(script: script, driver: driver).run(startFrame: driver.frameTime, sampleRate: driver.engine.sampleRate, shouldStop: { false }))
        #expect(eventually(2) { driver.journal.follow(nil).lines.dropFirst(before).filter { $0.contains(" event 7.0 ") }.count == 4 })
        let events = driver.journal.follow(nil).lines.dropFirst(before).filter { $0.contains(" event 7.0 ") }
        #expect(events.prefix(3).allSatisfy { $0.split(separator: " ").count == 2 + 5 }, "chord notes with p1…p5: \(events)")
        #expect(events.last?.split(separator: " ").count == 2 + 4, "the i line as written: \(events)")
    }

    @Test("a script's :load compiles the file at its time: new notes use the new instrument")
    func loadSwaps() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try "instr 2\n  a1 linseg 0.7, p3, 0.7\n  outs a(0), a1\nendin\n".write(to: dir.appendingPathComponent("louder.orc"), atomically: true, encoding: .utf8)
        let script = try Script(text: "@0 i2 0 0.3 0.25\n@0.6 :load louder.orc\n@1.2 i2 0 0.3 0.25\n", path: dir.appendingPathComponent("s.script").path)
        let driver = JackDriver(source: .text(orchestra: JackSuites.JackDriverTests.orchestra, score: "", name: "script.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 3)
        try capture.connect(from: "podium:out_2", channel: 0)
        capture.start()
        let player = ScriptPlayer(script: script, driver: driver)
        let problems = Printed()
        player.onProblem = { problems.add($0) }
        #expect(player.run(startFrame: driver.frameTime, sampleRate: driver.engine.sampleRate, shouldStop: { false }))
        Thread.sleep(forTimeInterval: 0.6)
        capture.stopRecording()
        #expect(problems.lines.isEmpty, "\(problems.lines)")
        let levels = Set(capture.samples(0).map { ($0 * 100).rounded() / 100 })
        #expect(levels.contains(0.25) && levels.contains(0.7), "before the load p4, after it the new instrument's 0.7: \(levels.sorted().suffix(4))")
        #expect(driver.journal.follow(nil).lines.contains { $0.contains(" compile ") && $0.contains("louder.orc") })
    }
}
}
