/// Tidal's mini-notation (`"bd*2 [~ sn]"`): the public entry point, and the resolution of the
/// parsed tree into a pattern — Tidal 1.7.10's `toPat`, `resolve_seq`, `resolve_tpat`,
/// `resolve_size` and the `Parseable`/`Enumerable` instances, in `Sound.Tidal.ParseBP`.

/// What the steps of a mini-notation string are (Tidal's instance of `Parseable` in use).
public enum MiniKind: Sendable { case string, double, note, int, time, bool }

public enum MiniNotation {
    /// Parses mini-notation into a pattern of values of `kind` (.string for s/vowel, .note for n/note,
    /// .double for speed etc., .int, .time for fast/slow/<~ args (values `.rational`), .bool for struct/while).
    /// `column` is the 1-based column of the string's first character in the performer's text, `line` its line:
    /// every error and every SourceSpan in the events' context is in those coordinates.
    // Thread: any
    public static func parse(_ text: String, kind: MiniKind, column: Int = 1, line: Int = 1) throws(PatternError) -> Pattern<Value> {
        toPat(try MiniParser.parse(text, kind: kind, column: column, line: line), kind)
    }

    /// Tidal's `toPat`: the tree as a pattern.
    // Thread: any
    static func toPat(_ t: TPat, _ kind: MiniKind) -> Pattern<Value> {
        switch t {
        case let .atom(span, v):
            let p = Pattern<Value>.pure(v)
            guard let span else { return p }
            return p.withContext { _ in [span] }
        case let .fast(r, x): return fast(times(r), toPat(x, kind))
        case let .slow(r, x): return slow(times(r), toPat(x, kind))
        case let .degradeBy(seed, amount, x):
            return _degradeByUsing(rand().rotL(Time(Int64(seed), 10000)), amount, toPat(x, kind))
        case let .cycleChoose(seed, xs):
            // unwrap $ segment 1 $ chooseBy (rotL (0.0001 * seed) rand) xs
            return Pattern.unwrap(_segment(1, chooseBy(rand().rotL(Time(Int64(seed), 10000)), xs.map { toPat($0, kind) })))
        case let .euclid(k, n, r, x):
            let pk = ints(k), pn = ints(n), pr = ints(r), p = toPat(x, kind)
            if kind == .bool {
                // euclidOffBool
                let pb = p.map { $0 == .bool(true) }
                return tParam3({ k, n, r, q in _euclidOffBool(k, n, r, q) }, pk, pn, pr, pb).map { Value.bool($0) }
            }
            return tParam3({ k, n, r, q in _euclidOff(k, n, r, q) }, pk, pn, pr, p)
        case let .stack(xs): return stack(xs.map { toPat($0, kind) })
        case .silence, .foot, .variable, .elongate, .repeated: return .silence
        case let .enumFromTo(a, b):
            return Pattern.unwrap(appBoth(toPat(a, kind), toPat(b, kind)) { fromTo($0, $1, kind) })
        case let .polyrhythm(steps, xs):
            let pats = xs.map { resolveTPat($0, kind) }
            let steprate: Pattern<Time> = steps.map(times) ?? .pure(pats.first?.0 ?? 0)
            return stack(pats.map { size, pat in fast(steprate.map { $0 / size }, pat) })
        case let .seq(xs): return resolveSeq(xs, kind).1
        }
    }

    /// A pattern of `.time` steps as times (`*`, `/`, `%` arguments).
    // Thread: any
    static func times(_ t: TPat) -> Pattern<Time> {
        toPat(t, .time).map { v in
            switch v {
            case let .rational(r): return r
            case let .int(i): return Time(i)
            default: return Time(v.number ?? 0)
            }
        }
    }

    /// A pattern of `.int` steps as Ints (Euclid arguments).
    // Thread: any
    static func ints(_ t: TPat) -> Pattern<Int> {
        toPat(t, .int).map { v in if case let .int(i) = v { return i }; return Int(v.number ?? 0) }
    }

    /// Tidal's `resolve_tpat`: a sequence's step count and pattern, 1 for anything else.
    // Thread: any
    static func resolveTPat(_ t: TPat, _ kind: MiniKind) -> (Time, Pattern<Value>) {
        if case let .seq(xs) = t { return resolveSeq(xs, kind) }
        return (1, toPat(t, kind))
    }

