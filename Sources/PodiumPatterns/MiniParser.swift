/// The mini-notation's parser: text to a `TPat` tree, a port of Tidal 1.7.10's
/// `Sound.Tidal.ParseBP` (its Parsec grammar, its lexer's whitespace, its seed counter; numbers, notes,
/// chords and each kind's steps are in MiniNotation.swift's extension).
/// Each function says which Parsec parser it ports; where Parsec would fail after consuming input
/// this throws a `PatternError`, where it would fail without consuming (so that `<|>` tries the
/// next alternative) it returns nil.

/// Tidal's `TPat`: the parsed tree, before it becomes a pattern (`MiniNotation.toPat`).
indirect enum TPat: Sendable {
    case atom(SourceSpan?, Value)
    case fast(TPat, TPat)
    case slow(TPat, TPat)
    case degradeBy(seed: Int, amount: Double, TPat)
    case cycleChoose(seed: Int, [TPat])
    case euclid(TPat, TPat, TPat, TPat)
    case stack([TPat])
    case polyrhythm(TPat?, [TPat])
    case seq([TPat])
    case silence
    case foot
    case elongate(Time, TPat)
    case repeated(Int, TPat)
    case enumFromTo(TPat, TPat)
    case variable(String)
}

/// Which `tPatParser` a sequence's steps use, and whether `~` is one (Tidal's `f'`: at the top
/// and inside brackets, not in the arguments of `*`, `/`, `%` and Euclid).
struct AtomParser { var kind: MiniKind; var rest: Bool }

struct MiniParser {
    let chars: [Character]
    var pos = 0
    /// Tidal's `newSeed` state: each `?` and `|` takes the next number, in parse order.
    var seed = 0
    var depth = 0
    let column: Int, line: Int
    /// Parsec's (line, column) of each index, 1-based, one past the end included.
    var lineOf: [Int] = [], colOf: [Int] = []
    static let maxDepth = 100, maxCount = 10000

    // Thread: any
    init(_ text: String, column: Int, line: Int) {
        chars = Array(text); self.column = column; self.line = line
        var l = 1, c = 1
        for ch in chars { lineOf.append(l); colOf.append(c); if ch == "\n" { l += 1; c = 1 } else { c += 1 } }
        lineOf.append(l); colOf.append(c)
    }

    // MARK: positions and errors

    // Thread: any
    func col(_ p: Int) -> Int { lineOf[p] == 1 ? colOf[p] + column - 1 : colOf[p] }
    // Thread: any
    func ln(_ p: Int) -> Int { lineOf[p] + line - 1 }
    /// Tidal's `wrapPos`: from the step's first character to where its parser stopped.
    // Thread: any
    func span(_ b: Int, _ e: Int) -> SourceSpan { SourceSpan(col(b), ln(b), col(e), ln(e)) }
    // Thread: any
    func error(_ message: String, at p: Int) -> PatternError {
        let p = min(max(0, p), chars.count)
        return PatternError(message, column: col(p), line: ln(p))
    }
    // Thread: any
    func at(_ p: Int) -> Character? { p < chars.count ? chars[p] : nil }
    var cur: Character? { at(pos) }
    var atEnd: Bool { pos >= chars.count }

    // Thread: any
    static func isDigit(_ c: Character) -> Bool { c >= "0" && c <= "9" && c.isASCII }

    /// What to say about a character no rule takes.
    // Thread: any
    func unexpected(expecting closer: Character? = nil) -> PatternError {
        guard let c = cur else { return error("unexpected end of input", at: pos) }
        switch c {
        case "*", "/", "!", "@", "_", "?", "(": return error("\"\(c)\" needs a step before it", at: pos)
        case "%": return error("\"%\" needs a \"{ }\" polymeter before it", at: pos)
        default:
            if let closer { return error("unexpected \"\(c)\", expecting \"\(closer)\"", at: pos) }
            return error("unexpected \"\(c)\"", at: pos)
        }
    }

    // MARK: the lexer (Parsec's `spaces` and haskellDef's token parsers)

    /// Parsec's `spaces`.
    // Thread: any
    mutating func spaces() { while let c = cur, c.isWhitespace { pos += 1 } }

    /// The lexer's `whiteSpace` (haskellDef: `--` and nested `{- -}` comments count as space).
    // Thread: any
    mutating func whiteSpace() throws(PatternError) {
        while let c = cur {
            if c.isWhitespace { pos += 1 } else if c == "-", at(pos + 1) == "-" {
                while let d = cur, d != "\n" { pos += 1 }
            } else if c == "{", at(pos + 1) == "-" {
                let open = pos
                pos += 2
                var level = 1
                while level > 0 {
                    guard let d = cur else { throw error("unclosed comment \"{-\"", at: open) }
                    if d == "-", at(pos + 1) == "}" { level -= 1; pos += 2 }
                    else if d == "{", at(pos + 1) == "-" { level += 1; pos += 2 }
                    else { pos += 1 }
                }
            } else { break }
        }
    }

