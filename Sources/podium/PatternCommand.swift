import ArgumentParser
import Foundation
import PodiumPatterns
import PodiumSurfaces

/// `podium pattern EXPR [--cycles N]`: a pattern's events, as exact fractions, to hold against
/// Tidal's own `queryArc` (no JACK, no Csound: the pattern engine alone).
struct PatternEvents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pattern",
        abstract: "Print a pattern's events (Tidal's words), one a line: START STOP key=value ….",
        discussion: """
        The events whose whole starts in the first N cycles, sorted by start; START and STOP are \
        exact fractions of a cycle (1/8). EXPR is a control pattern (s "bd*2 [~ sn]" # n "<0 3>") \
        or a slot's statement (d1 $ …). A refused pattern prints the column at fault and exits 1.
        """)

    @Argument(help: "The pattern, in Tidal's words (quote it for the shell).")
    var expression: String

    @Option(name: .long, help: "How many cycles (1 to 10000).")
    var cycles = 1

    @Option(name: .long, parsing: .upToNextOption, help: "Control names an orchestra declares, accepted beside Tidal's.")
    var controls: [String] = []

    // Thread: main
    func run() throws {
        guard (1...10_000).contains(cycles) else { throw ValidationError("--cycles runs from 1 to 10000") }
        let language = PatternLanguage(extraControls: Set(controls))
        let pattern: Pattern<ControlMap>
        do {
            if ReplInterpreter.isPatternStatement(expression.trimmingCharacters(in: .whitespaces)) {
                switch try language.statement(expression) {
                case let .play(_, p), let .once(p), let .transition(_, _, p): pattern = p
                case .hush, .setcps, .mute, .unmute, .solo, .unsolo, .unmuteAll, .unsoloAll, .binding, .block: pattern = .silence
                }
            } else {
                pattern = try language.pattern(expression)
            }
        } catch {
            FileHandle.standardError.write(Data((PatternErrorText.show(error, in: expression) + "\n").utf8))
            throw ExitCode(1)
        }
        // A typo's density (`*99999999`, `fast 1e9`) is refused before a query builds it.
        let density = Density.estimate(pattern, cycles: min(cycles, 8))
        guard density <= 50_000 else {
            FileHandle.standardError.write(Data("about \(density) events a cycle: podium pattern prints at most 50000 a cycle\n".utf8))
            throw ExitCode(1)
        }
        for line in EventLines.lines(pattern, cycles: cycles) { print(line) }
    }
}
