/// Where an expression starts in the performer's text (1-based line and column).
struct SourcePosition: Sendable, Equatable {
    var line: Int
    var column: Int
}

/// A parsed pattern expression (Haskell's syntax, the part Tidal users write): literals, names,
/// application by juxtaposition, infix operators, sections, lists and tuples.
indirect enum Expression: Sendable {
    /// `2`, `0.25`: exact; `isInteger` when written without a point or exponent.
    case number(Time, isInteger: Bool, SourcePosition)
    /// `"bd*2 [~ sn]"`: mini-notation, parsed when its kind is known; the position is that of the
    /// first character inside the quotes.
    case string(String, SourcePosition)
    case name(String, SourcePosition)
    /// `f a b`: a function and its arguments, left to right.
    case apply(Expression, [Expression], SourcePosition)
    /// `a op b`, the position being the operator's.
    case binary(String, Expression, Expression, SourcePosition)
    /// `(a op)`.
    case leftSection(String, Expression, SourcePosition)
    /// `(op b)`.
    case rightSection(String, Expression, SourcePosition)
    /// `(op)`: the operator as a function of two arguments.
    case operatorName(String, SourcePosition)
    /// `-x`, `(-0.25)`.
    case negate(Expression, SourcePosition)
    case list([Expression], SourcePosition)
    case tuple([Expression], SourcePosition)
    /// `\x y -> body`: a function of its parameters (`_` takes one and ignores it).
    case lambda([String], Expression, SourcePosition)

    /// Where the expression starts.
    // Thread: any
    var position: SourcePosition {
        switch self {
        case let .number(_, _, p), let .string(_, p), let .name(_, p), let .apply(_, _, p), let .leftSection(_, _, p),
             let .rightSection(_, _, p), let .operatorName(_, p), let .negate(_, p), let .list(_, p), let .tuple(_, p),
             let .lambda(_, _, p):
            return p
        case let .binary(_, l, _, _):
            return l.position
        }
    }
}

/// Haskell's fixity of an operator: Tidal 1.7 declares none for its own operators, so `#`,
/// `|+|`, `<~`, `~>` … are all `infixl 9` (Haskell's default), binding tighter than `+` and `*`.
struct Fixity: Sendable {
    var precedence: Int
    var rightAssociative: Bool

    // Thread: any
    static func of(_ op: String) -> Fixity {
        switch op {
        case "$": return Fixity(precedence: 0, rightAssociative: true)
        case ".": return Fixity(precedence: 9, rightAssociative: true)
        case "+", "-": return Fixity(precedence: 6, rightAssociative: false)
        case "*", "/": return Fixity(precedence: 7, rightAssociative: false)
        case "<>": return Fixity(precedence: 6, rightAssociative: true)
        case "++": return Fixity(precedence: 5, rightAssociative: true)
        case "<$>", "<*>": return Fixity(precedence: 4, rightAssociative: false)
        // Haskell's Prelude: comparisons `infix 4`, `mod` and `div` `infixl 7`, `elem` `infix 4`.
        case "==", "/=", "<", "<=", ">", ">=", "elem": return Fixity(precedence: 4, rightAssociative: false)
        case "mod", "mod'", "div": return Fixity(precedence: 7, rightAssociative: false)
        default: return Fixity(precedence: 9, rightAssociative: false)
        }
    }
}

/// A recursive-descent parser of `Expression`s, by precedence climbing; nesting deeper than
/// `maximumDepth` is refused (no input can exhaust the stack).
struct ExpressionParser {
    static let maximumDepth = 200
    private var tokens: [ExpressionToken]
    private var index = 0
    private var depth = 0

    // Thread: any
    init(tokens: [ExpressionToken]) { self.tokens = tokens }

    /// The whole text as one expression.
    // Thread: any
    static func parse(_ text: String) throws(PatternError) -> Expression {
        var parser = ExpressionParser(tokens: try ExpressionLexer.tokens(text))
        let e = try parser.expression(minimum: 0)
        let t = parser.peek
        if t.kind != .end { throw parser.unexpected(t, "here") }
        return e
    }

