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

    @Flag(name: .long, help: "Serve checks on standard input and output, one forked child each (podium play's warm checker).")
    var serve = false

    @Option(name: .long, help: "A Csound option for the check (repeatable; search paths).")
    var csoundOption: [String] = []

    @Option(name: .long, help: "Seconds of CPU time the check may take (RLIMIT_CPU).")
    var cpuLimit: Int?

    @Option(name: .long, help: "MiB of memory the check may map beyond what the process maps when it starts (RLIMIT_AS).")
    var memoryLimit: Int?

    func validate() throws {
        if !serve && stdin == (file != nil) { throw ValidationError("give either a file or --stdin") }
        if let file, !FileManager.default.fileExists(atPath: file) { throw ValidationError("no such file: \(file)") }
        if let cpuLimit, cpuLimit < 1 { throw ValidationError("--cpu-limit: at least 1 second") }
        if let memoryLimit, memoryLimit < 64 { throw ValidationError("--memory-limit: at least 64 MiB") }
    }

    func run() throws {
        if serve {
            CheckServer.serve()
            return
        }
        if stdin {
            TextCheck.limit(cpuSeconds: cpuLimit, memoryMiB: memoryLimit)
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            throw ExitCode(TextCheck.run(text, csoundOptions: csoundOption))
        }
        let engine = try Engine(options: EngineOptions(extra: ["-n"] + csoundOption))
        let path = file!
        do {
            try engine.compile(path.hasSuffix(".csd") ? .csd(path: path) : .orchestra(path: path, score: nil))
            print("\(path): ok")
        } catch {
            print("\(error)")
            throw ExitCode(1)
        }
    }
}
