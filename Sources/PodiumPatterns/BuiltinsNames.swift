/// Controls as functions (Tidal's and the orchestra's), constant folding of literal arithmetic,
/// and the names the language knows or knows it lacks.
extension Builtins {
    /// `s`, `n`, `speed` … (any name `Controls.kind` knows), an orchestra's own controls
    /// (numbers), and `pF`/`pI`/`pS`/`pN "name"`: functions from a pattern of values to a
    /// control pattern.
    // Thread: any
    static func controlFunction(_ name: String, extraControls: Set<String>, _ pos: SourcePosition) -> RuntimeValue? {
        let makers: [String: Controls.Kind] = ["pF": .double, "pI": .int, "pS": .string, "pN": .note]
        if let kind = makers[name] {
            let b = Builtin([.text, .pattern(patternKind(kind))], .fixed(.control)) { a, _ in
                let key = a.text(0)
                return a.values(1).withEvents { es in
                    es.compactMap { e in Controls.convert(e.value, to: kind).map { e.with(value: [key: $0]) } }
                }
            }
            return .function(b.value(name, pos, ExpressionEvaluator(extraControls: extraControls)))
        }
        let kind: Controls.Kind
        if let k = Controls.kind(name) { kind = k } else if extraControls.contains(name) { kind = .double } else { return nil }
        let b = Builtin([.pattern(patternKind(kind))], .fixed(.control)) { a, _ in control(name, a.values(0)) }
        return .function(b.value(name, pos, ExpressionEvaluator(extraControls: extraControls)))
    }

    // Thread: any
    static func patternKind(_ k: Controls.Kind) -> PatternKind {
        switch k {
        case .string: return .string
        case .double: return .double
        case .note: return .note
        case .int: return .int
        }
    }

    /// `1/8`, `130/60/4`, `1%8`, `2*3`: arithmetic on number literals stays a literal, exact, so
    /// it can be a plain number (`setcps`, `timecat` weights) or any kind of pattern.
    // Thread: any
    static func fold(_ op: String, _ l: RuntimeValue, _ r: RuntimeValue, _ pos: SourcePosition) throws(PatternError) -> PolyPattern? {
        guard case let .poly(a) = l, case let .poly(b) = r, let x = a.number, let y = b.number else {
            if op == "%" {
                throw PatternError("`%` makes a ratio of two numbers (`1%8`); between patterns use `|%|`", column: pos.column, line: pos.line)
            }
            return nil
        }
        let v: Time
        var integer = x.isInteger && y.isInteger
        switch op {
        case "+", "|+|": v = x.value + y.value
        case "-", "|-|": v = x.value - y.value
        case "*", "|*|": v = x.value * y.value
        case "/", "%", "|/|":
            if y.value == .zero { throw PatternError("division by zero", column: pos.column, line: pos.line) }
            v = x.value / y.value
            integer = false
        default: return nil
        }
        return numberLiteral(v, isInteger: integer, pos)
    }

    /// Tidal functions this language does not have yet: named as such rather than unknown.
    static let unsupported: Set<String> = Set("""
    rolled rolledBy nTake \
    wait \
    superimpose' numerals \
    restart \
    euclidOffFull histpan degradeBy' unDegradeBy' \
    ncat cps getcps lingerBy squeezeJoin nT rolledWith range' irand'
    """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))

    /// Statement words (`d1` … `d16`, `p`, `hush`, `once`, `setcps`, `solo` and the others
    /// that act on slots): a line that begins with one is the pattern language's, never Csound's.
    static let statementWords = ["hush", "once", "setcps", "p", "do", "let"] + (1...16).map { "d\($0)" }
        + PatternLanguage.slotWords + ["unmuteAll", "unsoloAll"] + PatternLanguage.notYetStatements.keys.sorted()
        + PatternLanguage.transitionArguments.keys.sorted()
}
