import ArgumentParser
import Foundation
import PodiumAudioFile
import PodiumDrivers
import PodiumEngine

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render an orchestra offline to a WAV file, as fast as Csound runs.",
        discussion: "Identical samples to `csound -o OUT.wav -f FILE` for the same file (float output).")

    @Argument(help: "A .csd file, or an orchestra (.orc) with --score.")
    var file: String

    @Option(name: .long, help: "A score file for an orchestra file.")
    var score: String?

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String

    @Option(name: .long, help: "Override the orchestra's sample rate.")
    var sr: Int?

    @Option(name: .long, help: "Override the orchestra's ksmps.")
    var ksmps: Int?

    @Option(name: .long, help: "Seed Csound's random generators (repeatable output).")
    var seed: UInt32?

    @Option(name: .long, help: "Seconds to render (required when the score never ends).")
    var duration: Double?

    @Option(name: .long, help: "Sample format: float, 24 or 16 (bits).")
    var format: SampleFormat = .float

    @Flag(name: .long, help: "Show every Csound console line.")
    var verbose = false

    @Flag(name: .long, help: "Show only errors.")
    var quiet = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: file) else { throw ValidationError("no such file: \(file)") }
        if let score, !FileManager.default.fileExists(atPath: score) { throw ValidationError("no such score file: \(score)") }
        if score != nil && file.hasSuffix(".csd") { throw ValidationError("--score goes with an orchestra file, not a .csd (its score is inside)") }
        do { try EngineOptions(sampleRate: sr, ksmps: ksmps).validate() } catch { throw ValidationError("\(error)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if verbose && quiet { throw ValidationError("--verbose and --quiet contradict each other") }
    }

    func run() throws {
        let source: EngineSource = file.hasSuffix(".csd") ? .csd(path: file) : .orchestra(path: file, score: score)
        let request = RenderRequest(
            source: source, output: output,
            options: EngineOptions(sampleRate: sr, ksmps: ksmps, seed: seed),
            format: format, duration: duration)
        let bar = ProgressReporter(label: (output as NSString).lastPathComponent)
        let minimum: ConsoleLine.Level = verbose ? .debug : (quiet ? .error : .warning)
        do {
            let summary = try OfflineRenderer(request).run(
                progress: { bar.update(rendered: $0, total: $1) },
                console: { line in
                    if line.level >= minimum || verbose { Terminal.error(line.text) }
                })
            bar.finish()
            print(summary.line)
        } catch {
            bar.finish()
            Terminal.error("podium render: \(error)")
            throw ExitCode(1)
        }
    }
}

extension SampleFormat: ExpressibleByArgument {}

extension RenderSummary {
    var line: String {
        let peakText = peaks.map { $0 > 0 ? String(format: "%.1f dBFS", 20 * log10($0)) : "silent" }.joined(separator: ", ")
        return String(format: "wrote %@: %.3f s, %d ch, %d Hz, peak %@; wall %.3f s, %.1f× real time",
                      output, seconds, channels, sampleRate, peakText, wallSeconds, speed)
    }
}
