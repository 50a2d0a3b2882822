import Foundation
import PodiumEngine
import PodiumHost
import PodiumProbe
import PodiumSurfaces
import Synchronization
import Testing

@Suite("Orchestra diff")
struct OrchestraDiffTests {
    @Test("only changed instruments and new global lines are compiled, at their own line numbers")
    func changes() throws {
        let old = "sr = 48000\ngiA init 1\ninstr 1\n out a(0.1)\nendin\ninstr 2\n out a(0.2)\nendin\n"
        let new = "sr = 44100\ngiA init 1\ngiB init 2\ninstr 1\n out a(0.1)\nendin\ninstr 2\n out a(0.3)\nendin\n"
        let text = try #require(OrchestraDiff.changes(from: old, to: new))
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2] == "giB init 2")
        #expect(lines[6] == "instr 2" && lines[7] == " out a(0.3)" && lines[8] == "endin")
        #expect(!text.contains("instr 1"), "unchanged instrument left out")
        #expect(!text.contains("giA"), "unchanged global code does not run again")
        #expect(!text.contains("sr ="), "header statements cannot change in a running engine")
        #expect(OrchestraDiff.changes(from: old, to: old) == nil)
    }
}

extension JackSuites {
@Suite("Hot reload", .serialized)
final class HotReloadTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static func orchestra(level: String) -> String {
        """
        nchnls = 2
        0dbfs = 1

        instr 1
          a1 linseg \(level), p3, \(level)
          outs a(0), a1
        endin
        """
    }

    @Test("a reload whose global code is heavy is announced with its cost before it merges; :status reports the last reload's callback")
    func heavyReloadWarning() throws {
        // Tables are built off the audio thread unless told not to (TableStagingTests): the
        // warning is for what stays there.
        var jack = JackOptions(serverName: server.name, connect: false)
        jack.stageTables = false
        let driver = JackDriver(source: .text(orchestra: HotReloadTests.orchestra(level: "0.1"), score: nil, name: "heavy.orc"), jack: jack)
        let notices = Mutex<[String]>([])
        driver.onNotice = { n in notices.withLock { $0.append(n) } }
        try driver.start()
        defer { driver.stop() }
        #expect(eventually(2) { driver.stats.lastPeriod == 256 })
        _ = try driver.compileAndWait("instr 2\n a1 oscili 0.1, 440\n outs a1, a1\nendin\n", source: "light.orc")
        #expect(notices.withLock { $0 }.isEmpty, "a light reload says nothing: \(notices.withLock { $0 })")
        _ = try driver.compileAndWait("giBig ftgen 0, 0, 2^20, 10, 1, 0.5, 0.3, 0.25, 0.2\n", source: "big.orc")
        let said = notices.withLock { $0 }
        #expect(said.contains { $0.hasPrefix("big.orc: its global code will run on the audio thread when it merges, about") && $0.contains("against a period of 5.3 ms: expect a click") },
                "\(said)")
        #expect(eventually(2) { driver.stats.merges >= 2 })
        #expect(driver.stats.lastMergeCallbackMicroseconds > 1000, "a 2^20-point table is built in the callback: \(driver.stats.lastMergeCallbackMicroseconds) µs")
        #expect(driver.stats.description.contains("last reload's callback"))
    }

    @Test("a watched file: good edit, broken edit, good edit — heard in that order, the music never stops")
    func goodBrokenGood() throws {
        let dir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("live.orc").path
        try HotReloadTests.orchestra(level: "0.1").write(toFile: file, atomically: false, encoding: .utf8)
        let driver = JackDriver(source: .orchestra(path: file, score: nil), jack: JackOptions(serverName: server.name, connect: false, ksmps: 64))
        try driver.start()
        defer { driver.stop() }
        let reload = try HotReload(path: file, driver: driver)
        let outcomes = OutcomeLog()
        reload.onOutcome = { outcomes.add($0) }
        try reload.watch()
        defer { reload.stop() }
        let capture = try CaptureClient(server: server.name, channels: 1, seconds: 10)
        try capture.connect(from: "podium:out_2", channel: 0)
        let producer = driver.makeProducer()
        capture.start()
        // A note every 100 ms while the file is edited three times.
        for i in 0..<30 {
            try producer.event([1, 0, 0.05])
            Thread.sleep(forTimeInterval: 0.1)
            switch i {
            case 7: try HotReloadTests.orchestra(level: "0.3").write(toFile: file, atomically: true, encoding: .utf8)  // editors that save by rename
            case 15: try HotReloadTests.orchestra(level: "0.5 +").write(toFile: file, atomically: false, encoding: .utf8)
            case 22: try HotReloadTests.orchestra(level: "0.5").write(toFile: file, atomically: false, encoding: .utf8)
            default: break
            }
        }
        // Under load the last edit's compile (checked in a child, then merged) can take longer
        // than the notes left after it (0.7 s): one more note once it has merged.
        for _ in 0..<50 where outcomes.all.filter({ $0 != .unchanged }).count < 3 { Thread.sleep(forTimeInterval: 0.1) }
        try producer.event([1, 0, 0.05])
        Thread.sleep(forTimeInterval: 0.2)
        capture.stopRecording()
        // What a performer is told (a save's second event, coalesced by content, says nothing).
        let o = outcomes.all.filter { $0 != .unchanged }
        #expect(o.count == 3, "\(o)")
        if o.count == 3 {
            if case .compiled = o[0] {} else { Issue.record("first edit: \(o[0])") }
            if case let .failed(message) = o[1] {
                #expect(message.hasPrefix("\(file):5: "), "\(message)")  // the linseg line
            } else { Issue.record("second edit should fail: \(o[1])") }
            if case .compiled = o[2] {} else { Issue.record("third edit: \(o[2])") }
        }
        // The level of each note, in order: 0.1 …, 0.3 … (the broken edit changes nothing), 0.5 …
        let s = capture.samples(0)
        var levels: [Float] = []
        var i = 0
        while i < s.count {
            if s[i] > 0.01 {
                levels.append(s[i + 10 < s.count ? i + 10 : i])
                while i < s.count && s[i] > 0.01 { i += 1 }
            }
            i += 1
        }
        #expect(levels.count >= 29, "every note sounded: \(levels.count)")
        var distinct: [Float] = []
        for l in levels where distinct.last.map({ abs($0 - l) > 0.01 }) ?? true { distinct.append(l) }
        #expect(distinct.count == 3 && abs(distinct[0] - 0.1) < 1e-6 && abs(distinct[1] - 0.3) < 1e-6 && abs(distinct[2] - 0.5) < 1e-6, "levels in order: \(distinct)")
        #expect(driver.stats.silentCallbacks == 0)
    }
}
}

final class OutcomeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [HotReload.Outcome] = []
    func add(_ o: HotReload.Outcome) { lock.withLock { items.append(o) } }
    var all: [HotReload.Outcome] { lock.withLock { items } }
}
