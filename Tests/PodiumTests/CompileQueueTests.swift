import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumProbe
import PodiumSurfaces
import Testing

// The warm checker is one per process and serves one check at a time. The limits test holds it
// for seconds (longer on a loaded machine: its children run at nice 10) and the warm checker
// tests stop and kill it, so both run serialized with the suites that time compiles through it.
// (Compile queue's loaded failure, once put down to this, was the server dying with the thread
// that started it: see CheckServer.swift and `outlivesItsStarter`.)
extension JackSuites {
/// Sizes written as constants, read without running anything.
@Suite("Compile limits: constant sizes")
struct TableBudgetTests {
    @Test("constant expressions as Csound writes them; anything else is unknown")
    func expressions() {
        #expect(ConstantExpression.value("2^28") == 268_435_456)
        #expect(ConstantExpression.value(" 4096 * 4 ") == 16384)
        #expect(ConstantExpression.value("(1+2)*3-4/2") == 7)
        #expect(ConstantExpression.value("-2^2") == 4 && ConstantExpression.value("2^3^2") == 64, "as csound 6.18 computes them")
        #expect(ConstantExpression.value("1e3") == 1000 && ConstantExpression.value("7 % 4") == 3)
        for unknown in ["giN", "int(2^27)", "2^", "(1+2", "", "2 ** 3", "1)"] { #expect(ConstantExpression.value(unknown) == nil, "\(unknown)") }
    }

    @Test("a table or array over a quarter of the memory limit is found with its line; computed sizes are left to the check child")
    func budget() {
        let limit = CompileLimits().tableBytes   // 256 MiB
        let text = "giSmall ftgen 0, 0, 2^20, 10, 1\n; gi ftgen 0, 0, 2^30, 10, 1 in a comment\ngiBig ftgen 0, 0, 2^28, 10, 1\n"
        let over = TableBudget.firstOver(text, limit: limit)
        #expect(over?.line == 3 && over?.bytes == 2_147_483_648)
        #expect(TableBudget.firstOver("gi1 = ftgen(0, 0, 2^26, 10, 1)", limit: limit)?.bytes == 536_870_912)
        #expect(TableBudget.firstOver("gi1 ftgenonce 0, 0, 2^25 + 1, 7, 0, 1, 1", limit: limit) != nil)
        #expect(TableBudget.firstOver("giArr[] init 2^14, 2^14", limit: limit)?.bytes == 2_147_483_648)
        #expect(TableBudget.firstOver("gi1 ftgen 0, 0, 2^25, 10, 1\ngiN ftgen 0, 0, int(2^28), 10, 1\nkArr[] init 100", limit: limit) == nil)
        #expect(TableBudget.firstOver("gi1 myftgen 0, 0, 2^30, 10, 1", limit: limit) == nil, "only the ftgen opcodes")
        do {
            try OrchestraCheck.tables(text, source: "live", limits: CompileLimits())
            Issue.record("a 2 GiB table was not refused")
        } catch {
            #expect("\(error)".contains("(line 3) needs 2.0 GiB, over the budget of 256 MiB") && "\(error)".contains("--compile-memory-limit 1024 MiB"), "\(error)")
        }
    }

    @Test("the check child under its limits: an endless loop at init is stopped at the CPU limit, an allocation past the memory limit and a check past the wall time are refused, each naming its flag")
    func childLimits() throws {
        let loop = "i1 = 0\nwhile i1 >= 0 do\n i1 += 1\nod\n"
        // The check child runs at nice 10: on a machine whose two cores are busy it gets a few per
        // cent of them (measured: 30 s of wall time held less than 1 s of its CPU time beside
        // stress-ng --cpu 2 and a build). The wall limit here is far enough not to end it first.
        do {
            try OrchestraCheck.inChild(loop, source: "live", limits: CompileLimits(cpuSeconds: 1, wallSeconds: 600))
            Issue.record("an endless loop passed the check")
        } catch {
            #expect("\(error)".contains("more than 1 s of CPU time (--compile-cpu-limit)"), "\(error)")
        }
        do {
            try OrchestraCheck.inChild(loop, source: "live", limits: CompileLimits(cpuSeconds: 30, wallSeconds: 1))
            Issue.record("an endless loop passed the check")
        } catch {
            #expect("\(error)".contains("longer than 1 s (--compile-time-limit)"), "\(error)")
        }
        do {
            try OrchestraCheck.inChild("gi1 ftgen 0, 0, int(2^27), 10, 1\n", source: "live", limits: CompileLimits(memoryMiB: 512))
            Issue.record("a 1 GiB table passed a check limited to 512 MiB")
        } catch {
            #expect("\(error)".contains("more memory than the check's 512 MiB (--compile-memory-limit)") && "\(error)".contains("memory allocate failure"), "\(error)")
        }
        // What fits passes as before, with its cost.
        #expect(try OrchestraCheck.inChild("gi1 ftgen 0, 0, 2^16, 10, 1\n", source: "live") != nil)
    }
}

/// The warm checker: one `podium check --serve` that forks a child per check.
@Suite("Warm checker", .serialized)
struct WarmCheckerTests {
    @Test("a check that crashes ends only its child (the server answers the next); a server that is killed is started again; the answers are the check's own")
    func survives() throws {
        try WarmChecker.shared.start()
        let pid = try #require(WarmChecker.shared.pid)
        do { try OrchestraCheck.inChild("gkX init \n", source: "live"); Issue.record("a crashing text passed") } catch {
            #expect("\(error)".contains("Csound crashes on this text"), "\(error)")
        }
        #expect(WarmChecker.shared.pid == pid, "the crash ended the child, not the server")
        #expect(try OrchestraCheck.inChild("instr 1\n a1 oscili 0.1, 440\n out a1\nendin\n", source: "live") != nil)
        kill(pid, SIGKILL)
        Thread.sleep(forTimeInterval: 0.2)
        #expect(try OrchestraCheck.inChild("instr 2\n a1 oscili 0.1, 440\n out a1\nendin\n", source: "live") != nil, "answered by a new server")
        #expect(WarmChecker.shared.pid != nil && WarmChecker.shared.pid != pid)
        do { try OrchestraCheck.inChild("#include \"no-such.orc\"\n", source: "live"); Issue.record("a longjmp text passed") } catch {
            #expect("\(error)".contains("would abort the performance"), "\(error)")
        }
    }