    /// Tidal's `resolve_seq` and `resolve_size`: steps weighted by `@`, copied by `!`, in `timeCat`.
    // Thread: any
    static func resolveSeq(_ xs: [TPat], _ kind: MiniKind) -> (Time, Pattern<Value>) {
        var sized: [(Time, Pattern<Value>)] = []
        for x in xs {
            switch x {
            case let .elongate(r, p): sized.append((r, toPat(p, kind)))
            case let .repeated(n, p):
                let q = toPat(p, kind)
                for _ in 0..<max(0, n) { sized.append((1, q)) }
            default: sized.append((1, toPat(x, kind)))
            }
        }
        return (sized.reduce(Time.zero) { $0 + $1.0 }, timecat(sized))
    }

    /// Tidal's `fromTo` of each `Enumerable` instance: numbers count (`enumFromTo'`, backwards when
    /// `a > b`), strings and booleans are just the two.
    // Thread: any
    static func fromTo(_ a: Value, _ b: Value, _ kind: MiniKind) -> Pattern<Value> {
        let limit = MiniParser.maxCount
        switch (a, b) {
        case let (.int(x), .int(y)):
            let lo = min(x, y), hi = max(x, y)
            var list = [Int]()
            var v = lo
            while v <= hi, list.count < limit { list.append(v); v += 1 }
            return fastFromList((x > y ? list.reversed() : list).map { Value.int($0) })
        case let (.rational(x), .rational(y)):
            // numericEnumFromTo: takeWhile (<= to + 1/2) [from, from + 1 ..]
            let lo = min(x, y), hi = max(x, y) + Time(1, 2)
            var list = [Time]()
            var k: Int64 = 0
            while lo + Time(k) <= hi, list.count < limit { list.append(lo + Time(k)); k += 1 }
            return fastFromList((x > y ? list.reversed() : list).map { Value.rational($0) })
        case (.double, .double), (.note, .note):
            let x = a.number ?? 0, y = b.number ?? 0
            let lo = min(x, y), hi = max(x, y) + 0.5
            var list = [Double]()
            var k = 0.0
            while lo + k <= hi, list.count < limit { list.append(lo + k); k += 1 }
            let ordered = x > y ? list.reversed() : list
            return fastFromList(ordered.map { kind == .note ? Value.note($0) : Value.double($0) })
        default:
            return fastFromList([a, b])
        }
    }

    // Thread: any
    static func fastFromList(_ vs: [Value]) -> Pattern<Value> { fastcat(vs.map { .pure($0) }) }

    /// Tidal's `chordTable` (`Sound.Tidal.Chords`): a name's notes, `[0]` for an unknown name.
    // Thread: any
    static func chord(_ name: String) -> [Double] {
        for (names, notes) in chordTable where names.split(separator: " ").contains(Substring(name)) { return notes }
        return [0]
    }

