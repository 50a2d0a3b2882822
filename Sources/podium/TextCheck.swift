import Foundation
import PodiumEngine

/// The check of orchestra text that `podium check --stdin` and each fork of `podium check
/// --serve` run: Podium's lexical check, Csound's parser, then the text's global code in a started
/// engine of its own for two k-cycles. Prints what it finds; returns the exit code
/// (`OrchestraCheck.CheckExit`).
enum TextCheck {
    /// The two engines a check uses: one that only parses the text (never started: a longjmp
    /// there is told from a crash), and one started with stereo in and out that runs its global
    /// code. The warm checker makes them before it forks, so that each child finds them ready.
    struct Engines {
        let options: [String]
        let parser: Engine
        let runner: Engine
    }

    // Thread: the process's only one (before a fork)
    static func prepare(csoundOptions: [String]) throws -> Engines {
        let parser = try Engine(options: EngineOptions(extra: ["-n"] + csoundOptions))
        let runner = try Engine(options: EngineOptions(extra: ["-n"] + csoundOptions))
        try runner.compile(.text(orchestra: "nchnls = 2\nnchnls_i = 2\n0dbfs = 1\n", score: "f 0 1", name: "check"))
        try runner.start()
        _ = runner.console.flush()
        return Engines(options: csoundOptions, parser: parser, runner: runner)
    }

    // Thread: the process's only one (a child: a crash or a longjmp here costs nothing)
    static func run(_ text: String, csoundOptions: [String], engines prepared: Engines? = nil) -> Int32 {
        do { try OrchestraCheck.lexical(text, source: "<stdin>") } catch {
            print("\(error)")
            return OrchestraCheck.CheckExit.errors
        }
        let engines: Engines
        do { engines = try prepared ?? prepare(csoundOptions: csoundOptions) } catch {
            print("\(error)")
            return 64
        }
        let parseStarted = threadCPU()
        let (code, diagnostics) = engines.parser.parse(text)
        let parsing = threadCPU() - parseStarted
        for line in diagnostics { print(line) }
        if diagnostics.contains(where: OrchestraCheck.isMemoryFailure) { return OrchestraCheck.CheckExit.memory }
        guard code == 0 else { return code < 0 ? OrchestraCheck.CheckExit.errors : OrchestraCheck.CheckExit.fatal }
        return runGlobalCode(text, parsing: parsing, runner: engines.runner)
    }

    /// Text that parses can still crash Csound when its global code runs (`gkX init` with no
    /// value reads a missing argument): that code runs in the performing engine's callback at
    /// the merge. Here it runs first, in a started engine of its own, for two k-cycles; a crash
    /// ends this child with a signal (the text is refused), ordinary errors are left to the
    /// live compile to report. Global code therefore runs twice: here and at the merge.
    /// It also says what the merge will cost the audio thread: the compile's CPU time here less the
    /// parse's (which the performing engine does on the caller's thread), as
    /// `podium-check: global code N µs` (OrchestraCheck warns when that is over half a period).
    /// This thread's CPU time: the cost measured is the work the audio thread will do, not the
    /// time a loaded machine kept this child waiting (wall time read 19.7 ms for a one-oscillator
    /// instrument beside a CI build).
    static func threadCPU() -> Duration {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return .seconds(t.tv_sec) + .nanoseconds(t.tv_nsec)
    }

    static func runGlobalCode(_ text: String, parsing: Duration, runner: Engine) -> Int32 {
        let started = threadCPU()
        do { _ = try runner.compileOrchestra(text, source: "<stdin>") } catch {
            // Ordinary errors are the live compile's to report; running out of memory is the check's.
            if let failure = "\(error)".split(separator: "\n").map(String.init).first(where: OrchestraCheck.isMemoryFailure) {
                print(failure)
                return OrchestraCheck.CheckExit.memory
            }
        }
        let merge = threadCPU() - started - parsing
        print("\(OrchestraCheck.costLine) \(max(0, Int(merge / .microseconds(1)))) µs")
        // What it defines, as Csound compiled it (includes too): the live compile's table check.
        print("\(OrchestraCheck.instrumentsLine) \(runner.instruments.checkLine)")
        for _ in 0..<2 { _ = runner.performKsmps() }
        // An init error in the global code (an ftgen that cannot open its file) fails the save
        // like a compile error, with Csound's lines: the performing engine would print it with no
        // file name after "compiled". Left out: the code did not compile here (it uses the
        // performance's own globals), which the live compile judges.
        let lines = runner.console.flush().map(\.text)
        if let failure = lines.first(where: OrchestraCheck.isMemoryFailure) {
            print(failure)
            return OrchestraCheck.CheckExit.memory
        }
        guard let first = lines.firstIndex(where: { $0.contains("INIT ERROR in instr 0") }) else { return OrchestraCheck.CheckExit.parsed }
        let context = lines[max(0, first - 3)...].filter { !$0.isEmpty && !$0.contains("header init errors") }
        for line in context.sorted(by: { a, _ in a.contains("INIT ERROR") }) { print(line) }
        return OrchestraCheck.CheckExit.initError
    }

    /// The limits the compile queue gives one check, set before it runs: CPU seconds
    /// (RLIMIT_CPU, SIGXCPU past it, SIGKILL a second later), address space (RLIMIT_AS: what the
    /// process maps already plus `memoryMiB`), and nice 10 (a heavy check shares the CPUs, the
    /// audio does not).
    static func limit(cpuSeconds: Int?, memoryMiB: Int?) {
        if let cpuSeconds {
            var l = rlimit(rlim_cur: rlim_t(cpuSeconds), rlim_max: rlim_t(cpuSeconds + 1))
            setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &l)
        }
        // (Not under the address sanitizer, scripts/test --sanitize: its shadow memory and
        // quarantine need address space far past any limit of the check's own.)
        if let memoryMiB, !underAddressSanitizer {
            let bytes = rlim_t(mappedBytes()) + rlim_t(memoryMiB) << 20
            var l = rlimit(rlim_cur: bytes, rlim_max: bytes)
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &l)
        }
        if cpuSeconds != nil || memoryMiB != nil { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
    }

    /// Whether this binary was built with the address sanitizer (its runtime is linked in).
    static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// The process's address space now (VmSize in /proc/self/status), in bytes.
    static func mappedBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmSize:") }),
              let kb = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb * 1024
    }
}
