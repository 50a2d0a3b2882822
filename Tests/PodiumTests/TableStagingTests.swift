import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing

@Suite("Big tables of live code: which lines are built off the audio thread")
struct TableStagingTextTests {
    @Test("global ftgen lines of computing GEN routines are candidates; those in instruments, of files or other tables, in comments or without a gi variable are not")
    func candidates() {
        let text = """
        giA ftgen 0, 0, 2^20, 10, 1, 0.5   ; a big sine mix
        giB ftgen 7, 0, 65536, -7, 0, 65536, 1
        giFile ftgen 0, 0, 0, 1, "loop.wav", 0, 0, 0
        giCopy ftgen 0, 0, 4096, 24, giA, 0, 1
        iLocal ftgen 0, 0, 4096, 10, 1
        /* giC ftgen 0, 0, 2^20, 10, 1
        */
        instr 1
          giD ftgen 0, 0, 2^20, 10, 1
        endin
        giE ftgen giA, 0, 1024, 10, 1
        """
        let found = TableStaging.candidates(text)
        #expect(found.map(\.variable) == ["giA", "giB"])
        #expect(found.map(\.index) == [0, 1])
        #expect(found.map(\.number) == ["0", "7"])
        let rest = TableStaging.remainder(text, staged: [0, 1])
        #expect(rest.split(separator: "\n", omittingEmptySubsequences: false).count == text.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(!rest.contains("giA ftgen") && !rest.contains("giB ftgen") && rest.contains("giFile ftgen"))
    }

    @Test("the tables are computed by an engine of their own: values as Csound makes them, the guard point included; small tables stay with Csound")
    func compute() throws {
        let text = "giBig ftgen 0, 0, 2^16, 10, 1, 0.5\ngiSmall ftgen 0, 0, 1024, 10, 1\n"
        let computed = try #require(TableStaging.compute(text, candidates: TableStaging.candidates(text), sampleRate: 48000, ksmps: 64, searchOptions: []))
        #expect(computed.lines.map(\.variable) == ["giBig"])
        let table = computed.tables[0]
        #expect(table.length == 65536)
        let expected = TableStagingTextTests.gen10(length: 65536, partials: [1, 0.5])
        for k in [0, 1, 100, 12345, 40000, 65535] {
            #expect(abs(table.values[k] - expected[k]) < 1e-9, "index \(k): \(table.values[k]) vs \(expected[k])")
        }
        #expect(table.values[65536] == table.values[0], "the guard point")
        let stub = TableStaging.stub(computed)
        #expect(stub == "giBig ftgen 0, 0, 65536, -2, 0\nchnset giBig, \"podium.stage.0\"\n")
        // Code that needs the performance's globals cannot run alone: left to Csound as before.
        #expect(TableStaging.compute("giT ftgen 0, 0, giSize, 10, 1\n", candidates: TableStaging.candidates("giT ftgen 0, 0, giSize, 10, 1\n"),
                                     sampleRate: 48000, ksmps: 64, searchOptions: []) == nil)
    }

    /// GEN 10 as Csound defines it: a sum of harmonic sines, normalised to a peak of 1.
    static func gen10(length: Int, partials: [Double]) -> [Double] {
        let raw = (0..<length).map { k in
            partials.enumerated().reduce(0.0) { $0 + $1.element * sin(2 * Double.pi * Double($1.offset + 1) * Double(k) / Double(length)) }
        }
        let peak = raw.map(abs).max() ?? 1
        return raw.map { $0 / peak }
    }
}

