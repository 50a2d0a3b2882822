import ArgumentParser
import Foundation
import PodiumEngine

/// What every subcommand that runs an orchestra takes: the file, its score, and how much
/// of Csound's console to show.
struct OrchestraArguments: ParsableArguments {
    @Argument(help: "A .csd file, or an orchestra (.orc) with --score.")
    var file: String

    @Option(name: .long, help: "A score file for an orchestra file.")
    var score: String?

    @Option(name: .long, help: "Seed Csound's random generators (repeatable output).")
    var seed: UInt32?

    @Flag(name: .long, help: "Show every Csound console line.")
    var verbose = false

    @Flag(name: .long, help: "Show only errors.")
    var quiet = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no such file: \(file)") }
        if let score, !FileManager.default.fileExists(atPath: score) { throw ValidationError("no such score file: \(score)") }
        if score != nil && file.hasSuffix(".csd") { throw ValidationError("--score goes with an orchestra file, not a .csd (its score is inside)") }
        if verbose && quiet { throw ValidationError("--verbose and --quiet contradict each other") }
        // Csound 6.18's seed opcode reads its value as a signed 32-bit number: 2^31 and above
        // all become 0 ("Seeding with 0"), the same sequence for every one of them.
        if let seed, seed > OrchestraArguments.largestSeed { throw ValidationError("--seed: \(seed) is beyond Csound's largest seed (\(OrchestraArguments.largestSeed))") }
    }

    /// The largest seed Csound 6.18 takes as given (2^31 − 1).
    static let largestSeed = UInt32(Int32.max)

    var source: EngineSource { file.hasSuffix(".csd") ? .csd(path: file) : .orchestra(path: file, score: score) }

    /// The least severe console line shown, given the flags and a subcommand's default.
    func minimumLevel(default level: ConsoleLine.Level) -> ConsoleLine.Level {
        verbose ? .debug : (quiet ? .error : level)
    }
}
