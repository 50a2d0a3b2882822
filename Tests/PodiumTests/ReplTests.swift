import Foundation
import PodiumProbe
import PodiumSurfaces
import Testing

@Suite("REPL input")
struct ReplInterpreterTests {
    @Test("score lines, instr blocks, global code and commands are told apart")
    func kinds() {
        var r = ReplInterpreter()
        #expect(r.feed("i1 0 2 440") == .score(.event(instrument: .number(1), fields: [0, 2, 440])))
        #expect(r.feed("i \"bass\" 0 1 .5") == .score(.event(instrument: .name("bass"), fields: [0, 1, 0.5])))
        #expect(r.feed("f 1 0 1024 10 1") == .score(.table(fields: [1, 0, 1024, 10, 1])))
        #expect(r.feed("gkTempo init 120") == .code("gkTempo init 120\n", firstLine: 4))
        #expect(r.feed("instr 5") == .incomplete)
        #expect(r.inBlock)
        #expect(r.feed(" a1 oscili 0.1, 440") == .incomplete)
        #expect(r.feed("endin") == .code("instr 5\n a1 oscili 0.1, 440\nendin\n", firstLine: 5))
        #expect(r.feed(":set amp 0.5") == .command("set", ["amp", "0.5"]))
        #expect(r.feed("   ") == .nothing)
        #expect(r.feed("ifreq = 440") == .code("ifreq = 440\n", firstLine: 10), "an identifier, not a score line")
    }
}

extension JackSuites {
@Suite("REPL", .serialized)
final class ReplTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    chn_k "freq", 1
    chnset 440, "freq"

