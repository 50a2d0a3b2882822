import CJack
import Foundation
import PodiumAudioFile
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing

@Suite("Session files")
struct SessionFileTests {
    @Test("events.log lines read back to the same record: doubles to the bit, strings with any character")
    func journalRoundTrip() throws {
        let lines: [JournalLine] = [
            .engine(cycle: 0, ksmps: 64),
            .event(cycle: 12, pfields: [1.06, 0.1 + 0.2, -1, 1e-300, 440]),
            .set(cycle: 12, channel: "freq", value: 0.1 + 0.7),
            .momentary(cycle: 13, channel: "hit", value: 1),
            .string(cycle: 14, channel: "label", text: "a \"quoted\"\\ line\nwith\ttabs and é ✓ \u{1}"),
            .compile(cycle: 15, hash: JournalLine.hash("instr 1\nendin"), source: "<repl>"),
            .eval(cycle: 16, code: "chnset active(1), \"podium.active.1\"\n"),
            .score(cycle: 17, text: "i1 0 1\ni \"bass\" 0 2"),
            .engine(cycle: 900, ksmps: 128),
        ]
        for line in lines {
            let back = try JournalLine.parse(Substring(line.text))
            #expect(back == line, "\(line.text)")
            #expect(!line.text.contains("\n"), "one record per line")
        }
        #expect(throws: JournalError.self) { try JournalLine.parse("12 sing freq 1") }
        #expect(throws: JournalError.self) { try JournalLine.parse("12 set freq loud") }
        #expect(try JournalLine.parse("# a comment") == nil)
    }

    @Test("a WAV whose writer died: the header counts what the last update saw; repair counts every whole frame")
    func repairHeader() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let live = dir.appendingPathComponent("live.wav").path, crashed = dir.appendingPathComponent("crashed.wav").path
        let writer = try SoundFileWriter(path: live, sampleRate: 48000, channels: 2)
        let block = (0..<2000).map { Float(sin(Double($0) * 0.01)) }
        try block.withUnsafeBufferPointer { try writer.write(floats: $0.baseAddress!, frames: 1000) }
        writer.updateHeader()
        try block.withUnsafeBufferPointer { try writer.write(floats: $0.baseAddress!, frames: 1000) }
        // What a kill -9 leaves: the file as it is now, never closed, plus half a frame.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: live))
        bytes.append(contentsOf: [0, 0, 0x80])
        try bytes.write(to: URL(fileURLWithPath: crashed))
        writer.close()
        #expect(try SoundFileHeader.info(crashed).frames >= 1000)
        #expect(try SoundFileHeader.repair(crashed) == 2000)
        let repaired = try SoundFileContents(path: crashed)
        let closed = try SoundFileContents(path: live)
        #expect(repaired.frames == 2000 && firstDifference(repaired.samples, closed.samples) == nil)
        if let sox = which("soxi") {
            #expect(try run(sox, ["-s", crashed]).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "2000")
        }
        #expect(throws: SoundFileError.self) { try SoundFileHeader.repair(dir.appendingPathComponent("none.wav").path) }
    }

    @Test("the console router never waits for a stuck sink: the oldest lines go, and it says how many")
    func routerDropsOldest() throws {
        let router = ConsoleRouter(capacity: 100)
        let gate = DispatchSemaphore(value: 0)
        let got = LineLog()
        router.setSink("slow", .init(minimum: .debug) { line in
            if line.text == "first" { gate.wait() }  // a terminal that stopped reading
            got.add(line.text)
        })
        router.start()
        router.post(ConsoleLine(level: .info, text: "first"))
        #expect(eventually(1) { true })
        Thread.sleep(forTimeInterval: 0.2)
        let began = Date()
        for i in 0..<1000 { router.post(ConsoleLine(level: .info, text: "line \(i)")) }
        #expect(Date().timeIntervalSince(began) < 0.5, "posting never waits for the sink")
        gate.signal()
        router.stop()
        let lines = got.all
        #expect(lines.contains("podium: 900 console lines dropped (the console could not keep up)"), "\(lines.prefix(3))")
        #expect(lines.last == "line 999")
        #expect(!lines.contains("line 899") && lines.contains("line 900"), "the oldest were dropped")
    }
}

final class LineLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}
