import ArgumentParser
import PodiumEngine

@main
struct Podium: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "podium",
        abstract: "A live-coding performance host for Csound, clocked by JACK.",
        version: "\(Podium.version) (Csound \(Engine.csoundVersion))",
        subcommands: [Play.self, Render.self, Replay.self, Sessions.self, Check.self, Layout.self, Doctor.self, PatternEvents.self, Samples.self, Reference.self]
    )

    static let version = "0.2.0"
}