    @Test("a server started by a thread that has ended goes on serving (a parent-death signal would follow that thread); a check's child ends with its server")
    func outlivesItsStarter() throws {
        WarmChecker.shared.stop()
        // The thread lives until the server is up and serving, then ends.
        InBackground { try WarmChecker.shared.start(); Thread.sleep(forTimeInterval: 0.5) }.wait()
        Thread.sleep(forTimeInterval: 0.3)
        let pid = try #require(WarmChecker.shared.pid)
        #expect(Self.state(pid).map { $0 != "Z" } == true, "the server is alive: \(Self.state(pid) ?? "gone")")
        #expect(try OrchestraCheck.inChild("instr 3\n a1 oscili 0.1, 440\n out a1\nendin\n", source: "live") != nil)
        #expect(WarmChecker.shared.pid == pid, "the same server answered")

        // A check in progress (an endless loop); its server killed: the child ends too.
        let limits = CompileLimits(cpuSeconds: 2, memoryMiB: 1024, wallSeconds: 1)
        let slow = InBackground { () -> String in
            do { _ = try OrchestraCheck.inChild("i1 = 0\nwhile i1 >= 0 do\n i1 += 1\nod\n", source: "live", limits: limits); return "passed" } catch { return "\(error)" }
        }
        #expect(eventually(5) { Self.children(of: pid).count == 1 }, "the check's child")
        let child = try #require(Self.children(of: pid).first)
        kill(pid, SIGKILL)
        #expect(eventually(2) { Self.state(child).map { $0 == "Z" } ?? true }, "the child outlived its server: \(Self.state(child) ?? "gone")")
        slow.wait()
        #expect(slow.value.map(CompileQueueTests.refusedAtALimit) == true, "asked again of a new server, refused at its limit: \(slow.value ?? "")")
    }

    /// A process's state letter (/proc/PID/stat), nil when it is gone.
    static func state(_ pid: pid_t) -> String? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ").first.map(String.init)
    }

    static func children(of pid: pid_t) -> [pid_t] {
        ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { pid_t($0) }
    }
}

/// The compile queue against a real JACK server, OSC (python-osc), the csound port (UDP) and the REPL.
@Suite("Compile queue", .serialized)
final class CompileQueueTests {
    let server: TestJackServer
    init() throws { server = try TestJackServer() }
    deinit { server.stop() }

    static let orchestra = """
    nchnls = 2
    0dbfs = 1
    instr 1
      a1 oscili 0.2, 440
      outs a1, a1
    endin
    """

