import Foundation
import PodiumHost
import PodiumProbe
import PodiumRealtime
import PodiumSession
import PodiumSurfaces
import Synchronization
import Testing

@Suite("The DSP load guard's rule")
struct LoadGuardRuleTests {
    @Test("over the limit the voices may not grow (one in, one out); the cap lifts below the limit less the hysteresis")
    func capAndLift() {
        var guardian = LoadGuard(limit: 0.5)
        guardian.observe(load: 0.2, voices: 10)
        #expect(guardian.admits(voices: 400))
        // A busy callback raises the load at once: the voices now are the cap.
        guardian.observe(load: 0.8, voices: 50)
        #expect(guardian.level == 0.8)
        #expect(guardian.admits(voices: 49))
        #expect(!guardian.admits(voices: 50))
        // The load falls slowly; the cap stays while it is above 0.4, and does not move.
        guardian.observe(load: 0.3, voices: 20)
        #expect(guardian.level > 0.7 && guardian.level < 0.8)
        #expect(guardian.admits(voices: 49) && !guardian.admits(voices: 50))
        for _ in 0..<40 { guardian.observe(load: 0.3, voices: 20) }
        #expect(guardian.level < 0.4)
        #expect(guardian.admits(voices: 999))
    }

    @Test("no limit never caps; a callback longer than the period counts as one period")
    func offAndClamp() {
        var off = LoadGuard(limit: nil)
        off.observe(load: 5, voices: 10)
        #expect(off.admits(voices: 10_000))
        var guardian = LoadGuard()
        guardian.observe(load: 40, voices: 3)
        #expect(guardian.level == 1)
        #expect(!guardian.admits(voices: 3))
        guardian.observe(load: .nan, voices: 3)
        #expect(guardian.level < 1 && guardian.level >= 0)
    }
}

