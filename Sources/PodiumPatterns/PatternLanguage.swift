/// A statement of the pattern language, as Tidal's editor sends it.
public enum PatternStatement: Sendable {
    /// `d1 $ …` … `d16` (slots "d1" … "d16"), `p "name" $ …` (slot "name"), `p 3 $ …` (slot
    /// "d3": `d3` is Tidal's `p 3`); `d1 silence` plays silence.
    case play(slot: String, pattern: Pattern<ControlMap>)
    /// `hush`
    case hush
    /// `setcps 0.6`, `setcps (130/60/4)`
    case setcps(Double)
    /// `once $ s "bd"`
    case once(Pattern<ControlMap>)
    /// `mute 1`, `unmute 1`, `solo "drums"`, `unsolo "drums"` (`SlotStatements.swift`)
    case mute(String), unmute(String), solo(String), unsolo(String)
    /// `unmuteAll`, `unsoloAll`
    case unmuteAll, unsoloAll
    /// `xfadeIn 1 8 $ …`, `jumpIn' 2 1 $ …`, `clutch "drums" $ …`: the slot's new pattern takes
    /// over from its last as the transition says (`Transitions.swift`).
    case transition(slot: String, Transition, pattern: Pattern<ControlMap>)
    /// `let name = …`: the name stands for the expression in the statements after it.
    case binding(name: String, text: String)
    /// `do` and the statements under it: the body without its indentation (`margin`
    /// columns), and the line of the statement's text the body starts on.
    case block(body: String, firstLine: Int, margin: Int)
}

/// Tidal's own spelling (a Haskell subset) evaluated into patterns: `d1 $ every 3 (fast 2) $
/// s "bd*2 [~ sn]" # n "<0 3>"` gives Tidal's events. Errors name the line and column.
public struct PatternLanguage: Sendable {
    /// Control names an orchestra declares (numbers), accepted beside Tidal's.
    public let extraControls: Set<String>
    /// Names bound by earlier `let` statements, each with its expression's text.
    public var bindings: [String: String]
    /// Where the statement's pattern takes over, for `trigger` and `qtrigger` (nil: cycle 0).
    public var trigger: TriggerStart?
    /// The performance's controller values, read by `cF`, `cI`, `cS` … (nil: their defaults).
    public var controllers: ControllerValues?

    // Thread: any
    public init(extraControls: Set<String> = [], bindings: [String: String] = [:], trigger: TriggerStart? = nil,
                controllers: ControllerValues? = nil) {
        self.extraControls = extraControls
        self.bindings = bindings
        self.trigger = trigger
        self.controllers = controllers
    }

