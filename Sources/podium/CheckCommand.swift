import ArgumentParser
import Foundation
import PodiumEngine

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check an orchestra as Csound compiles it, without playing it.",
        discussion: """
        Prints FILE:LINE: message for each error and exits 1 when there is one. With --stdin, \
        checks orchestra code read from standard input: podium play runs this in a child process \
        before compiling live code, so that text that crashes Csound's parser, or leaves it by \
        longjmp (which aborts a performing Csound 6.18), never reaches the performing engine \
        (exit 0 compiled, 1 errors, 2 such a fatal error, 3 an init error in its global code, \
        4 its global code needed more memory than --memory-limit). --cpu-limit and --memory-limit \
        bound the check itself (past the CPU limit it ends by SIGXCPU); it runs at nice 10.
        """)

    @Argument(help: "A .csd or .orc file (not with --stdin).")
    var file: String?

    @Flag(name: .long, help: "Read orchestra code from standard input.")
    var stdin = false

    @Option(name: .long, help: "A Csound option for the check (repeatable; search paths).")
    var csoundOption: [String] = []

    @Option(name: .long, help: "Seconds of CPU time the check may take (RLIMIT_CPU).")
    var cpuLimit: Int?

    @Option(name: .long, help: "MiB of address space the check may take (RLIMIT_AS).")
    var memoryLimit: Int?

    func validate() throws {
        if stdin == (file != nil) { throw ValidationError("give either a file or --stdin") }
        if let file, !FileManager.default.fileExists(atPath: file) { throw ValidationError("no such file: \(file)") }
        if let cpuLimit, cpuLimit < 1 { throw ValidationError("--cpu-limit: at least 1 second") }
        if let memoryLimit, memoryLimit < 64 { throw ValidationError("--memory-limit: at least 64 MiB") }
    }

    /// The limits podium play's compile queue gives the check, set before Csound loads.
    func limitItself() {
        if let cpuLimit {
            // Soft limit: SIGXCPU (the parent names the limit); the hard one a second later.
            var l = rlimit(rlim_cur: rlim_t(cpuLimit), rlim_max: rlim_t(cpuLimit + 1))
            setrlimit(__rlimit_resource_t(RLIMIT_CPU.rawValue), &l)
        }
        if let memoryLimit {
            var l = rlimit(rlim_cur: rlim_t(memoryLimit) << 20, rlim_max: rlim_t(memoryLimit) << 20)
            setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), &l)
        }
        // Below the performance's threads: a heavy check shares the CPUs, the audio does not.
        if cpuLimit != nil || memoryLimit != nil { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
    }

    func run() throws {
        limitItself()
        let engine = try Engine(options: EngineOptions(extra: ["-n"] + csoundOption))
        if stdin {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            do { try OrchestraCheck.lexical(text, source: "<stdin>") } catch {
                print("\(error)")
                throw ExitCode(OrchestraCheck.CheckExit.errors)
            }
            let parseStarted = ContinuousClock.now
            let (code, diagnostics) = engine.parse(text)
            let parsing = ContinuousClock.now - parseStarted
            for line in diagnostics { print(line) }
            if diagnostics.contains(where: OrchestraCheck.isMemoryFailure) { throw ExitCode(OrchestraCheck.CheckExit.memory) }
            if code == 0 { try runGlobalCode(text, parsing: parsing) }
            throw ExitCode(code == 0 ? OrchestraCheck.CheckExit.parsed : (code < 0 ? OrchestraCheck.CheckExit.errors : OrchestraCheck.CheckExit.fatal))
        }
        let path = file!
        do {
            try engine.compile(path.hasSuffix(".csd") ? .csd(path: path) : .orchestra(path: path, score: nil))
            print("\(path): ok")
        } catch {
            print("\(error)")
            throw ExitCode(1)
        }
    }

    /// Text that parses can still crash Csound when its global code runs (`gkX init` with no
    /// value reads a missing argument): that code runs in the performing engine's callback at
    /// the merge. Here it runs first, in a started engine of its own, for two k-cycles; a crash
    /// ends this child with a signal (the text is refused), ordinary errors are left to the
    /// live compile to report. Global code therefore runs twice: here and at the merge.
    /// It also says what the merge will cost the audio thread: the compile's time here less the
    /// parse's (which the performing engine does on the caller's thread), as
    /// `podium-check: global code N µs` (OrchestraCheck warns when that is over half a period).
    func runGlobalCode(_ text: String, parsing: Duration) throws {
        let runner = try Engine(options: EngineOptions(extra: ["-n"] + csoundOption))
        try runner.compile(.text(orchestra: "nchnls = 2\nnchnls_i = 2\n0dbfs = 1\n", score: "f 0 1", name: "check"))
        try runner.start()
        _ = runner.console.flush()
        let started = ContinuousClock.now
        do { _ = try runner.compileOrchestra(text, source: "<stdin>") } catch {
            // Ordinary errors are the live compile's to report; running out of memory is the check's.
            if let failure = "\(error)".split(separator: "\n").map(String.init).first(where: OrchestraCheck.isMemoryFailure) {
                print(failure)
                throw ExitCode(OrchestraCheck.CheckExit.memory)
            }
        }
        let merge = ContinuousClock.now - started - parsing
        print("\(OrchestraCheck.costLine) \(max(0, Int(merge / .microseconds(1)))) µs")
        for _ in 0..<2 { _ = runner.performKsmps() }
        // An init error in the global code (an ftgen that cannot open its file) fails the save
        // like a compile error, with Csound's lines: the performing engine would print it with no
        // file name after "compiled". Left out: the code did not compile here (it uses the
        // performance's own globals), which the live compile judges.
        let lines = runner.console.flush().map(\.text)
        if let failure = lines.first(where: OrchestraCheck.isMemoryFailure) {
            print(failure)
            throw ExitCode(OrchestraCheck.CheckExit.memory)
        }
        guard let first = lines.firstIndex(where: { $0.contains("INIT ERROR in instr 0") }) else { return }
        let context = lines[max(0, first - 3)...].filter { !$0.isEmpty && !$0.contains("header init errors") }
        for line in context.sorted(by: { a, _ in a.contains("INIT ERROR") }) { print(line) }
        throw ExitCode(OrchestraCheck.CheckExit.initError)
    }
}
