import Foundation

/// How long a score plays, from Csound's own sorted score.
public enum ScoreLength: Equatable, Sendable {
    /// Ends after this many seconds.
    case seconds(Double)
    /// Never ends by itself: `z` durations, `f0 z`, or an empty score (Csound 6 then
    /// performs until stopped). Held notes (negative p3) do not keep a score alive:
    /// Csound ends it after the last event, as it does for the csound CLI.
    case unending(reason: String)

    /// Anything longer than this is "forever" (`z` is 2^32 beats).
    static let forever = 1e7

    public init(score: String) {
        let hasEvents = score.split(whereSeparator: \.isNewline).contains { line in
            let t = line.drop { $0 == " " || $0 == "\t" }
            return t.first.map { "ifqasbvtw".contains($0) } ?? false
        }
        guard hasEvents, let sorted = CsoundAPI.sortScore(score) else {
            self = .unending(reason: "the score has no events, so Csound performs until stopped")
            return
        }
        self = ScoreLength(sorted: sorted)
    }

    /// Reads Csound's sorted format: `i p1 p2beats p2secs p3beats p3secs …`, `f 0 beats secs`,
    /// `s [beats secs]` ending a section, `e [beats secs]`.
    init(sorted: String) {
        var sectionStart = 0.0
        var sectionEnd = 0.0
        var any = false
        for line in sorted.split(whereSeparator: \.isNewline) {
            let f = line.split(separator: " ")
            guard let op = f.first else { continue }
            let num = { (i: Int) -> Double? in i < f.count ? Double(f[i]) : nil }
            switch op {
            case "i":
                any = true
                guard let start = num(3), let dur = num(5) else { continue }
                sectionEnd = max(sectionEnd, start + max(dur, 0))
            case "f":
                if f.count > 1, Double(f[1]) == 0, let t = num(3) { any = true; sectionEnd = max(sectionEnd, t) }
            case "s", "e":
                if let t = num(2) { sectionEnd = max(sectionEnd, t) }
                if op == "s" { sectionStart += sectionEnd; sectionEnd = 0 }
            default:
                continue
            }
            if sectionStart + sectionEnd >= ScoreLength.forever {
                self = .unending(reason: "the score runs for ever (z or f0 with a huge time)")
                return
            }
            if op == "e" { break }
        }
        self = any ? .seconds(sectionStart + sectionEnd) : .unending(reason: "the score has no events, so Csound performs until stopped")
    }
}
