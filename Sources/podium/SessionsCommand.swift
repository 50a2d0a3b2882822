import ArgumentParser
import Foundation
import PodiumSession

/// Where sessions are kept: the option, else $PODIUM_SESSIONS, else ./Sessions.
func sessionsRoot(_ option: String?) -> String {
    option ?? ProcessInfo.processInfo.environment["PODIUM_SESSIONS"] ?? "Sessions"
}

/// `--dir`, shared by `podium sessions` and `podium sessions prune` (either side of `prune`).
struct SessionsLocation: ParsableArguments {
    @Option(name: .long, help: "The sessions directory (default: $PODIUM_SESSIONS, else ./Sessions).")
    var dir: String?
}

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions (every performance keeps one), repair one a crash interrupted, or prune old ones.",
        subcommands: [Prune.self])

    @OptionGroup var location: SessionsLocation

    @Option(name: .long, help: "Repair this session: WAV headers, events.log after its last sync line, session.json.")
    var repair: String?

    func run() throws {
        if let repair {
            do { print(try SessionCatalog.repair(URL(fileURLWithPath: repair))) } catch {
                Terminal.error("podium sessions: \(error)")
                throw ExitCode(1)
            }
            return
        }
        let root = sessionsRoot(location.dir)
        // Journal-only sessions a crash interrupted are repaired on the way (nothing to lose:
        // events.log is cut after its last sync line); sessions with audio wait for --repair.
        let list = SessionCatalog.list(URL(fileURLWithPath: root), repairing: true)
        if list.isEmpty { return print("no sessions in \(root)") }
        print(pad("date", 20) + pad("orchestra", 16) + pad("length", 10) + pad("events", 8) + pad("audio", 14) + pad("size", 10) + "status")
        for s in list {
            let date = String(s.info.started.prefix(19)).replacingOccurrences(of: "T", with: " ")
            let status = s.status == "interrupted" ? "interrupted (podium sessions --repair \(s.directory.path))"
                : s.isRunning ? (s.hasAudio ? "recording" : "performing") : s.status
            print(pad(date, 20) + pad(s.info.orchestra, 16) + pad(String(format: "%.1f s", s.seconds), 10) + pad("\(s.events)", 8)
                  + pad(s.hasAudio ? "audio" : "journal only", 14) + pad(Self.size(s.bytes), 10) + status)
        }
    }

    static func size(_ bytes: Int64) -> String {
        bytes > 1 << 20 ? String(format: "%.1f MB", Double(bytes) / 1048576) : String(format: "%.0f KB", Double(bytes) / 1024)
    }

    private func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s + " " : s + String(repeating: " ", count: n - s.count) }
}

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete old sessions: beyond the N newest (--keep) and/or older than an age (--older-than).",
        discussion: """
        A session goes when every criterion given selects it. Sessions that hold recorded audio \
        stay unless --include-audio; a session whose performance still runs always stays. \
        --dry-run lists what would go.
        """)

    @OptionGroup var location: SessionsLocation

    @Option(name: .long, help: "Keep the N newest sessions.")
    var keep: Int?

    @Option(name: .long, help: "Only sessions older than this go: a number and a unit, s m h d w (7d, 12h, 30m).")
    var olderThan: String?

    @Flag(name: .long, help: "Sessions with recorded audio may go too.")
    var includeAudio = false

    @Flag(name: .long, help: "List what would be deleted; delete nothing.")
    var dryRun = false

    func validate() throws {
        if keep == nil && olderThan == nil { throw ValidationError("say what to prune: --keep N, --older-than AGE, or both") }
        if let keep, keep < 0 { throw ValidationError("--keep: \(keep) is not a number of sessions (0 or more)") }
        if let olderThan, PruneRule.age(olderThan) == nil {
            throw ValidationError("--older-than: not an age: \(olderThan) (a number and a unit, s m h d w: 7d, 12h, 30m)")
        }
    }

    func run() throws {
        let root = sessionsRoot(location.dir)
        let rule = PruneRule(keep: keep, olderThan: olderThan.flatMap(PruneRule.age), includeAudio: includeAudio)
        let report = SessionCatalog.prune(URL(fileURLWithPath: root), rule: rule, dryRun: dryRun)
        let verb = dryRun ? "would delete" : "deleted"
        for s in report.removed { print("\(verb) \(s.directory.path) (\(s.hasAudio ? "audio" : "journal only"), \(Sessions.size(s.bytes)))") }
        for (s, why) in report.kept { print("kept \(s.directory.path): \(why)") }
        for f in report.failures { Terminal.error("podium sessions prune: cannot delete \(f)") }
        let bytes = report.removed.reduce(Int64(0)) { $0 + $1.bytes }
        print("\(verb) \(report.removed.count) session\(report.removed.count == 1 ? "" : "s") (\(Sessions.size(bytes))); kept \(report.untouched + report.kept.count)"
              + (report.kept.isEmpty ? "" : " (\(report.kept.count) for the reasons above)"))
        if !report.failures.isEmpty { throw ExitCode(1) }
    }
}
