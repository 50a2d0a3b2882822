import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSession
import Testing

/// What live code's named instruments need of Csound 6.18's table of instruments (pure).
@Suite("Csound's table of instruments: its size and the room named instruments need")
struct InstrumentTableGrowthTests {
    @Test("the table's size follows Csound's blocks of 200: numbered instruments grow it when they reach it, named ones of the first compile when they pass it")
    func size() {
        #expect(InstrumentTableGrowth.tableSize(numbered: [], named: []) == 200)
        #expect(InstrumentTableGrowth.tableSize(numbered: [1, 2, 199], named: [3, 200]) == 200)
        #expect(InstrumentTableGrowth.tableSize(numbered: [200], named: []) == 400)
        #expect(InstrumentTableGrowth.tableSize(numbered: [5], named: [201]) == 400)
        #expect(InstrumentTableGrowth.tableSize(numbered: [5], named: [], known: 600) == 600)
    }

    @Test("new names take the free numbers 1 to size − 1; past them the table grows a block at a time (an empty instrument at its size); names already compiled take none; past one block the compile starts with an anchor in the top block (a host's empty instrument first); past 9999 refused")
    func room() {
        let held: Set<Int> = Set(1...17)
        func table(_ names: [String], numbers: [Int] = []) -> InstrumentTable {
            InstrumentTable(checkLine: numbers.map(String.init).joined(separator: " ") + " | " + names.joined(separator: " "))
        }
        func room(_ t: InstrumentTable, names: Set<String> = [], occupied: Set<Int> = held, placeholders: Set<Int> = [], size: Int = 200,
                  named200: Bool = false) -> InstrumentTableGrowth.Room? {
            InstrumentTableGrowth.room(for: t, names: names, occupied: occupied, placeholders: placeholders, size: size, namedPastFirstBlock: named200)
        }
        let fits = (1...182).map { "n\($0)" }
        #expect(room(table(fits)) == .init(steps: [], anchor: nil))
        // One more: the table grows to 400 (instr 200).
        #expect(room(table(fits + ["one"])) == .init(steps: [200], anchor: nil))
        // The compile's own numbered instruments take numbers too.
        #expect(room(table(fits, numbers: [190])) == .init(steps: [200], anchor: nil))
        // Redefined, not new.
        #expect(room(table(fits + ["one"]), names: ["one"]) == .init(steps: [], anchor: nil))
        // 600 new names beside 17: three blocks.
        #expect(room(table((1...600).map { "m\($0)" })) == .init(steps: [200, 400, 600], anchor: nil))
        // A named instrument numbered 200 or more (which the compile may define again): in a table
        // of 400, the highest free number of the top block anchors; a host's empty instrument
        // there first; never one the compile defines; none while no name is past the first block.
        #expect(room(table([]), occupied: [1, 2, 250, 399], size: 400, named200: true) == .init(steps: [], anchor: 398))
        #expect(room(table([]), occupied: [1, 2, 250], placeholders: [300], size: 400, named200: true) == .init(steps: [], anchor: 300))
        #expect(room(table(["x"], numbers: [300]), occupied: [1, 2, 250], placeholders: [300], size: 400, named200: true) == .init(steps: [], anchor: 399))
        #expect(room(table(["x"]), occupied: [1, 2, 250], size: 400) == .init(steps: [], anchor: nil))
        // A top block full: one more block for the anchor.
        #expect(room(table([]), occupied: Set(1...399), size: 400, named200: true) == .init(steps: [400], anchor: 400))
        #expect(room(table(fits + ["one"]), named200: true) == .init(steps: [200], anchor: 200))
        #expect(room(table((1...300).map { "m\($0)" }), occupied: Set(1...9_900)) == nil)
        #expect(table(["a", "b"], numbers: [3, 1]).checkLine == "1 3 | a b")
        #expect(InstrumentTableGrowth.roomNumber(in: Engine.roomInstrument(400)) == 400)
        #expect(InstrumentTableGrowth.roomNumber(in: "instr 400\n a1 oscili 1, 440\nendin\n") == nil)
    }
}