    static let chordTable: [(String, [Double])] = [
        ("major maj M", [0, 4, 7]), ("aug plus sharp5", [0, 4, 8]), ("six 6", [0, 4, 7, 9]),
        ("sixNine six9 sixby9 6by9", [0, 4, 7, 9, 14]), ("major7 maj7", [0, 4, 7, 11]), ("major9 maj9", [0, 4, 7, 11, 14]),
        ("add9", [0, 4, 7, 14]), ("major11 maj11", [0, 4, 7, 11, 14, 17]), ("add11", [0, 4, 7, 17]),
        ("major13 maj13", [0, 4, 7, 11, 14, 21]), ("add13", [0, 4, 7, 21]), ("dom7", [0, 4, 7, 10]),
        ("dom9", [0, 4, 7, 14]), ("dom11", [0, 4, 7, 17]), ("dom13", [0, 4, 7, 21]),
        ("sevenFlat5 7f5", [0, 4, 6, 10]), ("sevenSharp5 7s5", [0, 4, 8, 10]), ("sevenFlat9 7f9", [0, 4, 7, 10, 13]),
        ("nine", [0, 4, 7, 10, 14]), ("eleven 11", [0, 4, 7, 10, 14, 17]), ("thirteen 13", [0, 4, 7, 10, 14, 17, 21]),
        ("minor min m", [0, 3, 7]), ("diminished dim", [0, 3, 6]), ("minorSharp5 msharp5 mS5", [0, 3, 8]),
        ("minor6 min6 m6", [0, 3, 7, 9]), ("minorSixNine minor69 min69 minSixNine m69 mSixNine m6by9", [0, 3, 9, 7, 14]),
        ("minor7flat5 minor7f5 min7flat5 min7f5 m7flat5 m7f5", [0, 3, 6, 10]), ("minor7 min7 m7", [0, 3, 7, 10]),
        ("minor7sharp5 minor7s5 min7sharp5 min7s5 m7sharp5 m7s5", [0, 3, 8, 10]),
        ("minor7flat9 minor7f9 min7flat9 min7f9 m7flat9 m7f9", [0, 3, 7, 10, 13]),
        ("minor7sharp9 minor7s9 min7sharp9 min7s9 m7sharp9 m7s9", [0, 3, 7, 10, 14]),
        ("diminished7 dim7", [0, 3, 6, 9]), ("minor9 min9 m9", [0, 3, 7, 10, 14]),
        ("minor11 min11 m11", [0, 3, 7, 10, 14, 17]), ("minor13 min13 m13", [0, 3, 7, 10, 14, 17, 21]),
        ("one 1", [0]), ("five 5", [0, 7]), ("sus2", [0, 2, 7]), ("sus4", [0, 5, 7]),
        ("sevenSus2 7sus2", [0, 2, 7, 10]), ("sevenSus4 7sus4", [0, 5, 7, 10]), ("nineSus4 ninesus4 9sus4", [0, 5, 7, 10, 14]),
        ("sevenFlat10 7f10", [0, 4, 7, 10, 15]), ("nineSharp5 9sharp5 9s5", [0, 1, 13]),
        ("minor9sharp5 minor9s5 min9sharp5 min9s5 m9sharp5 m9s5", [0, 1, 14]),
        ("sevenSharp5flat9 7s5f9", [0, 4, 8, 10, 13]), ("minor7sharp5flat9 m7sharp5flat9", [0, 3, 8, 10, 13]),
        ("elevenSharp 11s", [0, 4, 7, 10, 14, 18]), ("minor11sharp m11sharp m11s", [0, 3, 7, 10, 14, 18]),
    ]
}