    var peek: ExpressionToken { tokens[index] }
    var atEnd: Bool { peek.kind == .end }

    // Thread: any
    mutating func advance() -> ExpressionToken {
        let t = tokens[index]
        if index < tokens.count - 1 { index += 1 }
        return t
    }

    // Thread: any
    func position(_ t: ExpressionToken) -> SourcePosition { SourcePosition(line: t.line, column: t.column) }

    // Thread: any
    func unexpected(_ t: ExpressionToken, _ context: String) -> PatternError {
        let what: String
        switch t.kind {
        case .end: return PatternError("the expression ends too soon \(context == "here" ? "" : context)".trimmingSpaces, column: t.column, line: t.line)
        case let .name(n): what = "`\(n)`"
        case let .number(_, _, text): what = "`\(text)`"
        case .string: what = "a string"
        case let .op(o): what = "`\(o)`"
        case let .backquoted(n): what = "`\(n)`"
        case .openParen: what = "`(`"
        case .closeParen: what = "`)`"
        case .openBracket: what = "`[`"
        case .closeBracket: what = "`]`"
        case .comma: what = "`,`"
        }
        return PatternError("unexpected \(what) \(context)", column: t.column, line: t.line)
    }

    // Thread: any
    mutating func enter(_ t: ExpressionToken) throws(PatternError) {
        depth += 1
        if depth > ExpressionParser.maximumDepth {
            throw PatternError("the expression nests too deeply (more than \(ExpressionParser.maximumDepth) levels)", column: t.column, line: t.line)
        }
    }

    /// The operator at the cursor, if the next token is one (a symbol or a backquoted name).
    // Thread: any
    func operatorAt(_ i: Int) -> String? {
        switch tokens[i].kind {
        case let .op(o): return o
        case let .backquoted(n): return n
        default: return nil
        }
    }

    /// Operators, by precedence climbing; an operator followed by `)` ends the expression (it is
    /// a left section's).
    // Thread: any
    mutating func expression(minimum: Int) throws(PatternError) -> Expression {
        try enter(peek)
        defer { depth -= 1 }
        var left: Expression
        if case .op("\\") = peek.kind {
            // A lambda reaches as far right as it can, as in Haskell: nothing follows it.
            return try lambda()
        } else if case .op("-") = peek.kind {
            let t = advance()
            let operand = try expression(minimum: 7)
            left = .negate(operand, position(t))
        } else {
            left = try application()
        }
        var chain = 0
        while let op = operatorAt(index) {
            if tokens[index + 1].kind == .closeParen { break }
            let fixity = Fixity.of(op)
            if fixity.precedence < minimum { break }
            let t = advance()
            chain += 1
            if chain + depth > ExpressionParser.maximumDepth * 2 {
                throw PatternError("the expression is too long a chain of operators", column: t.column, line: t.line)
            }
            if op == "=" || op == "<-" || op == "->" || op == "::" || op == "\\" || op == "=>" || op == "|" || op == "@" {
                throw PatternError(op == "\\" || op == "->" ? "a lambda stands first in its parentheses: `(\\x -> x # speed 2)`"
                                   : "`\(op)` is Haskell syntax this language does not support (definitions, types)", column: t.column, line: t.line)
            }
            let right = try expression(minimum: fixity.rightAssociative ? fixity.precedence : fixity.precedence + 1)
            left = .binary(op, left, right, position(t))
        }
        return left
    }

    /// `\x y -> body`, the cursor on `\`.
    // Thread: any
    mutating func lambda() throws(PatternError) -> Expression {
        let start = advance()
        var parameters: [String] = []
        while case let .name(n) = peek.kind {
            guard n.first?.isLowercase == true || n.first == "_", !n.contains(".") else {
                throw PatternError("a lambda's parameters are names in lower case (`\\x -> …`), not `\(n)`", column: peek.column, line: peek.line)
            }
            if n != "_", parameters.contains(n) {
                throw PatternError("`\(n)` is this lambda's parameter twice", column: peek.column, line: peek.line)
            }
            parameters.append(n)
            _ = advance()
        }
        guard !parameters.isEmpty else {
            throw PatternError("a lambda names its parameters after `\\` (`\\x -> x # speed 2`); patterns such as tuples are not supported", column: peek.column, line: peek.line)
        }
        guard case .op("->") = peek.kind else { throw unexpected(peek, "in a lambda (expected `->` after its parameters)") }
        _ = advance()
        let body = try expression(minimum: 0)
        return .lambda(parameters, body, position(start))
    }

