import PodiumHost

/// A score line's musical timing prefix, for every surface that takes score text:
///
///     @bar   i1 0 1 a4      the next bar (p2 and p3 in beats)
///     @beat  i1 0 .5 c5     the next beat
///     @2bars …  @3beats …   the next multiple of 2 bars, of 3 beats (from beat 0)
///     @now   i1 0 1 a4      at once, in seconds, whatever `:quant` says
///
/// `@` already means "when" in Podium's scripts (`@1.5` is seconds from the start); these
/// words carry their unit, so a script line can say both: `@8 @bar i1 0 1`.
public enum TimePrefix {
    /// Splits a leading prefix off; nil when the line has none (the session's `:quant` applies).
    /// `quantum` is the clock's beats per bar.
    public static func split(_ line: String, quantum: Double) throws(InputError) -> (Quantize?, String) {
        let trimmed = Substring(line).trimmingWhitespace()
        guard trimmed.hasPrefix("@"), let word = trimmed.split(separator: " ", maxSplits: 1).first else { return (nil, line) }
        let token = word.dropFirst().lowercased()
        guard let q = try quantize(token, quantum: quantum) else { return (nil, line) }
        return (q, String(trimmed.dropFirst(word.count).trimmingWhitespace()))
    }

    /// A quantization setting as `:quant`, `/podium/quant` and scripts take it: a number of
    /// beats (0: off), or a word `quantize` reads; nil when it is neither.
    public static func setting(_ text: String, quantum: Double) throws(InputError) -> Quantize? {
        if let n = Double(text) { return try setting(beats: n) }
        return try quantize(text.lowercased(), quantum: quantum)
    }

    /// A grid of `beats` (0: off).
    public static func setting(beats: Double) throws(InputError) -> Quantize {
        if beats == 0 { return .now }
        try InputCheck.grid(beats, "a grid")
        return .grid(beats)
    }

    /// `bar`, `beat`, `now`, `Nbars`, `Nbeats` as a quantization; nil for anything else (a
    /// script's `@SECONDS`); an error for a malformed or out-of-range count.
    public static func quantize(_ token: String, quantum: Double) throws(InputError) -> Quantize? {
        switch token {
        case "now", "off": return Quantize.now
        case "beat": return .grid(1)
        case "bar": return .grid(quantum)
        default: break
        }
        for (unit, scale) in [("beats", 1.0), ("beat", 1.0), ("bars", quantum), ("bar", quantum)] where token.hasSuffix(unit) {
            let count = token.dropLast(unit.count)
            guard let n = Double(count) else {
                if count.isEmpty || count.first!.isNumber || count.first == "." { throw InputError("@\(token): not a number of \(unit)") }
                return nil
            }
            try InputCheck.grid(n * scale, "@\(token): a grid")
            return .grid(n * scale)
        }
        return nil
    }
}