    // MARK: the grammar

    /// `pSequence`: steps with `..` ranges, `@`/`_` weights, `!` copies and `.` feet, then `?`.
    // Thread: any
    mutating func sequence(_ f: AtomParser) throws(PatternError) -> TPat {
        depth += 1
        defer { depth -= 1 }
        if depth > MiniParser.maxDepth { throw error("nested more than \(MiniParser.maxDepth) levels deep", at: pos) }
        spaces()
        var items: [TPat] = []
        var feet: [Int] = []
        while true {
            if let a = try part(f) {
                spaces()
                if cur == ".", at(pos + 1) == "." {
                    let dots = pos
                    pos += 2
                    try whiteSpace()
                    guard let b = try part(f) else { throw error("\"..\" needs a step after it", at: atEnd ? dots : pos) }
                    items.append(.enumFromTo(a, b))
                } else if cur == "@" || cur == "_" {
                    var weight: Time = 1
                    while cur == "@" || cur == "_" {
                        pos += 1
                        weight += try ratio().map { $0 - 1 } ?? 1
                        spaces()
                    }
                    items.append(.elongate(weight, a))
                } else if cur == "!" {
                    var count = 1
                    while cur == "!" {
                        let bang = pos
                        pos += 1
                        let ds = digits()
                        count += ds.isEmpty ? 1 : (ds.count > 6 ? MiniParser.maxCount + 1 : Int(ds)! - 1)
                        if count > MiniParser.maxCount { throw error("more than \(MiniParser.maxCount) copies", at: bang) }
                        spaces()
                    }
                    items.append(.repeated(count, a))
                } else {
                    items.append(a)
                }
            } else if cur == "." {
                feet.append(pos)
                pos += 1
                try whiteSpace()
                items.append(.foot)
            } else {
                break
            }
        }
        // resolve_feet / splitFeet: a trailing "." ends the last foot.
        var resolved = TPat.seq(items)
        if let first = feet.first {
            var groups: [[TPat]] = [[]]
            for item in items {
                if case .foot = item { groups.append([]) } else { groups[groups.count - 1].append(item) }
            }
            if groups.last?.isEmpty == true { groups.removeLast() }
            guard groups.count > 1 else { throw error("\".\" must stand between steps", at: first) }
            resolved = .seq(groups.map { .seq($0) })
        }
        return try degrade(resolved)
    }

    /// `pPart`: a step, a `[ ]`, a `{ }` or `< >`, or a `^variable`; then `(k,n,r)` and `?`.
    // Thread: any
    mutating func part(_ f: AtomParser) throws(PatternError) -> TPat? {
        var x: TPat
        if let a = try atom(f.kind) {
            x = try degrade(a)
            x = try multiply(x)
        } else if f.rest, cur == "~" {
            pos += 1
            try whiteSpace()
            x = try degrade(.silence)
            x = try multiply(x)
        } else if cur == "[" {
            x = try polyIn(f)
        } else if cur == "{" || cur == "<" {
            x = try polyOut(f)
        } else if cur == "^" {
            pos += 1
            x = .variable(digits { $0.isLetter || MiniParser.isDigit($0) || ":.-_".contains($0) })
        } else {
            return nil
        }
        x = try euclid(x)
        return try degrade(x)
    }

    /// `pRand`: `?` or `?0.3`, taking the next seed.
    // Thread: any
    mutating func degrade(_ x: TPat) throws(PatternError) -> TPat {
        guard cur == "?" else { return x }
        pos += 1
        let amount: Double
        do { amount = try float() ?? 0.5 } catch { throw self.error("\"?\" takes a decimal such as 0.3, or nothing", at: pos) }
        spaces()
        seed += 1
        return .degradeBy(seed: seed - 1, amount: amount, x)
    }

    /// `pMult`: `*` or `/` with a number, `[ ]`, `{ }` or `< >` of numbers.
    // Thread: any
    mutating func multiply(_ x: TPat) throws(PatternError) -> TPat {
        guard let op = cur, op == "*" || op == "/" else { return x }
        let opPos = pos
        pos += 1
        spaces()
        let f = AtomParser(kind: .time, rest: false)
        let r: TPat
        if let a = try atom(.time) { r = a }
        else if cur == "[" { r = try polyIn(f) }
        else if cur == "{" || cur == "<" { r = try polyOut(f) }
        else { throw error("\"\(op)\" needs a number after it", at: atEnd ? opPos : pos) }
        return op == "*" ? .fast(r, x) : .slow(r, x)
    }

