import ArgumentParser
import Foundation
import PodiumEngine
import PodiumOSC
import PodiumWeb

/// `podium layout touchosc ORCHESTRA -o FILE.tosc`: the stage page's widgets as a TouchOSC layout.
struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Write a controller layout with the stage page's widgets.",
        discussion: "touchosc: a TouchOSC (Mk2) .tosc file. Controls the OSC map binds send its addresses; the others /podium/chn/<name>.")

    enum Kind: String, ExpressibleByArgument { case touchosc }

    @Argument(help: "The layout's kind: touchosc.")
    var kind: Kind

    @OptionGroup var orchestra: OrchestraArguments

    @Option(name: .long, help: "The orchestra's OSC map (YAML; default: ORCHESTRA.oscmap.yaml beside it, when present).")
    var oscMap: String?

    @Option(name: .shortAndLong, help: "The layout file to write (.tosc).")
    var output: String

    // Thread: main
    func run() throws {
        // The channels are declared by the orchestra's global code: it runs when Csound starts.
        let engine = try Engine(options: EngineOptions(seed: orchestra.seed))
        try engine.compile(orchestra.source)
        try engine.start()
        let beside = (orchestra.file as NSString).deletingPathExtension + ".oscmap.yaml"
        let mapPath = oscMap ?? (FileManager.default.fileExists(atPath: beside) ? beside : nil)
        let map = try mapPath.map { try OSCMap(contentsOf: $0) }
        let layout = WebLayout(orchestra: (orchestra.file as NSString).lastPathComponent, channels: engine.channels(), map: map)
        let data = try TouchOSCExport.file(layout, map: map)
        do { try data.write(to: URL(fileURLWithPath: output)) } catch {
            throw ValidationError("cannot write \(output): \(error.localizedDescription)")
        }
        let count = layout.groups.flatMap(\.controls).count
        FileHandle.standardError.write(Data("podium: \(output): a TouchOSC layout with \(count) controls\(mapPath.map { " (OSC map \($0))" } ?? "")\n".utf8))
    }
}