    func start() throws -> (JackDriver, OSCSurface, CsoundTextPort) {
        let driver = JackDriver(source: .text(orchestra: CompileQueueTests.orchestra, score: nil, name: "queue.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        let osc = try OSCSurface(driver: driver, options: OSCOptions(port: 0))
        osc.start()
        let port = try CsoundTextPort(driver: driver, options: OSCOptions(port: 0))
        port.start()
        return (driver, osc, port)
    }

    static func python(_ fixture: String, _ args: [String], timeout: Double = 60) throws -> ProcessResult {
        try run(which("python3") ?? "/usr/bin/python3", [Paths.fixture(fixture)] + args, timeout: timeout)
    }
    func python(_ fixture: String, _ args: [String]) throws -> ProcessResult { try Self.python(fixture, args) }

    /// An endless loop's refusal: at the check's CPU limit, or at its wall-clock limit on a
    /// machine busy enough that the check (nice 10) gets less CPU than that in the time.
    static func refusedAtALimit(_ text: String) -> Bool {
        text.contains("s of CPU time (--compile-cpu-limit)") || text.contains("(--compile-time-limit)")
    }

    /// One UDP packet to the csound port, as an editor sends it.
    static func packet(_ text: String, to port: UInt16) throws {
        _ = try run(which("python3") ?? "/usr/bin/python3", ["-c", "import socket, sys\nsocket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(sys.argv[2].encode(), ('127.0.0.1', int(sys.argv[1])))", "\(port)", text])
    }

    @Test("while heavy compiles from OSC, the REPL and the csound port are checked and refused, status is answered within 50 ms every 100 ms, the REPL returns at once, and no xrun is caused")
    func heavyCompilesFreezeNothing() throws {
        let twin = try MachineTwin(server: server.name)
        let (driver, osc, port) = try start()
        defer { port.stop(); osc.stop(); driver.stop() }
        let printed = Printed()
        let repl = ReplSession(driver: driver, reloader: nil) { printed.add($0) }
        let notices = Printed()
        port.onNotice = { notices.add($0) }
        #expect(eventually(3) { driver.stats.callbacks > 20 })
        let statsBefore = driver.stats

        // A controller's status display, polling all along from a socket of its own.
        let poller = InBackground { try CompileQueueTests.python("status_poll.py", ["\(osc.port)", "6", "100"]) }
        Thread.sleep(forTimeInterval: 0.3)
        // The csound port: an endless loop in global code, stopped at the check's CPU limit (2 s).
        let loop = "i1 = 0\nwhile i1 >= 0 do\n i1 += 1\nod\n"
        try Self.packet(loop, to: port.port)
        // OSC: the 2^28-point table that froze OSC for 24.5 s, refused before anything computes it.
        let ftgen = try python("osc_client.py", ["\(osc.port)", "await", "5", "/podium/orc", "s:gi1 ftgen 0, 0, 2^28, 10, 1"])
        let fail = ftgen.stdout.split(separator: "\n").first { $0.contains("/podium/fail") } ?? ""
        #expect(fail.contains("over the budget of 256 MiB"), "\(ftgen.stdout) \(ftgen.stderr)")
        #expect((Double(fail.split(separator: " ").first ?? "") ?? 9) < 0.5, "refused at once: \(fail)")
        // The REPL: the same table, and one whose size is computed (left to the check's memory
        // limit), queued behind the csound port's loop. Each line returns at once. The computed
        // one is 2 GiB, twice the limit: a 1 GiB table (2^27 points plus one) is over the limit
        // by 8 bytes only, and a check child that had unmapped a little since the limit was set
        // could fit it and then compute it past the CPU limit instead.
        var longestHandle = Duration.zero
        for line in ["gi2 ftgen 0, 0, 2^28, 10, 1", "gi3 ftgen 0, 0, int(2^28), 10, 1", "i1 0 0.5"] {
            let t = ContinuousClock.now
            repl.handle(line)
            longestHandle = max(longestHandle, ContinuousClock.now - t)
        }
        #expect(longestHandle < .milliseconds(50), "the REPL's thread came back after \(longestHandle)")
        #expect(printed.lines.contains { $0.contains("2^28") && $0.contains("over the budget") }, "\(printed.lines)")
        #expect(repl.finish(shouldStop: { false }))
        #expect(printed.lines.contains { $0.contains("more memory than the check's 1024 MiB (--compile-memory-limit)") }, "\(printed.lines)")
        // The loop ends at the CPU limit (2 s), or at the wall-clock limit (5 s) when other
        // programs leave the check (nice 10) less than 2 s of CPU in 5 s: refused either way.
        // Each limit alone is tested by `TableBudgetTests.childLimits`.
        #expect(eventually(8) { notices.lines.contains(where: Self.refusedAtALimit) }, "\(notices.lines)")

        poller.wait()
        let answer = (poller.value ?? ProcessResult(status: -1, stdout: "", stderr: "")).stdout
        let fields = answer.split(separator: " ")
        let sent = fields.count >= 6 ? Int(fields[1]) ?? 0 : 0, answered = fields.count >= 6 ? Int(fields[3]) ?? -1 : -1
        let worst = fields.count >= 6 ? Double(fields[5].trimmingCharacters(in: .whitespacesAndNewlines)) ?? 9999 : 9999
        let stats = driver.stats
        let twinThen = twin.slowdown(atLongestCallbackOf: stats)
        print("status while compiling: \(answer.trimmingCharacters(in: .whitespacesAndNewlines)); xruns \(stats.xruns - statsBefore.xruns), longest callback CPU \(stats.maxCallbackCPUMicroseconds) µs, the twin's job then \(twinThen.map { String(format: "%.1f×", $0) } ?? "not run") its usual CPU")
        #expect(sent >= 40 && answered == sent, "every status answered: \(answer)")
        #expect(worst <= 50, "the longest status answer took \(worst) ms")
        let caused = xrunsCausedByPodium(driver.stats, since: statsBefore, twin: twin)
        #expect(caused == nil, "the heavy compiles caused xruns: \(caused ?? "")")
    }

    @Test("the twin times its fixed job in every cycle beside the driver; the driver's longest callback began within the twin's cycles, which can be looked up then and not before the twin ran")
    func twinBesideTheDriver() throws {
        let twin = try MachineTwin(server: server.name)
        let driver = JackDriver(source: .text(orchestra: CompileQueueTests.orchestra, score: nil, name: "queue.orc"),
                                jack: JackOptions(serverName: server.name, connect: false))
        try driver.start()
        defer { driver.stop() }
        #expect(eventually(5) { driver.stats.callbacks > 100 })
        let stats = driver.stats
        let cycles = twin.cycles
        #expect(cycles.count >= 100, "one cycle of the twin per period: \(cycles.count)")
        #expect(zip(cycles, cycles.dropFirst()).allSatisfy { $0.start < $1.start && $0.cpu > 0 })
        let first = try #require(cycles.first), last = try #require(cycles.last)
        #expect(stats.maxCallbackStartNanoseconds > first.start && stats.maxCallbackStartNanoseconds < last.start + last.wall + 1_000_000_000,
                "the longest callback began at \(stats.maxCallbackStartNanoseconds), the twin ran \(first.start)…\(last.start)")
        let period = UInt64(stats.periodMicroseconds * 1000)
        #expect(twin.slowdown(atLongestCallbackOf: stats) != nil)
        #expect(twin.slowdown(from: first.start - 10 * period, nanoseconds: period, margin: 0) == nil, "nothing before the twin ran")
    }

    @Test("order is kept per sender: an event sent right after its instrument's code plays it; another sender's events do not wait; a REPL line waits for the block typed before it")
    func orderPerSender() throws {
        let (driver, osc, port) = try start()
        defer { port.stop(); osc.stop(); driver.stop() }
        let applied = AppliedLog()
        driver.onApplied = { applied.add($0) }
        // One datagram after another from one socket: the compile, then at once the event.
        let r = try python("osc_client.py", ["\(osc.port)", "seq", "1.5",
                                             "/podium/orc", "s:instr 9\n a1 oscili 0.1, 550\n outs a1, a1\nendin\n", "--",
                                             "/podium/event", "i:9", "f:0", "f:0.2"])
        #expect(r.stdout.contains("/podium/done"), "\(r.stdout) \(r.stderr)")
        #expect(!r.stdout.contains("unknown instrument"), "\(r.stdout)")
        #expect(eventually(2) { applied.all.contains { $0.kind == .command && $0.command.pfields[0] == 9 } }, "instr 9 played")

        // The REPL: a block, then a note for it at once.
        let printed = Printed()
        let repl = ReplSession(driver: driver, reloader: nil) { printed.add($0) }
        for line in ["instr 8", " a1 oscili 0.1, 660", " outs a1, a1", "endin", "i8 0 0.2"] { repl.handle(line) }
        #expect(repl.finish(shouldStop: { false }))
        #expect(printed.lines.contains("compiled instr 8") && !printed.lines.contains { $0.contains("unknown") }, "\(printed.lines)")
        #expect(eventually(2) { applied.all.contains { $0.kind == .command && $0.command.pfields[0] == 8 } }, "instr 8 played")

        // While one sender's slow compile waits (the check's CPU limit), another sender's note plays.
        let slow = InBackground { try CompileQueueTests.python("osc_client.py", ["\(osc.port)", "await", "8", "/podium/orc", "s:i1 = 0\nwhile i1 >= 0 do\n i1 += 1\nod\n"]) }
        Thread.sleep(forTimeInterval: 0.5)
        let before = applied.all.count
        _ = try python("osc_client.py", ["\(osc.port)", "message", "/podium/event", "i:1", "f:0", "f:0.1"])
        #expect(eventually(1) { applied.all.dropFirst(before).contains { $0.kind == .command && $0.command.pfields[0] == 1 } }, "the other sender's note waited")
        // Played while the slow compile still waited: not after it (a wall-clock bound here
        // measured the python client's start-up on a loaded machine, 1.5 s, not Podium).
        #expect(!slow.finished, "the other sender's note was played only after the slow compile's answer")
        slow.wait()
        #expect(Self.refusedAtALimit(slow.value?.stdout ?? ""), "\(slow.value?.stdout ?? "")")
    }
}
}
