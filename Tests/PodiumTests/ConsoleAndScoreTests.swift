import Foundation
@testable import PodiumEngine
import PodiumSurfaces
import Synchronization
import Testing

@Suite("Console lines")
struct ConsoleLineTests {
    @Test("the console router: a sink added with the history gets every line from the start, in order, then the next; flush returns once the sinks have what was posted")
    func routerHistoryAndFlush() {
        let router = ConsoleRouter()
        let terminal = Mutex<[String]>([]), log = Mutex<[String]>([]), late = Mutex<[String]>([])
        router.setSink("terminal", .init(minimum: .debug, batch: { lines in terminal.withLock { $0 += lines.map(\.text) } }))
        router.start()
        defer { router.stop() }
        for i in 0..<500 { router.post(ConsoleLine(level: .orchestra, text: "line \(i)")) }
        #expect(router.flush() == 0)
        router.setSink("log", .init(minimum: .debug, batch: { lines in log.withLock { $0 += lines.map(\.text) } }), history: true)
        router.setSink("late", .init(minimum: .debug, batch: { lines in late.withLock { $0 += lines.map(\.text) } }))
        router.endHistory()
        for i in 500..<600 { router.post(ConsoleLine(level: .orchestra, text: "line \(i)")) }
        #expect(router.flush() == 0)
        let all = (0..<600).map { "line \($0)" }
        #expect(terminal.withLock { $0 } == all)
        #expect(log.withLock { $0 } == all, "the history, then the next lines, once each")
        #expect(late.withLock { $0 } == Array(all[500...]), "without the history: from when it was added")
    }

    @Test("the audio thread's console ring overwrites the oldest messages when full, and the next drain says how many")
    func ringDropsOldest() throws {
        let console = Console(ringBytes: 16 * 256)   // 16 slots
        for i in 0..<100 {
            let text = "message \(i)\n"
            text.withCString { console.shared.pointee.rtRing.write(attr: 0, text: $0, length: strlen($0)) }
        }
        let lines = console.drain()
        #expect(lines.first?.text == "podium: 84 console messages from the audio thread dropped (the oldest; the console could not keep up)")
        #expect(lines.dropFirst().map(\.text) == (84..<100).map { "message \($0)" })
        #expect(console.droppedMessages == 84)
        // A long message spans slots and comes back whole.
        let long = String(repeating: "x", count: 900) + "\n"
        long.withCString { console.shared.pointee.rtRing.write(attr: 0, text: $0, length: strlen($0)) }
        #expect(console.drain().map(\.text) == [String(repeating: "x", count: 900)])
    }

    @Test("fragments join into lines; colour codes and NULs go")
    func assembly() {
        var pending: [Int: (ConsoleLine.Level, String)] = [:]
        var lines: [ConsoleLine] = []
        Console.assemble(attr: 0x1000, text: "\u{1B}[mUnexpected word", stream: 0, pending: &pending, into: &lines)
        Console.assemble(attr: 0x1000, text: " a2 \u{1B}[1m\0(line 4)\nnext", stream: 0, pending: &pending, into: &lines)
        #expect(lines == [ConsoleLine(level: .error, text: "Unexpected word a2 (line 4)")])
        #expect(pending[0]?.1 == "next")
    }

    @Test("Csound's ERROR-attributed chatter is information; real errors stay errors")
    func classification() {
        #expect(Console.classify(.error, "orch now loaded") == .info)
        #expect(Console.classify(.error, "sr = 48000.0, kr = 750.000, ksmps = 64") == .info)
        #expect(Console.classify(.error, "error: syntax error, unexpected T_IDENT") == .error)
        #expect(Console.classify(.error, "INIT ERROR in instr 1") == .error)
        #expect(Console.classify(.warning, "WARNING: x") == .warning)
    }

    @Test("line numbers in both of Csound's spellings")
    func lineNumbers() {
        let f = CompileFailure(source: "a.orc", diagnostics: ["error: syntax error", " from file a.orc (1), line 12:", "Line: 7"])
        #expect(f.lines == [12, 7])
        #expect(f.description.hasPrefix("a.orc:12: error: syntax error"))
    }
}

@Suite("Score length from Csound's sorter")
struct ScoreLengthTests {
    @Test("ends of notes, tempo and sections", arguments: [
        ("i1 0 2\ni1 1 3\n", 4.0),
        ("t 0 120\ni1 0 4\n", 2.0),
        ("i1 0 1\ni1 + .\ni1 + .\n", 3.0),
        ("f0 12\ni1 0 1\n", 12.0),
        ("i1 0 1\ns\ni1 0 2\ne\n", 3.0),
        ("i1 0 -1\ni1 2 1\n", 3.0),
    ])
    func lengths(score: String, seconds: Double) {
        #expect(ScoreLength(score: score) == .seconds(seconds))
    }

    @Test("z and empty scores never end", arguments: ["i1 0 z\n", "", "; nothing\n", "f0 z\n"])
    func unending(score: String) {
        guard case .unending = ScoreLength(score: score) else {
            Issue.record("\(score) should never end")
            return
        }
    }

    @Test("instr lines define numbers and names")
    func instrumentTable() {
        var t = InstrumentTable()
        t.add(declarationsIn: "instr 1, 2 ; two\n  instr +lead\ninstr bass,3\n;instr 9\n endin")
        #expect(t.numbers == [1, 2, 3])
        #expect(t.names == ["lead", "bass"])
        #expect(t.defines(number: 1.06) && t.defines(number: -2) && !t.defines(number: 9))
    }
}