    /// One statement; may span lines (a block: continuation lines). Errors name line and column.
    // Thread: any
    public func statement(_ text: String) throws(PatternError) -> PatternStatement {
        // A Tidal statement Podium does not carry out is named before its syntax is read
        // (`let x = …` is no expression).
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if let row = lines.firstIndex(where: { !$0.allSatisfy(\.isWhitespace) }) {
            let indent = lines[row].prefix { $0 == " " || $0 == "\t" }.count
            let word = String(lines[row].dropFirst(indent).prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "'" })
            if word == "do" { return try Self.doBlock(lines, row: row, indent: indent) }
            if word == "let" { return try letBinding(lines, row: row, indent: indent) }
            if let reason = Self.notYetStatements[word] {
                throw PatternError("`\(word)`: \(reason)", column: indent + 1, line: row + 1)
            }
        }
        let e = try ExpressionParser.parse(text)
        let ev = ExpressionEvaluator(extraControls: extraControls, bindings: bindings, trigger: trigger, controllers: controllers)
        var head = e
        var body: Expression?
        switch e {
        case let .binary("$", h, b, _): head = h; body = b
        case let .apply(f, args, pos) where !args.isEmpty:
            head = args.count == 1 ? f : .apply(f, Array(args.dropLast()), pos)
            body = args.last
        default: break
        }
        let headPos = head.position
        // Thread: any
        func need(_ what: String) -> PatternError {
            PatternError("`\(what)` needs a pattern: `\(what) $ s \"bd sn\"`", column: headPos.column, line: headPos.line)
        }
        switch head {
        case let .name(n, _) where n == "hush":
            if body == nil { return .hush }
            throw PatternError("`hush` takes nothing", column: headPos.column, line: headPos.line)
        case let .name(n, _) where n == "setcps":
            guard let b = body else { throw PatternError("`setcps` needs a number: `setcps 0.5`", column: headPos.column, line: headPos.line) }
            let v = try ev.evaluate(b)
            guard case let .poly(pp) = v, let x = pp.number else {
                let p = b.position
                throw PatternError("`setcps` needs a number (`setcps 0.6`, `setcps (130/60/4)`)", column: p.column, line: p.line)
            }
            guard x.value > .zero else {
                let p = b.position
                throw PatternError("`setcps` needs a number above 0", column: p.column, line: p.line)
            }
            return .setcps(x.value.double)
        case let .name(n, _) where n == "unmuteAll" || n == "unsoloAll":
            if body != nil { throw PatternError("`\(n)` takes nothing", column: headPos.column, line: headPos.line) }
            return n == "unmuteAll" ? .unmuteAll : .unsoloAll
        case let .name(n, _) where Self.slotWords.contains(n):
            guard let b = body else {
                throw PatternError("`\(n)` needs a slot: `\(n) 1` (d1's) or `\(n) \"drums\"`", column: headPos.column, line: headPos.line)
            }
            let slot = try Self.slotArgument(b, word: n)
            switch n {
            case "mute": return .mute(slot)
            case "unmute": return .unmute(slot)
            case "solo": return .solo(slot)
            default: return .unsolo(slot)
            }
        case let .apply(.name(n, _), args, _) where Self.transitionArguments[n] != nil:
            guard let b = body else { throw need(n) }
            let (slot, transition) = try Self.transition(n, args, ev, at: headPos)
            return .transition(slot: slot, transition, pattern: try controlPattern(b, ev))
        case let .name(n, _) where Self.transitionArguments[n] != nil:
            throw PatternError("`\(n)` needs a slot\(Self.transitionArguments[n]! == 0 ? "" : " and a number of cycles"): `\(n) 1\(Self.transitionArguments[n]! == 0 ? "" : " 4") $ s \"bd*4\"`",
                               column: headPos.column, line: headPos.line)
        case let .name(n, _) where n == "once":
            guard let b = body else { throw need("once") }
            return .once(try controlPattern(b, ev))
        case let .name(n, _) where Self.slot(n) != nil:
            guard let b = body else { throw need(n) }
            return .play(slot: Self.slot(n)!, pattern: try controlPattern(b, ev))
        case let .apply(.name("p", _), args, _) where args.count == 1:
            guard let b = body else { throw need("p") }
            let slot: String
            switch args[0] {
            case let .string(s, _): slot = s
            case let .number(v, true, _): slot = "d\(v.description)"
            default:
                let p = args[0].position
                throw PatternError("`p` takes a name in quotes or a number: `p \"drums\" $ …`", column: p.column, line: p.line)
            }
            return .play(slot: slot, pattern: try controlPattern(b, ev))
        default:
            let p = e.position
            throw PatternError("a statement is `d1 $ …` (to `d16`), `p \"name\" $ …`, `once $ …`, `hush`, `setcps …`, `mute 1`, `solo 1` (and `unmute`, `unsolo`, `unmuteAll`, `unsoloAll`)",
                               column: p.column, line: p.line)
        }
    }

    /// A control-pattern expression alone (`s "bd*2" # n 3`).
    // Thread: any
    public func pattern(_ text: String) throws(PatternError) -> Pattern<ControlMap> {
        let ev = ExpressionEvaluator(extraControls: extraControls, bindings: bindings, trigger: trigger, controllers: controllers)
        return try controlPattern(try ExpressionParser.parse(text), ev)
    }

    // Thread: any
    func controlPattern(_ e: Expression, _ ev: ExpressionEvaluator) throws(PatternError) -> Pattern<ControlMap> {
        try ev.coerce(try ev.evaluate(e), to: .control, "the statement")
    }

    /// `d1` … `d16`: the slot of that name.
    // Thread: any
    public static func slot(_ name: String) -> String? {
        guard name.first == "d", let n = Int(name.dropFirst()), (1...16).contains(n), "d\(n)" == name else { return nil }
        return name
    }

    /// Every function and operator name the language knows (for :help and completion).
    // Thread: any
    public static var names: [String] {
        var s = Set(Builtins.table.keys).union(Builtins.constants.keys).union(Builtins.statementWords)
        s.formUnion(["$", ".", "pF", "pI", "pS", "pN"])
        s.formUnion(Controls.doubles)
        s.formUnion(Controls.ints)
        s.formUnion(Controls.strings)
        s.formUnion(Controls.notes)
        s.formUnion(Controls.aliases.keys)
        return s.sorted()
    }
}

extension PatternLanguage {
    /// The names of Tidal's triggers (`qtrigger 1 $ …`): their pattern restarts from the cycle
    /// it is evaluated at, so the same statement typed again is a new start, not "unchanged".
    public static let triggers: Set<String> = ["trigger", "qtrigger", "ctrigger", "qt", "ftrigger", "rtrigger"]

    /// Whether the statement names a trigger (as a name, not inside a string).
    // Thread: any
    public static func usesTrigger(_ text: String) -> Bool {
        guard let tokens = try? ExpressionLexer.tokens(text) else { return false }
        return tokens.contains { if case let .name(n) = $0.kind { return triggers.contains(n) }; return false }
    }
}