/// ParseBP's lexer for numbers, notes and chords (haskellDef's `nat`, `integer`, `float`; ParseBP's
/// `intOrFloat`, `pRatio`, `parseNote`, `parseChord`) and each kind's `tPatParser`.
extension MiniParser {
    static let ratioChars: [Character: Time] = ["w": 1, "h": Time(1, 2), "q": Time(1, 4), "e": Time(1, 8), "s": Time(1, 16),
                                                "t": Time(1, 3), "f": Time(1, 5), "x": Time(1, 6)]
    static let noteNames: [Character: Double] = ["c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11]
    static let noteModifiers: [Character: Double] = ["s": 1, "f": -1, "n": 0]

    // Thread: any
    mutating func digits(_ ok: (Character) -> Bool = MiniParser.isDigit) -> String {
        let b = pos
        while let c = cur, ok(c) { pos += 1 }
        return String(chars[b..<pos])
    }

    /// The lexer's `nat` (decimal, `0x` hexadecimal, `0o` octal) as Haskell's `fromIntegral` to Double.
    // Thread: any
    mutating func nat() throws(PatternError) -> Double? {
        guard let c = cur, MiniParser.isDigit(c) else { return nil }
        if c == "0", let x = at(pos + 1), "xXoO".contains(x) {
            pos += 2
            let hex = x == "x" || x == "X"
            let ds = digits { hex ? $0.isHexDigit : ($0 >= "0" && $0 <= "7") }
            guard !ds.isEmpty else { throw error(hex ? "expected hexadecimal digits" : "expected octal digits", at: pos) }
            return ds.reduce(0.0) { $0 * (hex ? 16 : 8) + Double($1.hexDigitValue ?? 0) }
        }
        return Double(digits()) ?? 0
    }

    /// The lexer's `integer`: a sign, space, `nat`, space.
    // Thread: any
    mutating func integer() throws(PatternError) -> Double? {
        let b = pos
        var negative = false
        if cur == "-" { negative = true; pos += 1 } else if cur == "+" { pos += 1 }
        try whiteSpace()
        guard let n = try nat() else {
            if pos != b { throw error("expected a number", at: pos) }
            return nil
        }
        try whiteSpace()
        return negative ? -n : n
    }

    /// The lexer's `float`: digits, then a fraction and/or an exponent (both optional, not both absent).
    // Thread: any
    mutating func float() throws(PatternError) -> Double? {
        guard let c = cur, MiniParser.isDigit(c) else { return nil }
        var text = digits()
        // Thread: any
        func exponent(_ p: inout MiniParser) throws(PatternError) -> String {
            p.pos += 1
            var s = "e"
            if let sg = p.cur, sg == "+" || sg == "-" { s.append(sg); p.pos += 1 }
            let e = p.digits()
            guard !e.isEmpty else { throw p.error("expected the exponent's digits", at: p.pos) }
            return s + e
        }
        if cur == "." {
            pos += 1
            let f = digits()
            guard !f.isEmpty else { throw error("expected digits after \".\"", at: pos) }
            text += "." + f
            if cur == "e" || cur == "E" { text += try exponent(&self) }
        } else if cur == "e" || cur == "E" {
            text += try exponent(&self)
        } else {
            throw error("expected a decimal point or an exponent", at: pos)
        }
        try whiteSpace()
        return Double(text) ?? 0
    }

    /// Runs a parser as Parsec's `try`: any failure puts the position back and gives nil.
    // Thread: any
    mutating func attempt(_ body: (inout MiniParser) throws(PatternError) -> Double?) -> Double? {
        let saved = pos
        if let v = try? body(&self) { return v }
        pos = saved
        return nil
    }

    /// ParseBP's `intOrFloat`: `try float <|> integer`.
    // Thread: any
    mutating func intOrFloat() throws(PatternError) -> Double? {
        if let f = attempt({ p throws(PatternError) in try p.float() }) { return f }
        return try integer()
    }

    /// ParseBP's `sign` (no space after it): true for `-`.
    // Thread: any
    mutating func sign() -> Bool {
        if cur == "-" { pos += 1; return true }
        if cur == "+" { pos += 1 }
        return false
    }

    /// ParseBP's `pRatioChar`: `w h q e s t f x`, not followed by a letter.
    // Thread: any
    mutating func ratioChar() -> Time? {
        guard let c = cur, let v = MiniParser.ratioChars[c], !(at(pos + 1)?.isLetter ?? false) else { return nil }
        pos += 1
        return v
    }

    /// ParseBP's `pRatio`: sign, number (`%` fraction), then a ratio letter as a multiplier.
    // Thread: any
    mutating func ratio() throws(PatternError) -> Time? {
        let b = pos
        let negative = sign()
        var r: Time
        if let n = attempt({ p throws(PatternError) in try p.intOrFloat() }) {
            var v = MiniParser.exact(n)
            if cur == "%" {
                pos += 1
                let dp = pos
                guard let d = try integer() else { throw error("expected the fraction's denominator", at: pos) }
                guard n == n.rounded() else { throw error("fractions need int numerator and denominator", at: b) }
                guard d != 0 else { throw error("a fraction with denominator 0", at: dp) }
                guard abs(n) < 9e18, abs(d) < 9e18 else { throw error("number too large", at: b) }
                v = Time(Int64(n), Int64(d))
            }
            r = v * (ratioChar() ?? 1)
        } else if let c = ratioChar() {
            r = c
        } else {
            if pos != b { throw error("expected a number after the sign", at: pos) }
            return nil
        }
        return negative ? -r : r
    }

    /// Haskell's `toRational` of a Double: exact where 64 bits hold it.
    // Thread: any
    static func exact(_ d: Double) -> Time {
        guard d.isFinite, d != 0 else { return .zero }
        if d == d.rounded(), abs(d) < 9e18 { return Time(Int64(d)) }
        let e = d.exponent - Int(Double.significandBitCount)
        let m = Int64(d.significandBitPattern | (1 << UInt64(Double.significandBitCount)))
        if e < 0, e > -63 {
            let t = Time(m, Int64(1) << Int64(-e))
            return d < 0 ? -t : t
        }
        return Time(d)
    }

    /// ParseBP's `parseNote`: `c d e f g a b`, modifiers `s f n`, an octave (default 5).
    // Thread: any
    mutating func parseNote() throws(PatternError) -> Double? {
        guard let c = cur, let base = MiniParser.noteNames[c] else { return nil }
        pos += 1
        var n = base
        while let m = cur, let v = MiniParser.noteModifiers[m] { n += v; pos += 1 }
        var octave = 5.0
        if let o = try nat() { octave = o; try whiteSpace() }
        return n + (octave - 5) * 12
    }

    /// ParseBP's `parseChord`: `'name`, then optionally `'range`, `i`s (inversions), `o` (open).
    // Thread: any
    mutating func parseChord() throws(PatternError) -> [Double]? {
        guard cur == "'" else { return nil }
        let b = pos
        pos += 1
        let name = digits { $0.isLetter || MiniParser.isDigit($0) }
        guard !name.isEmpty else { throw error("expected a chord name after \"'\"", at: pos) }
        let chord = MiniNotation.chord(name)
        guard cur == "'" else { return chord }
        pos += 1
        if let c = cur, c.isWhitespace { throw error("expected a chord range or \"i\" or \"o\"", at: pos) }
        let n = chord.count
        let ip = pos
        let count = try integer().map { Int(max(-1e9, min(1e9, $0))) } ?? n
        guard count <= MiniParser.maxCount else { throw error("a chord of more than \(MiniParser.maxCount) notes", at: ip) }
        var j = 0, o = 0
        while cur == "i" { j += 1; pos += 1 }
        while cur == "o" { o += 1; pos += 1 }
        var notes = (0..<max(0, count)).map { k in chord[(j + k) % n] + 12 * Double((j + k) / n) }
        if o > 0, n > 2 {
            guard notes.count >= 3 else { throw error("an open chord needs at least 3 notes", at: b) }
            notes = [notes[0] - 12, notes[2] - 12, notes[1]] + notes.dropFirst(3)
        }
        return notes
    }

    // MARK: steps (each kind's `tPatParser`)

    /// `pVocable`, `pBool`, `pRational`, `pNote`, `pDouble`, `pIntegral`: one step of the kind.
    // Thread: any
    mutating func atom(_ kind: MiniKind) throws(PatternError) -> TPat? {
        let b = pos
        switch kind {
        case .string:
            guard let c = cur, c.isLetter || MiniParser.isDigit(c) else { return nil }
            pos += 1
            while let c = cur, c.isLetter || MiniParser.isDigit(c) || ":.-_".contains(c) { pos += 1 }
            return .atom(span(b, pos), .string(String(chars[b..<pos])))
        case .bool:
            guard let c = cur, "t1f0".contains(c) else { return nil }
            pos += 1
            return .atom(span(b, pos), .bool(c == "t" || c == "1"))
        case .time:
            guard let r = try ratio() else { return nil }
            return .atom(span(b, pos), .rational(r))
        case .note, .double, .int:
            let negative = sign()
            var v: Double?
            switch kind {
            case .double: v = try ratio()?.double
            default: v = try intOrFloat()
            }
            if v == nil { v = try parseNote() }
            if let v {
                if kind == .int {
                    guard v == v.rounded() else { throw error("not an integer", at: b) }
                    guard abs(v) < 4e18 else { throw error("number too large", at: b) }
                }
                let value = negative ? -v : v
                if let tones = try parseChord() { return .stack(tones.map { .atom(nil, MiniParser.value(kind, $0 + value)) }) }
                return .atom(span(b, pos), MiniParser.value(kind, value))
            }
            if pos != b { throw error("expected a number or a note name", at: pos) }
            if let tones = try parseChord() { return .stack(tones.map { .atom(nil, MiniParser.value(kind, $0)) }) }
            if kind == .note, let r = try ratio() { return .atom(span(b, pos), .note(r.double)) }
            return nil
        }
    }

    // Thread: any
    static func value(_ kind: MiniKind, _ d: Double) -> Value {
        switch kind {
        case .note: return .note(d)
        case .int: return .int(Int(max(-4e18, min(4e18, d.rounded()))))
        default: return .double(d)
        }
    }
}
