import ArgumentParser
import Foundation
import PodiumSession

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Re-render a recorded session offline, as fast as Csound runs.",
        discussion: """
        Starts the engine as the performance did (same orchestra text, sr, ksmps, seed) and \
        applies every line of events.log at its k-cycle. For orchestras without live input, \
        external files or clock opcodes the samples equal audio.wav (recorded input is fed back).
        """)

    @Argument(help: "A session directory (see `podium sessions`).")
    var directory: String

    @Option(name: .shortAndLong, help: "Output WAV file (default: DIRECTORY/replay.wav).")
    var output: String?

    @Flag(name: .long, help: "Show Csound's console lines.")
    var verbose = false

    func validate() throws {
        guard FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent("session.json")) else {
            throw ValidationError("\(directory) is not a session (no session.json)")
        }
    }

    func run() throws {
        let dir = URL(fileURLWithPath: directory)
        let out = output ?? dir.appendingPathComponent("replay.wav").path
        let bar = ProgressReporter(label: (out as NSString).lastPathComponent)
        do {
            let replayer = try SessionReplayer(directory: dir)
            let summary = try replayer.run(output: out, progress: { bar.update(rendered: $0, total: $1) },
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

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List recorded sessions, or repair one a crash interrupted.")

    @Option(name: .long, help: "The sessions directory (default: $PODIUM_SESSIONS, else ./Sessions).")
    var dir: String?

    @Option(name: .long, help: "Repair this session: WAV headers, a cut-off events.log line, session.json.")
    var repair: String?

    func run() throws {
        if let repair {
            do { print(try SessionCatalog.repair(URL(fileURLWithPath: repair))) } catch {
                Terminal.error("podium sessions: \(error)")
                throw ExitCode(1)
            }
            return
        }
        let root = dir ?? ProcessInfo.processInfo.environment["PODIUM_SESSIONS"] ?? "Sessions"
        let list = SessionCatalog.list(URL(fileURLWithPath: root))
        if list.isEmpty { return print("no sessions in \(root)") }
        print(pad("date", 20) + pad("orchestra", 16) + pad("duration", 10) + pad("size", 10) + "status")
        for s in list {
            let date = String(s.info.started.prefix(19)).replacingOccurrences(of: "T", with: " ")
            let size = s.bytes > 1 << 20 ? String(format: "%.1f MB", Double(s.bytes) / 1048576) : String(format: "%.0f KB", Double(s.bytes) / 1024)
            let status = s.status == "interrupted" ? "interrupted (podium sessions --repair \(s.directory.path))" : s.status
            print(pad(date, 20) + pad(s.info.orchestra, 16) + pad(String(format: "%.1f s", s.seconds), 10) + pad(size, 10) + status)
        }
    }

    private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}
