import ArgumentParser
import Foundation
import PodiumSession

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Re-render a session offline, as fast as Csound runs.",
        discussion: """
        Starts the engine as the performance did (same orchestra text, sr, ksmps, seed) and \
        applies every line of events.log at its k-cycle. A session with audio renders its first \
        take (--take N, --whole); a journal-only session the whole performance. For orchestras \
        without live input, external files or clock opcodes the samples equal audio.wav \
        (recorded input is fed back); what would differ is said before it starts.
        """)

    @Argument(help: "A session directory (see `podium sessions`).")
    var directory: String

    @Option(name: .shortAndLong, help: "Output WAV file (default: DIRECTORY/replay.wav).")
    var output: String?

    @Option(name: .long, help: "Render audio take N (1: audio.wav; default 1 when audio was recorded).")
    var take: Int?

    @Flag(name: .long, help: "Render the whole performance from the engine's start, even when audio was recorded later.")
    var whole = false

    @Flag(name: .long, help: "Show Csound's console lines.")
    var verbose = false

    @Option(name: .long, help: "Also write a Standard MIDI File of what podium:midi_out sent (the orchestra's MIDI output, hushes' all notes off), one tick a sample frame.")
    var midi: String?

    func validate() throws {
        guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("session.json")) else {
            throw ValidationError("\(directory) is not a session (no session.json)")
        }
        if let take, take < 1 { throw ValidationError("--take: takes count from 1") }
        if take != nil && whole { throw ValidationError("--take and --whole: choose one") }
        if let midi, !midi.lowercased().hasSuffix(".mid") && !midi.lowercased().hasSuffix(".midi") {
            throw ValidationError("--midi: a MIDI file's name ends in .mid (\(midi))")
        }
    }

    func run() throws {
        let dir = URL(fileURLWithPath: directory)
        let out = output ?? dir.appendingPathComponent("replay.wav").path
        let bar = ProgressReporter(label: (out as NSString).lastPathComponent)
        do {
            let replayer = try SessionReplayer(directory: dir, take: take, whole: whole)
            // Said before it starts: why the samples may differ from the performance.
            for warning in replayer.warnings { Terminal.error("podium replay: not exact: \(warning)") }
            if replayer.span.take == nil, replayer.info.hasAudio(in: dir) == false {
                Terminal.error("podium replay: a journal-only session: rendering the whole performance from the engine's start")
            }
            let summary = try replayer.run(output: out, midi: midi, progress: { bar.update(rendered: $0, total: $1) },
                                           console: { if verbose || $0.level >= .warning { Terminal.error($0.text) } })
            bar.finish()
            print(String(format: "replayed %@ → %@: %.3f s, %d events; wall %.3f s, %.1f× real time",
                         dir.lastPathComponent, out, summary.seconds, summary.events, summary.wallSeconds, summary.speed))
            for note in replayer.info.notes { Terminal.error("podium replay: note: \(note)") }
        } catch {
            bar.finish()
            Terminal.error("podium replay: \(error)")
            throw ExitCode(1)
        }
    }
}