extension JackSuites {
@Suite("Big tables of live code on a real engine", .serialized)
final class TableStagingJackTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    chn_k "probe", 3
    instr 1
      a1 oscili 0.1, 220
      outs a1, a1
    endin
    """

    @Test("a 2^18-point table in live code is computed off the audio thread and copied in by slices: a stub, stage lines, then the rest; Csound's values; the session replays to identical samples")
    func stagedReloadReplays() throws {
        let root = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let driver = JackDriver(source: .text(orchestra: TableStagingJackTests.orchestra, score: "i1 0 3600", name: "tables.orc"),
                                options: EngineOptions(seed: 7), jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
        let dir = try recording.startRecording()
        let producer = driver.makeProducer()
        Thread.sleep(forTimeInterval: 0.2)
        let length = 1 << 18
        _ = try driver.compileAndWait("giBig ftgen 0, 0, 2^18, 10, 1, 0.5\ninstr 2\n a1 oscili 0.3, p4, giBig\n outs a1, a1\nendin\n", source: "big.orc")
        for i in 0..<4 {
            try producer.event([2, 0, 0.2, 220 + Double(i) * 110])
            Thread.sleep(forTimeInterval: 0.25)
        }
        // The table holds what GEN 10 computes, read back by the audio thread itself.
        let expected = TableStagingTextTests.gen10(length: length, partials: [1, 0.5])
        for k in [1, 777, 100_000, 200_000] {
            #expect(try driver.evaluate("chnset tab_i(\(k), giBig), \"probe\"\n"))
            #expect(abs(try driver.engine.control("probe") - expected[k]) < 1e-9, "index \(k)")
        }
        Thread.sleep(forTimeInterval: 0.2)
        _ = try #require(recording.stopRecording())

        let url = URL(fileURLWithPath: dir)
        let log = try String(contentsOf: url.appendingPathComponent("events.log"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        let stub = try #require(lines.firstIndex { $0.contains(" eval \"giBig ftgen 0, 0, 262144, -2, 0") }, "\(log.prefix(2000))")
        let stages = lines.indices.filter { lines[$0].contains(" stage ") }
        let rest = try #require(lines.firstIndex { $0.contains(" compile ") && $0.hasSuffix(" staged") })
        #expect(stages.count == (length + 1 + TableStaging.sliceLength - 1) / TableStaging.sliceLength)
        #expect(stub < stages.first! && stages.last! < rest, "stub, slices, then the rest")
        let covered = stages.map { Int(lines[$0].split(separator: " ")[6])! }.reduce(0, +)
        #expect(covered == length + 1, "every value and the guard point")
        #expect(driver.stats.refusedTables == 0)

        let replay = try SessionReplayer(directory: url).run(output: url.appendingPathComponent("replay.wav").path)
        let recorded = try samples(url.appendingPathComponent("audio.wav").path)
        let replayed = try samples(url.appendingPathComponent("replay.wav").path)
        #expect(replay.frames * 2 == Int64(recorded.count))
        #expect(recorded.contains { abs($0) > 0.2 }, "the big table's voice was heard")
        #expect(firstDifference(recorded, replayed) == nil)
    }

    @Test("a big f statement from a surface is built off the audio thread too; one that would change a table's length is refused with the reason")
    func stagedTableStatement() throws {
        let driver = JackDriver(source: .text(orchestra: TableStagingJackTests.orchestra, score: "i1 0 3600", name: "tables.orc"),
                                jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let input = ScoreInput(driver: driver, producer: driver.makeProducer())
        let before = driver.journal.count
        try input.play(text: "f 5 0 65536 10 1 0.5")
        #expect(eventually(2) { driver.journal.follow(nil).lines.dropFirst(before).filter { $0.contains(" stage ") }.count == 5 })
        let lines = driver.journal.follow(nil).lines.dropFirst(before)
        #expect(!lines.contains { $0.contains(" table 5") }, "not an f statement on the audio thread")
        let expected = TableStagingTextTests.gen10(length: 65536, partials: [1, 0.5])
        #expect(try driver.evaluate("chnset tab_i(4321, 5), \"probe\"\n"))
        #expect(abs(try driver.engine.control("probe") - expected[4321]) < 1e-9)
        #expect(throws: ScoreError.self) { try input.play(text: "f 5 0 8192 10 1") }
        do { try input.play(text: "f 5 0 8192 10 1") } catch { #expect("\(error)".contains("exists with 65536 points")) }
        // Small tables stay with the audio thread, on their frame.
        try input.play(text: "f 6 0 1024 10 1")
        #expect(eventually(2) { driver.journal.follow(nil).lines.contains { $0.contains(" table 6.0 ") } })
    }
}
}
