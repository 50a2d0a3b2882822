import Foundation

/// `podium sessions prune`: which sessions go, and which stay and why.
public struct PruneRule: Sendable, Equatable {
    /// Keep this many of the newest sessions.
    public var keep: Int?
    /// Only sessions older than this many seconds go.
    public var olderThan: TimeInterval?
    /// Sessions with recorded audio may go too (by default they stay).
    public var includeAudio = false

    public init(keep: Int? = nil, olderThan: TimeInterval? = nil, includeAudio: Bool = false) {
        self.keep = keep
        self.olderThan = olderThan
        self.includeAudio = includeAudio
    }

    /// "7d", "12h", "30m", "45s", "2w" → seconds (nil: not a duration).
    // Thread: NRT (any)
    public static func age(_ text: String) -> TimeInterval? {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let n = Double(text.dropLast()), n.isFinite, n >= 0 else { return nil }
        return n * unit
    }
}

public struct PruneReport: Sendable {
    /// Deleted (or, in a dry run, to be deleted).
    public var removed: [SessionListing] = []
    /// Sessions the rule selected that stayed, with the reason.
    public var kept: [(SessionListing, String)] = []
    /// Sessions the rule did not select (newest, younger).
    public var untouched = 0
    /// Deletions that failed.
    public var failures: [String] = []
}

extension SessionCatalog {
    /// Deletes the sessions `rule` selects: beyond the `keep` newest and older than
    /// `olderThan` (each given criterion must hold). Never a session still performing; never
    /// one with audio unless `includeAudio`. With `dryRun`, deletes nothing.
    // Thread: NRT (the CLI)
    public static func prune(_ root: URL, rule: PruneRule, dryRun: Bool, now: Date = Date()) -> PruneReport {
        var report = PruneReport()
        let newestFirst = list(root).sorted { ($0.started ?? .distantPast) > ($1.started ?? .distantPast) }
        for (index, s) in newestFirst.enumerated() {
            if let keep = rule.keep, index < keep { report.untouched += 1; continue }
            if let limit = rule.olderThan, now.timeIntervalSince(s.started ?? .distantPast) < limit { report.untouched += 1; continue }
            if s.isRunning { report.kept.append((s, "still performing")); continue }
            if s.hasAudio && !rule.includeAudio { report.kept.append((s, "holds recorded audio (--include-audio deletes it too)")); continue }
            if !dryRun {
                do { try FileManager.default.removeItem(at: s.directory) } catch {
                    report.failures.append("\(s.directory.path): \(error.localizedDescription)")
                    continue
                }
            }
            report.removed.append(s)
        }
        return report
    }
}