    /// Parsec's `symbol` for a closing bracket, or the error for its absence.
    // Thread: any
    mutating func close(_ c: Character, _ open: Int) throws(PatternError) {
        if cur == c { pos += 1; try whiteSpace(); return }
        if atEnd { throw error("unclosed \"\(chars[open])\"", at: open) }
        throw unexpected(expecting: c)
    }

    /// `sepBy (pSequence f) (symbol sep)` after a first sequence.
    // Thread: any
    mutating func more(_ first: TPat, _ sep: Character, _ f: AtomParser) throws(PatternError) -> [TPat] {
        var out = [first]
        while cur == sep {
            pos += 1
            try whiteSpace()
            out.append(try sequence(f))
        }
        return out
    }

    /// `pPolyIn`: `[a b, c d]` stacks, `[a | b]` random choice per cycle.
    // Thread: any
    mutating func polyIn(_ f: AtomParser) throws(PatternError) -> TPat {
        let open = pos
        pos += 1
        try whiteSpace()
        let s = try sequence(f)
        var x = s
        if cur == "," {
            x = .stack(try more(s, ",", f))
        } else if cur == "|" {
            let ss = try more(s, "|", f)
            seed += 1
            x = .cycleChoose(seed: seed - 1, ss)
        }
        try close("]", open)
        return try multiply(x)
    }

    /// `pPolyOut`: `{a b, c d e}%n` polymeter, `<a b c>` one step per cycle.
    // Thread: any
    mutating func polyOut(_ f: AtomParser) throws(PatternError) -> TPat {
        let open = pos
        let angle = cur == "<"
        pos += 1
        try whiteSpace()
        let ss = try more(try sequence(f), ",", f)
        try close(angle ? ">" : "}", open)
        if angle { return try multiply(.polyrhythm(.atom(nil, .rational(1)), ss)) }
        var base: TPat?
        if cur == "%" {
            pos += 1
            base = try sequence(AtomParser(kind: .time, rest: false))
        }
        return try multiply(.polyrhythm(base, ss))
    }

    /// `pE`: `(k,n)` or `(k,n,rotation)`, each a sequence of integers.
    // Thread: any
    mutating func euclid(_ x: TPat) throws(PatternError) -> TPat {
        guard cur == "(" else { return x }
        let open = pos
        pos += 1
        try whiteSpace()
        let ints = AtomParser(kind: .int, rest: false)
        let k = try sequence(ints)
        spaces()
        guard cur == "," else {
            if atEnd { throw error("unclosed \"(\"", at: open) }
            throw error(cur == ")" ? "Euclid needs \"(k,n)\": expected \",\"" : "unexpected \"\(cur!)\", expecting \",\"", at: pos)
        }
        pos += 1
        try whiteSpace()
        spaces()
        let n = try sequence(ints)
        try checkBound(n)
        var r = TPat.atom(nil, .int(0))
        if cur == "," {
            pos += 1
            try whiteSpace()
            spaces()
            r = try sequence(ints)
        }
        try close(")", open)
        return .euclid(k, n, r, x)
    }

    /// Refuses a Euclid step count above the bound.
    // Thread: any
    func checkBound(_ t: TPat) throws(PatternError) {
        switch t {
        case let .atom(s, .int(v)) where abs(v) > MiniParser.maxCount:
            throw PatternError("a Euclid rhythm of more than \(MiniParser.maxCount) steps", column: s?.startColumn ?? col(pos), line: s?.startLine ?? ln(pos))
        case let .seq(xs), let .stack(xs), let .polyrhythm(_, xs), let .cycleChoose(_, xs): for x in xs { try checkBound(x) }
        case let .elongate(_, x), let .repeated(_, x), let .degradeBy(_, _, x), let .fast(_, x), let .slow(_, x): try checkBound(x)
        case let .enumFromTo(a, b): try checkBound(a); try checkBound(b)
        default: return
        }
    }

    /// `parseTPat`: the whole text as one sequence, then the end of input.
    // Thread: any
    static func parse(_ text: String, kind: MiniKind, column: Int, line: Int) throws(PatternError) -> TPat {
        var p = MiniParser(text, column: column, line: line)
        let t = try p.sequence(AtomParser(kind: kind, rest: true))
        if !p.atEnd { throw p.unexpected() }
        return t
    }
}
