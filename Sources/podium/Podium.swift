import ArgumentParser
import PodiumEngine

@main
struct Podium: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podium",
        abstract: "A live-coding performance host for Csound, clocked by JACK.",
        version: "0.1.0 (Csound \(Engine.csoundVersion))",
        subcommands: [Play.self, Render.self]
    )
}