    // Thread: any
    func startsAtom(_ t: ExpressionToken) -> Bool {
        switch t.kind {
        case .name, .number, .string, .openParen, .openBracket: return true
        default: return false
        }
    }

    /// `f a b c`: an atom and the atoms after it.
    // Thread: any
    mutating func application() throws(PatternError) -> Expression {
        let first = peek
        guard startsAtom(first) else { throw unexpected(first, "where a value was expected") }
        let f = try atom()
        var args: [Expression] = []
        while startsAtom(peek) { args.append(try atom()) }
        return args.isEmpty ? f : .apply(f, args, position(first))
    }

    // Thread: any
    mutating func atom() throws(PatternError) -> Expression {
        let t = advance()
        switch t.kind {
        case let .name(n): return .name(n, position(t))
        case let .number(v, isInteger, _): return .number(v, isInteger: isInteger, position(t))
        case let .string(s): return .string(s, position(t))
        case .openBracket: return try list(t)
        case .openParen: return try parenthesised(t)
        default: throw unexpected(t, "where a value was expected")
        }
    }

    // Thread: any
    mutating func list(_ open: ExpressionToken) throws(PatternError) -> Expression {
        try enter(open)
        defer { depth -= 1 }
        var items: [Expression] = []
        if peek.kind == .closeBracket { _ = advance(); return .list([], position(open)) }
        while true {
            items.append(try expression(minimum: 0))
            let t = advance()
            if t.kind == .closeBracket { break }
            if t.kind == .comma { continue }
            if t.kind == .end { throw PatternError("this `[` has no closing `]`", column: open.column, line: open.line) }
            if case .op("..") = t.kind { throw PatternError("ranges (`..`) are not supported", column: t.column, line: t.line) }
            throw unexpected(t, "in a list (expected `,` or `]`)")
        }
        return .list(items, position(open))
    }

    /// `(e)`, `(a, b)`, `(op)`, `(op e)`, `(e op)`, `(-e)`.
    // Thread: any
    mutating func parenthesised(_ open: ExpressionToken) throws(PatternError) -> Expression {
        try enter(open)
        defer { depth -= 1 }
        if peek.kind == .closeParen { throw PatternError("`()` is not a pattern", column: open.column, line: open.line) }
        if let op = operatorAt(index), op != "\\", op != "-" || tokens[index + 1].kind == .closeParen {
            let opToken = advance()
            if peek.kind == .closeParen { _ = advance(); return .operatorName(op, position(opToken)) }
            let operand = try expression(minimum: 0)
            try close(open)
            return .rightSection(op, operand, position(opToken))
        }
        let first = try expression(minimum: 0)
        if let op = operatorAt(index), tokens[index + 1].kind == .closeParen {
            let opToken = advance()
            _ = advance()
            return .leftSection(op, first, position(opToken))
        }
        if peek.kind == .comma {
            var items = [first]
            while peek.kind == .comma {
                _ = advance()
                items.append(try expression(minimum: 0))
            }
            try close(open)
            return .tuple(items, position(open))
        }
        try close(open)
        return first
    }

    // Thread: any
    mutating func close(_ open: ExpressionToken) throws(PatternError) {
        let t = advance()
        if t.kind == .closeParen { return }
        if t.kind == .end { throw PatternError("this `(` has no closing `)`", column: open.column, line: open.line) }
        throw unexpected(t, "(expected `)`)")
    }
}

fileprivate extension String {
    // Thread: any
    var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        while s.first == " " { s = s.dropFirst() }
        return String(s)
    }
}