extension JackSuites {
/// Named instruments compiled live, against a real JACK server and libcsound.
@Suite("Named instruments compiled live", .serialized)
final class InstrumentTableJackTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// Named instruments `prefix1`… each a tone of its own.
    static func named(_ prefix: String, _ range: ClosedRange<Int>, level: Double = 0.3) -> String {
        range.map { "instr \(prefix)\($0)\n aenv linseg 0, 0.005, 1, p3 - 0.01, 1, 0.005, 0\n a1 oscili \(level) * aenv, \(100 + $0)\n outs a1, a1\nendin" }.joined(separator: "\n")
    }

    /// The peak of podium:out_1 over `seconds` from now.
    func peak(seconds: Double = 0.3) throws -> Float {
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: seconds + 1)
        try capture.connect(from: "podium:out_1", channel: 0)
        capture.start()
        Thread.sleep(forTimeInterval: seconds)
        capture.stopRecording()
        return capture.samples(0).map(abs).max() ?? 0
    }

    /// A driver of `orchestra` (named instruments `v1`…) on this test's server.
    func start(_ orchestra: String) throws -> JackDriver {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        // A check in a child takes seconds beside the whole suite.
        jack.compileLimits.cpuSeconds = 60
        jack.compileLimits.wallSeconds = 60
        let driver = JackDriver(source: .text(orchestra: "sr = 48000\nnchnls = 2\n0dbfs = 1\n" + orchestra, score: nil, name: "many.orc"),
                                options: EngineOptions(seed: 3), jack: jack)
        try driver.start()
        return driver
    }

    @Test("an orchestra of 199 named instruments: the host's instruments and SuperDirt's synths, compiled after it, have room (Csound stored them past its table of 200, where a note to superpiano found no instrument); superpiano and v199 sound")
    func hostInstrumentsHaveRoom() throws {
        let driver = try start(Self.named("v", 1...199))
        defer { driver.stop() }
        let producer = driver.makeProducer()
        let piano = try #require(driver.engine.instrumentNumber(named: "superpiano"))
        #expect(piano > 200, "superpiano: \(piano)")
        // Its p-fields as its declaration names them, with SuperDirt's defaults.
        try producer.event([piano, 0, 0.4, 440, 0.5, 0.5, 0, 1, 1, 0.1, 1, 0.2])
        #expect(try peak() > 0.02, "superpiano sounds")
        Thread.sleep(forTimeInterval: 0.3)
        try producer.event([try #require(driver.engine.instrumentNumber(named: "v199")), 0, 0.4])
        #expect(try peak() > 0.25, "v199 sounds")
    }

    @Test("30 named instruments compiled live beside an orchestra that, with the host's two and SuperDirt's synths, fills 397 of Csound's 400 numbers, twice: Csound's table grows first (an empty instrument, journaled), the second compile is anchored (numbers past 400 defined again); lib30 sounds at the second version's level; the take replays identically")
    func libraryGrowsTheTable() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // The orchestra's last takes number 397: the host's two and the synths follow it.
        let size = 397 - 2 - DirtSynths.names.count
        let driver = try start(Self.named("v", 1...size))
        defer { driver.stop() }
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = URL(fileURLWithPath: try recording.startRecording())
        let producer = driver.makeProducer()
        for level in [0.5, 0.3] {
            _ = try driver.compileAndWait(Self.named("lib", 1...30, level: level), source: "library")
        }
        let lib = try #require(driver.engine.instrumentNumber(named: "lib30"))
        #expect(lib > 400, "lib30 is numbered past the second block: \(lib)")
        try producer.event([lib, 0, 0.4])
        let heard = try peak()
        #expect(abs(Double(heard) - 0.3) < 0.05, "lib30 sounds at the second version's level: \(heard)")
        try producer.event([try #require(driver.engine.instrumentNumber(named: "v\(size)")), 0, 0.4])
        #expect(try peak() > 0.25, "the orchestra's last still sounds")
        Thread.sleep(forTimeInterval: 0.2)
        _ = recording.stopRecording()
        let log = try String(contentsOf: dir.appendingPathComponent("events.log"), encoding: .utf8)
        let grown = log.split(separator: "\n").filter { $0.contains(" eval ") && $0.contains("endin") }
        #expect(grown.count == 1, "the table grew by a block, journaled: \(grown)")
        _ = try SessionReplayer(directory: dir).run(output: dir.appendingPathComponent("replay.wav").path)
        let diff = firstDifference(try samples(dir.appendingPathComponent("audio.wav").path), try samples(dir.appendingPathComponent("replay.wav").path))
        #expect(diff == nil, "the take replays identically (first difference \(diff ?? -1))")
    }

    @Test("an orchestra of 260 named instruments (Csound numbers them past 200 at the start), one past 200 edited live three times: the compile starts with an anchor (Csound wrote the edited one past its compile's table of 200), each version sounds, the orchestra's others still do")
    func editPastTheFirstBlock() throws {
        let driver = try start(Self.named("v", 1...260))
        defer { driver.stop() }
        let producer = driver.makeProducer()
        let number = try #require(driver.engine.instrumentNumber(named: "v250"))
        #expect(number > 200, "v250: \(number)")
        for level in [0.5, 0.2, 0.4] {
            _ = try driver.compileAndWait(Self.named("v", 250...250, level: level), source: "edit")
            #expect(driver.engine.instrumentNumber(named: "v250") == number, "the edit keeps its number")
            try producer.event([number, 0, 0.4])
            let heard = try peak()
            #expect(abs(Double(heard) - level) < 0.05, "v250 sounds at \(level): \(heard)")
            Thread.sleep(forTimeInterval: 0.2)
        }
        try producer.event([try #require(driver.engine.instrumentNumber(named: "v260")), 0, 0.4])
        #expect(try peak() > 0.25, "v260 still sounds")
        // An error is said at the performer's line, not the anchor's.
        do {
            _ = try driver.compileAndWait("instr v250\n a1 oscili 0.3, 440\n outs a1, a1x\nendin\n", source: "edit")
            Issue.record("a typo compiled")
        } catch let EngineError.compile(failure) {
            #expect(failure.lines.first == 3, "\(failure)")
        }
    }
}
}

/// The byte scan that finds the lines to read gives what reading every line gave.
@Suite("Orchestra text scans")
struct TextScanTests {
    @Test("declared instruments and an opcode's mention, found line by line from the bytes, are what the words of every line give: CRLF, VT, FF, NEL, LS and PS ends, comments, tabs, lists, +names, words that only contain the word, non-ASCII text, the text's first and last lines")
    func scansAgreeWithWords() {
        let texts = [
            "instr 1\nendin\n",
            "  instr 2, 3 ; comment instr 9\r\nendin\r\n\tinstr\tbass,+lead // instr 7\u{0B}endin\u{0C}instr 4\u{85}instr 5\u{2028}instr 6\u{2029}instr é",
            "; instr 8\n// instr 9\ninstrument 10\nxinstr 11\n instr  12 , 13\ninstr",
            "giX vco2init 31\nasig vco2 0.5, 440 ; vco2\nvco2init\n a vco2x 1\n vco2_ 1",
            "é instr 1\nélan instr 2\n\u{301}instr 3\n",
        ]
        for t in texts {
            var byWords = InstrumentTable()
            // The words of every line, as the scan did before it read bytes.
            for rawLine in t.split(whereSeparator: \.isNewline) {
                var line = Substring(rawLine)
                if let c = line.firstIndex(of: ";") { line = line[..<c] }
                if let c = line.range(of: "//") { line = line[..<c.lowerBound] }
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard words.first == "instr" else { continue }
                byWords.add(declarationsIn: String(line) + "\n")
            }
            #expect(InstrumentTable.declared(in: t) == byWords, "\(t.debugDescription)")
            for opcode in ["vco2", "vco2init", "instr", "endin"] {
                let every = t.split(whereSeparator: \.isNewline).contains { raw in
                    let line = raw.prefix { $0 != ";" }
                    var rest = line[...]
                    while let r = rest.range(of: opcode) {
                        let before = r.lowerBound == line.startIndex ? nil : line[line.index(before: r.lowerBound)]
                        let after = r.upperBound == line.endIndex ? nil : line[r.upperBound]
                        func word(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                        if !word(before) && !word(after) { return true }
                        rest = line[r.upperBound...]
                    }
                    return false
                }
                #expect(OrchestraCheck.mentions(t, opcode) == every, "\(opcode) in \(t.debugDescription)")
            }
        }
    }
}