extension JackSuites {
@Suite("The DSP load guard on a real engine", .serialized)
final class LoadGuardJackTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    /// Each note costs a band-limited oscillator and a Moog ladder filter every k-cycle.
    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 4
      a1 vco2 0.0001, 110 + p1 * 10
      a2 moogladder a1, 2000, 0.3
      outs a2, a2
    endin
    """

    @Test("a flood of held notes stops growing at the load limit (refused, counted, said); releasing them lets new notes start")
    func floodStopsAtTheLimit() throws {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        jack.loadLimit = 0.3
        let driver = JackDriver(source: .text(orchestra: LoadGuardJackTests.orchestra, score: "", name: "heavy.orc"), jack: jack)
        let notices = Printed()
        driver.onNotice = { notices.add($0) }
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        let before = driver.journal.count
        let sent = 999
        for i in 0..<sent { try producer.event([4 + Double(i + 1) / 10_000, 0, -1]) }
        #expect(eventually(5) { driver.stats.loadLimited > 0 }, "\(driver.stats)")
        Thread.sleep(forTimeInterval: 0.5)
        let stats = driver.stats
        let started = driver.journal.follow(nil).lines.dropFirst(before).compactMap(LoadGuardJackTests.instrument)
        let voices = (try? driver.engine.control("podium.voices")) ?? -1
        #expect(started.count + Int(stats.loadLimited) + Int(stats.voiceLimited) == sent, "\(started.count) started, \(stats)")
        #expect(stats.voiceLimited == 0, "the load limit came first: \(stats)")
        #expect(started.count < sent / 2 && voices < Double(sent / 2), "\(started.count) started, \(voices) voices")
        #expect(stats.description.contains("notes refused at the DSP load limit \(stats.loadLimited)"))
        #expect(eventually(6) { notices.lines.contains { $0.contains("DSP load over 30 % of the period") } }, "\(notices.lines)")

        // Released, the voices end, the load falls, and new notes start again.
        for p1 in started { try producer.event([-p1, 0, 0]) }
        #expect(eventually(5) { ((try? driver.engine.control("podium.voices")) ?? 99) < 5 })
        Thread.sleep(forTimeInterval: 0.3)
        try producer.event([4.99999, 0, 0.2])
        #expect(eventually(3) { driver.journal.follow(nil).lines.dropFirst(before).contains { $0.contains(" event 4.99999 ") } })
    }

    @Test("a pattern's notes the load guard refuses mark its slot (the page's warning on its line); the audio thread reports refused notes by id, at most four a callback, each one a producer sent")
    func refusedNotesMarkTheirSlot() throws {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        // 5 %: the cap never lifts (the load would have to fall below the limit less 0.1), so
        // the pattern's notes cannot slip in one for one as its own notes end.
        jack.loadLimit = 0.05
        let orchestra = LoadGuardJackTests.orchestra + "\ninstr ping\n  outs vco2(0.001, 220), vco2(0.001, 220)\nendin\n"
        let driver = JackDriver(source: .text(orchestra: orchestra, score: "", name: "heavy.orc"), jack: jack)
        try driver.start()
        defer { driver.stop() }
        let loops = LiveLoops(driver: driver)
        loops.start()
        defer { loops.stopScheduler() }
        loops.patterns.watchSteps = true
        let reports = Mutex<[Applied]>([])
        driver.onRefused = { a in reports.withLock { $0.append(a) }; loops.patterns.noteRefused(a) }
        let producer = driver.makeProducer()
        // The held notes fill the callback up to the limit; the pattern's notes come after.
        var sent = Set<UInt64>()
        for i in 0..<999 { if let id = try producer.event([4 + Double(i + 1) / 10_000, 0, -1]) { sent.insert(id) } }
        #expect(eventually(5) { driver.stats.loadLimited > 0 }, "\(driver.stats)")
        _ = try loops.patterns.run("d3 $ s \"ping*16\"", source: "page:test", line: 7, producer: producer, loops: loops)
        #expect(eventually(6) { loops.patterns.preview(from: 0, cycles: 1, limit: 4).first { $0.slot == "d3" }?.warning != nil },
                "\(loops.patterns.preview(from: 0, cycles: 1, limit: 4).map { ($0.slot, $0.warning) })")
        let warning = loops.patterns.preview(from: 0, cycles: 1, limit: 4).first { $0.slot == "d3" }
        #expect(warning?.warning?.message.contains("DSP load guard") == true && warning?.line == 7, "\(String(describing: warning?.warning))")
        let got = reports.withLock { $0 }
        #expect(got.allSatisfy { $0.kind == .noteRefused && $0.command.value == 2 }, "\(got.prefix(3))")
        #expect(!got.isEmpty && got.count <= Int(driver.stats.loadLimited), "\(got.count) reported, \(driver.stats)")
        // At most four a callback: never more reports of one k-cycle's start than that.
        let perCycle = Dictionary(grouping: got, by: \.frame).values.map(\.count).max() ?? 0
        #expect(perCycle <= 4, "\(perCycle) refusals reported in one callback")
        // The held notes' refusals are among what the producer sent.
        let strays = got.filter { $0.command.pfields[0] >= 4 && $0.command.pfields[0] < 5 && !sent.contains($0.id) }
        #expect(strays.isEmpty, "\(strays.prefix(3).map { ($0.id, $0.command.pfields[0]) }) of \(sent.count) sent, e.g. \(sent.sorted().prefix(2))")
    }

    @Test("an instrument held from time 0 runs its init pass before the first callback (Csound's k-cycle 0, on the thread that built the engine): no callback carries it, and a note sent as the performance starts plays")
    func initPassBeforeFirstCallback() throws {
        // A held instrument whose init pass computes for many periods (about 0.3 s).
        let orchestra = """
        instr 1
          ii = 0
          iacc = 0
        spin:
          iacc = iacc + sqrt(ii)
          ii += 1
          if ii < 10000000 igoto spin
        endin
        instr 2
          outs a(0.1), a(0.1)
        endin
        """
        let jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        let driver = JackDriver(source: .text(orchestra: orchestra, score: "i 1 0 -1\n", name: "slowstart.orc"), jack: jack)
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        // Right after that callback (a command posted earlier is applied before it runs).
        let deadline = Date().addingTimeInterval(5)
        while driver.stats.callbacks < 2 && Date() < deadline { usleep(200) }
        try producer.event([2, 0, 0.2])
        #expect(eventually(5) { driver.journal.follow(nil).lines.contains { $0.contains(" event 2.0 ") && !$0.hasPrefix("0 ") } },
                "the note was applied: \(driver.journal.follow(nil).lines.filter { $0.contains("event") }) \(driver.stats)")
        #expect(driver.stats.loadLimited == 0, "\(driver.stats)")
        // Its own CPU, not its wall time: a loaded machine may preempt a callback, never make it
        // compute the 10 million steps of that init pass.
        #expect(driver.stats.maxCallbackCPUMicroseconds < 5 * driver.stats.periodMicroseconds, "no callback ran the init pass: \(driver.stats)")
    }

    @Test("a compile's merge is the compile's cost, once: a note sent as the merge lands is not refused at the load limit")
    func mergeIsNotLoad() throws {
        var jack = JackOptions(serverName: server.name, connect: false, ksmps: 64)
        jack.loadLimit = 0.5
        // The library's check in a child (CompileQueue) takes seconds beside the whole suite: the
        // check's limits are not what this test is about.
        jack.compileLimits.cpuSeconds = 60
        jack.compileLimits.wallSeconds = 60
        let driver = JackDriver(source: .text(orchestra: LoadGuardJackTests.orchestra, score: "", name: "heavy.orc"), jack: jack)
        try driver.start()
        defer { driver.stop() }
        let producer = driver.makeProducer()
        // 150 named instruments of a few opcodes each (with the performance's own, within the 200
        // Csound's table holds: InstrumentTableTests grows it): their merge takes a callback
        // past half the period (a debug build's Csound; a one-off spike elsewhere stays under it), as a performer's `:load` of a library does.
        let library = (1...150).map { i in
            "instr lib\(i)\n  k1 linseg 0, p3, 1\n  a1 vco2 0.1*k1, \(100 + i)\n  a2 moogladder a1, 1000 + k1*500, 0.2\n  a3 butterlp a2, 3000\n  outs a3*0, a3*0\nendin"
        }.joined(separator: "\n")
        var merges = 0, refused = 0
        for round in 0..<5 {
            let before = driver.stats.loadLimited
            _ = try driver.compileAndWait(library.replacingOccurrences(of: "0.1*k1", with: "0.\(round + 1)*k1"), source: "library \(round)")
            try producer.event([4, 0, 0.05])  // at once, as `:load lib.orc` then `i 4 0 …`
            Thread.sleep(forTimeInterval: 0.15)
            merges += 1
            refused += Int(driver.stats.loadLimited - before)
        }
        #expect(merges == 5 && refused == 0, "notes refused right after a merge: \(refused) of \(merges); \(driver.stats)")
    }

    /// The instrument number of an `event` line of the journal that starts a note of instrument 4.
    static func instrument(_ line: String) -> Double? {
        let words = line.split(separator: " ")
        guard let i = words.firstIndex(of: "event"), i + 1 < words.count, let p1 = Double(words[i + 1]), p1 > 4, p1 < 5 else { return nil }
        return p1
    }
}
}
