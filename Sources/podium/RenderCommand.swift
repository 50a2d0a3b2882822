import ArgumentParser
import Foundation
import PodiumAudioFile
import PodiumDrivers
import PodiumEngine

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render an orchestra offline to a WAV file, as fast as Csound runs.",
        discussion: "Identical samples to `csound -o OUT.wav -f FILE` for the same file (float output).")

    @OptionGroup var orchestra: OrchestraArguments

    @Option(name: .shortAndLong, help: "Output WAV file.")
    var output: String

    @Option(name: .long, help: "Override the orchestra's sample rate.")
    var sr: Int?

    @Option(name: .long, help: "Override the orchestra's ksmps.")
    var ksmps: Int?

    @Option(name: .long, help: "Seconds to render (required when the score never ends).")
    var duration: Double?

    @Option(name: .long, help: "Sample format: float, 24 or 16 (bits).")
    var format: SampleFormat = .float

    func validate() throws {
        do { try EngineOptions(sampleRate: sr, ksmps: ksmps).validate() } catch { throw ValidationError("\(error)") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
    }

    func run() throws {
        let request = RenderRequest(
            source: orchestra.source, output: output,
            options: EngineOptions(sampleRate: sr, ksmps: ksmps, seed: orchestra.seed),
            format: format, duration: duration)
        let bar = ProgressReporter(label: (output as NSString).lastPathComponent)
        let minimum = orchestra.minimumLevel(default: .warning)
        do {
            let summary = try OfflineRenderer(request).run(
                progress: { bar.update(rendered: $0, total: $1) },
                console: { line in
                    if line.level >= minimum { Terminal.error(line.text) }
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
        let peakText = peaks.map { $0 > 0 ? cFormat("%.1f dBFS", 20 * log10($0)) : "silent" }.joined(separator: ", ")
        return "wrote \(output): " + cFormat("%.3f s, %ld ch, %ld Hz, ", seconds, channels, sampleRate)
            + "peak \(peakText); " + cFormat("wall %.3f s, %.1f", wallSeconds, speed) + "× real time"
    }
}