    instr 2
      prints "hello from the orchestra\\n"
    endin
    """

    func orchestraFile() throws -> (URL, String) {
        let dir = Paths.temporaryDirectory()
        let file = dir.appendingPathComponent("live.orc").path
        try ReplTests.orchestra.write(toFile: file, atomically: true, encoding: .utf8)
        return (dir, file)
    }

    @Test("piped stdin runs the same commands: blocks compile, errors carry their line, :help TOPIC answers from the reference tables, :quit stops")
    func piped() throws {
        let (dir, file) = try orchestraFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.txt").path
        try """
        instr 5
         a1 oscili 0.2, 330
         outs a1, a1
        endin
        i5 0 30
        instr 6
         a1 nosuch 3
        endin
        :get freq
        :help every
        :help /podium/event
        :help hush
        :help evry
        @0.3 :instruments
        instr hum
         a1 oscili 0.1, 220
         outs a1, a1
        endin
        schedule "hum", 0, 4
        @0.6 instr hum
         a1 oscili 0.1, 330
         outs a1, a1
        endin
        @4.8 :instruments
        @5 :quit
        """.write(toFile: input, atomically: true, encoding: .utf8)
        let r = try run("/bin/sh", ["-c", "'\(Paths.podium)' play '\(file)' --server \(server.name) --no-connect --osc-port 0 --no-watch < '\(input)'"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("compiled instr 5"))
        #expect(r.stdout.contains("<repl>:2: "), "\(r.stdout)")
        #expect(r.stdout.contains("freq = 440"))
        // :help TOPIC: a pattern function's signature from the language's own table, an OSC
        // address, a command, and what a misspelt name resembles.
        #expect(r.stdout.contains("every :: Pattern Int -> (Pattern a -> Pattern a) -> Pattern a -> Pattern a"), "\(r.stdout)")
        #expect(r.stdout.contains("OSC /podium/event") && r.stdout.contains("a score event"), "\(r.stdout)")
        #expect(r.stdout.contains(":hush\n  silence now: notes released"), "\(r.stdout)")
        #expect(r.stdout.contains("no help for evry; did you mean") , "\(r.stdout)")
        #expect(r.stdout.contains("instr 2 (0 active)\ninstr 5 (1 active)"), "\(r.stdout)")
        // The instr 5 typed here is the performer's own: Podium's named instruments (the synths,
        // the voice counter) are numbered after the sampler's, not 3, 4, 5 … (supersquare once
        // had 5: the typed instr replaced it, and its count was instr 5's note).
        #expect(r.stdout.contains("instr \"supersquare\" (0 active)"), "\(r.stdout)")
        // A named instr replaced while its note played: Csound 6.18 counts that note's end against
        // the new definition (-1); the REPL says the count is unknown, never "-1 active".
        #expect(r.stdout.contains("instr \"hum\" (active: unknown; a hot swap replaced it while it played"), "\(r.stdout)")
        #expect(!r.stdout.contains("-1 active"), "\(r.stdout)")
    }

    @Test("in a real terminal: a typed instrument plays, a broken one keeps the sound going, completion, output above the prompt, Ctrl-C")
    func terminal() throws {
        let tmux = try Tmux()
        let (dir, file) = try orchestraFile()
        defer { try? FileManager.default.removeItem(at: dir) }
        let command = "PODIUM_HISTORY='\(dir.path)/history' '\(Paths.podium)' play '\(file)' --server \(server.name) --name podrepl --no-connect --osc-port 0 --no-watch"
        try tmux.start(command)
        defer { tmux.kill() }
        func keys(_ k: String...) throws { try tmux.keys(k) }
        func screen() throws -> String { try tmux.screen() }
        #expect(eventually(5) { ((try? screen()) ?? "").contains("podium ") && ((try? screen()) ?? "").contains("▸") })
        // On a terminal, the start says what to do next: OSC for a phone, the REPL.
        let opening = try screen()
        #expect(opening.contains("For TouchOSC on a phone: podium play … --osc-bind"), "\(opening)")
        #expect(opening.contains(":help for the commands"), "\(opening)")
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 6)
        #expect(eventually(3) { (try? capture.connect(from: "podrepl:out_1", channel: 0)) != nil })

        try keys("instr 1", "Enter", " a1 oscili 0.3, chnget:k(\"freq\")", "Enter", " outs a1, a1", "Enter", "endin", "Enter")
        #expect(eventually(5) { ((try? screen()) ?? "").contains("compiled instr 1") }, "\((try? screen()) ?? "")")
        capture.start()
        try keys("i1 0 60", "Enter")
        // A broken redefinition: the error with its line; the sine goes on.
        try keys("instr 1", "Enter", " a1 nosuch 0.3", "Enter", "endin", "Enter")
        let afterBroken = try screen()
        #expect(afterBroken.contains("<repl>:2: "), "\(afterBroken)")
        // Completion offers a channel name.
        try keys(":get fre", "Tab")
        let completed = try screen()
        #expect(completed.contains(":get freq"), "\(completed)")
        try keys("Enter")
        #expect(try screen().contains("freq = 440"))
        // Console output while typing leaves the typed line intact.
        try keys("i1 0")
        _ = try run(which("oscsend") ?? "/usr/bin/oscsend", ["127.0.0.1", "\(try oscPort(screen()))", "/podium/event", "iff", "2", "0", "0.01"])
        Thread.sleep(forTimeInterval: 0.5)
        let lines = try screen().split(separator: "\n").map(String.init).filter { !$0.isEmpty }
        #expect(lines.contains { $0.contains("hello from the orchestra") })
        #expect(lines.last?.hasSuffix("▸ i1 0") == true, "typed line intact: \(lines.last ?? "")")
        // Ctrl-C clears the line and never stops the music.
        try keys("C-c")
        Thread.sleep(forTimeInterval: 0.5)
        capture.stopRecording()
        #expect(try screen().contains("^C"))
        let s = capture.samples(0)
        #expect(s.count > 48000, "\(s.count) frames")
        // The sine plays through the broken compile and the Ctrl-C: no silent stretch after it started.
        let start = s.firstIndex { abs($0) > 0.01 } ?? s.count
        var longestSilence = 0, silentRun = 0
        for v in s[start...] { if abs(v) < 1e-6 { silentRun += 1; longestSilence = max(longestSilence, silentRun) } else { silentRun = 0 } }
        #expect(start < s.count && longestSilence < 200, "longest silence \(longestSilence) frames")
        #expect(abs(estimatedFrequency(Array(s[start...]), sampleRate: 48000) - 440) < 3)
        try keys(":quit", "Enter")
    }

    func oscPort(_ screen: String) throws -> UInt16 {
        let line = try #require(screen.split(separator: "\n").first { $0.contains("OSC on 127.0.0.1:") })
        return try #require(UInt16(line.split(separator: ":").last!.prefix { $0.isNumber }))
    }
}
}
