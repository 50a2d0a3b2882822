import ArgumentParser
import Foundation
import PodiumEngine

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an orchestra as Csound compiles it, without playing it.",
        discussion: """
        Prints FILE:LINE: message for each error and exits 1 when there is one. With --stdin, \
        checks orchestra code read from standard input: podium play runs this in a child process \
        before compiling live code, so that text that crashes Csound's parser, or leaves it by \
        longjmp (which aborts a performing Csound 6.18), never reaches the performing engine \
        (exit 0 compiled, 1 errors, 2 such a fatal error).
        """)

    @Argument(help: "A .csd or .orc file (not with --stdin).")
    var file: String?

    @Flag(name: .long, help: "Read orchestra code from standard input.")
    var stdin = false

    @Option(name: .long, help: "A Csound option for the check (repeatable; search paths).")
    var csoundOption: [String] = []

    func validate() throws {
        if stdin == (file != nil) { throw ValidationError("give either a file or --stdin") }
        if let file, !FileManager.default.fileExists(atPath: file) { throw ValidationError("no such file: \(file)") }
    }

    func run() throws {
        let engine = try Engine(options: EngineOptions(extra: ["-n"] + csoundOption))
        if stdin {
            let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
            do { try OrchestraCheck.lexical(text, source: "<stdin>") } catch {
                print("\(error)")
                throw ExitCode(OrchestraCheck.CheckExit.errors)
            }
            let (code, diagnostics) = engine.parse(text)
            for line in diagnostics { print(line) }
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
}
