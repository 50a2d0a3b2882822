import ArgumentParser
import PodiumSurfaces

/// `podium reference TOPIC`: what `:help` reads, as the reference's Markdown tables
/// (scripts/gen-cli-reference puts them into docs/reference between their markers).
struct Reference: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a reference table as Markdown: the REPL's commands, its other lines, the OSC addresses, or the pattern functions with their signatures.",
        discussion: "The same tables `:help TOPIC` answers from; docs/reference holds them.")

    enum Table: String, ExpressibleByArgument, CaseIterable {
        case repl, lines, osc, functions
    }

    @Argument(help: "Which table: repl, lines, osc or functions.")
    var table: Table

    // Thread: main
    func run() throws {
        switch table {
        case .repl: print(HelpTopics.markdown(HelpTopics.replCommands, columns: ("command", "usage", "does")), terminator: "")
        case .lines: print(HelpTopics.markdown(HelpTopics.replLines, columns: ("line", "as typed", "does")), terminator: "")
        case .osc: print(HelpTopics.markdown(HelpTopics.oscAddresses, columns: ("address", "arguments", "does")), terminator: "")
        case .functions: print(HelpTopics.functionsMarkdown, terminator: "")
        }
    }
}
