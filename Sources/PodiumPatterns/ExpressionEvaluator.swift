/// What a pattern's events hold, as the evaluator tracks it: control maps (`s "bd" # n 1`,
/// Tidal's `ControlPattern`) or plain values of one kind (`"0 2"` as `Pattern Note`). A plain
/// pattern is held as a `Pattern<ControlMap>` too, its value under the key `""`, so every
/// transformation is written once and arithmetic on maps (Tidal's `Num ValueMap`) and on values
/// agree.
enum PatternKind: Sendable, Equatable {
    case control, string, double, note, int, time, bool

    // Thread: any
    var isNumeric: Bool { self == .double || self == .note || self == .int || self == .time }

    // Thread: any
    var miniKind: MiniKind? {
        switch self {
        case .control: return nil
        case .string: return .string
        case .double: return .double
        case .note: return .note
        case .int: return .int
        case .time: return .time
        case .bool: return .bool
        }
    }

    /// As an error message names what was expected: "a pattern of numbers".
    // Thread: any
    var expectation: String {
        switch self {
        case .control: return "a control pattern (`s \"bd\"`, `n \"0 2\"`)"
        case .string: return "a string or a pattern of strings"
        case .double, .note, .time: return "a number or a pattern of numbers"
        case .int: return "a whole number or a pattern of whole numbers"
        case .bool: return "a pattern of booleans (`\"t f\"`)"
        }
    }
}

/// A pattern of plain values keeps each value under this key of its map.
let plainValueKey = ""

/// A value met while evaluating: a pattern whose kind is known, one whose kind the context will
/// decide (a string or number literal, `range 1 5 sine`, `"0 2" + "<12 7>"`), a function (with
/// the parameters it still takes), or a list or tuple of values.
enum RuntimeValue {
    case pattern(Pattern<ControlMap>, PatternKind, SourcePosition)
    case poly(PolyPattern)
    case function(FunctionValue)
    case list([RuntimeValue], SourcePosition)
    case tuple([RuntimeValue], SourcePosition)

    // Thread: any
    var position: SourcePosition {
        switch self {
        case let .pattern(_, _, p), let .list(_, p), let .tuple(_, p): return p
        case let .poly(p): return p.position
        case let .function(f): return f.position
        }
    }
}

/// A pattern whose kind its context decides: `resolve` makes it as that kind (a string literal
/// is parsed as mini-notation of that kind then). `number` is a literal's exact value (folded
/// through arithmetic: `(130/60/4)`), `text` a string literal's.
struct PolyPattern {
    var position: SourcePosition
    var number: (value: Time, isInteger: Bool)?
    var text: String?
    var resolve: (PatternKind) throws(PatternError) -> Pattern<ControlMap>
}

/// A function value: a built-in, a section, a composition, partly applied or not. `parameters`
/// are all it takes, `arguments` those given so far; with the last one `body` runs.
struct FunctionValue {
    var name: String
    var parameters: [Parameter]
    var arguments: [RuntimeValue] = []
    var position: SourcePosition
    var body: ([RuntimeValue]) throws(PatternError) -> RuntimeValue

    /// The parameters still to come.
    // Thread: any
    var remaining: ArraySlice<Parameter> { parameters.dropFirst(arguments.count) }
}

/// Evaluates an `Expression` to a `RuntimeValue`: names from the built-ins, controls (Tidal's and
/// the orchestra's), application, operators, sections, composition.
struct ExpressionEvaluator {
    var extraControls: Set<String>
    /// Values bound by `let name = …`, by name: each is the text of its expression, evaluated
    /// where the name is used (`Bindings.swift`).
    var bindings: [String: String] = [:]
    /// Where the statement's pattern takes over (`trigger`, `qtrigger`: Tidal's `_t_` controls,
    /// set when a slot is given a pattern); nil outside a performance (cycle 0).
    var trigger: TriggerStart? = nil
    /// The performance's controller values (`cF` …; nil: their defaults).
    var controllers: ControllerValues? = nil
    /// A lambda's parameters inside its body, by name (they hide `let` names and built-ins).
    var values: [String: RuntimeValue] = [:]

    // Thread: any
    func evaluate(_ e: Expression) throws(PatternError) -> RuntimeValue {
        switch e {
        case let .number(v, isInteger, pos):
            return .poly(Builtins.numberLiteral(v, isInteger: isInteger, pos))
        case let .string(s, pos):
            return .poly(Builtins.stringLiteral(s, pos))
        case let .name(n, pos):
            return try lookup(n, pos)
        case let .apply(f, args, _):
            var fv = try evaluate(f)
            for a in args { fv = try apply(fv, try evaluate(a), at: a.position) }
            return fv
        case let .binary(op, l, r, pos):
            if op == "$" { return try apply(try evaluate(l), try evaluate(r), at: r.position) }
            if op == "." { return try compose(try evaluate(l), try evaluate(r), pos) }
            // `f <$> p`: the function applied to the pattern (`(+ 1) <$> sine`).
            // `f <$> p <*> q`: Tidal's Applicative on patterns; a function of two patterns here
            // already takes its structure from both (Tidal's `<*>` is appBoth).
            if op == "<$>" || op == "<*>" { return try apply(try evaluate(l), try evaluate(r), at: r.position) }
            let lv = try evaluate(l), rv = try evaluate(r)
            if let folded = try Builtins.fold(op, lv, rv, pos) { return .poly(folded) }
            let f = try lookup(op, pos)
            return try apply(try apply(f, lv, at: l.position), rv, at: r.position)
        case let .leftSection(op, l, pos):
            if op == "$" { return try evaluate(l) }
            if op == "." {
                let lv = try evaluate(l)
                return .function(FunctionValue(name: "(.)", parameters: [.function], position: pos) { args throws(PatternError) in
                    try self.compose(lv, args[0], pos)
                })
            }
            return try apply(try lookup(op, pos), try evaluate(l), at: l.position)
        case let .rightSection(op, r, pos):
            let rv = try evaluate(r)
            if op == "$" {
                return .function(FunctionValue(name: "($)", parameters: [.function], position: pos) { args throws(PatternError) in
                    try self.apply(args[0], rv, at: r.position)
                })
            }
            if op == "." {
                return .function(FunctionValue(name: "(.)", parameters: [.function], position: pos) { args throws(PatternError) in
                    try self.compose(args[0], rv, pos)
                })
            }
            let f = try lookup(op, pos)
            guard case let .function(fv) = f, fv.parameters.count == 2 else {
                throw PatternError("`\(op)` cannot be used in a section", column: pos.column, line: pos.line)
            }
            return .function(FunctionValue(name: "(\(op) …)", parameters: [fv.parameters[0]], position: pos) { args throws(PatternError) in
                try self.apply(try self.apply(f, args[0], at: pos), rv, at: r.position)
            })
        case let .operatorName(op, pos):
            // `($)`: a function given a function, then a pattern (`spread ($) [rev, fast 2]`).
            if op == "$" {
                return .function(FunctionValue(name: "($)", parameters: [.function, .same], position: pos) { args throws(PatternError) in
                    try self.apply(args[0], args[1], at: pos)
                })
            }
            if op == "." {
                throw PatternError("`(\(op))` on its own is not supported", column: pos.column, line: pos.line)
            }
            return try lookup(op, pos)
        case let .negate(x, pos):
            return try Builtins.negate(try evaluate(x), pos)
        case let .list(items, pos):
            var out: [RuntimeValue] = []
            for i in items { out.append(try evaluate(i)) }
            return .list(out, pos)
        case let .tuple(items, pos):
            var out: [RuntimeValue] = []
            for i in items { out.append(try evaluate(i)) }
            return .tuple(out, pos)
        case let .lambda(parameters, body, pos):
            // Its body is evaluated when it has every argument, with them bound by name; a name
            // it uses that means nothing is an error now, not silence when a query applies it.
            try checkNames(body, bound: Set(parameters).union(values.keys))
            return .function(FunctionValue(name: "\\\(parameters.joined(separator: " ")) -> …", parameters: parameters.map { _ in .same },
                                           position: pos) { args throws(PatternError) in
                var inner = self
                for (name, value) in zip(parameters, args) where name != "_" { inner.values[name] = value }
                return try inner.evaluate(body)
            })
        }
    }

    /// Every name and operator `e` uses means something: one of `bound` (a lambda's parameters)
    /// or what `lookup` finds.
    // Thread: any
    func checkNames(_ e: Expression, bound: Set<String>) throws(PatternError) {
        switch e {
        case .number, .string: return
        case let .name(n, pos): if !bound.contains(n) { _ = try lookup(n, pos) }
        case let .apply(f, args, _):
            try checkNames(f, bound: bound)
            for a in args { try checkNames(a, bound: bound) }
        case let .binary(op, l, r, pos):
            if !["$", ".", "<$>", "<*>"].contains(op) { _ = try lookup(op, pos) }
            try checkNames(l, bound: bound)
            try checkNames(r, bound: bound)
        case let .leftSection(_, x, _), let .rightSection(_, x, _), let .negate(x, _): try checkNames(x, bound: bound)
        case let .operatorName(op, pos): if op != "$" && op != "." { _ = try lookup(op, pos) }
        case let .list(xs, _), let .tuple(xs, _): for x in xs { try checkNames(x, bound: bound) }
        case let .lambda(parameters, body, _): try checkNames(body, bound: bound.union(parameters))
        }
    }

    /// A name's value: a built-in, a control, or an error naming it.
    // Thread: any
    func lookup(_ name: String, _ pos: SourcePosition) throws(PatternError) -> RuntimeValue {
        if let v = values[name] { return v }
        if bindings[name] != nil { return try bound(name, pos) }
        if let v = listPattern(name, pos) { return v }
        if let b = Builtins.table[name] { return .function(b.value(name, pos, self)) }
        if let v = haskellName(name, pos) ?? haskellListName(name, pos) { return v }
        if let v = Builtins.constants[name] { return .poly(v(pos)) }
        if let c = Builtins.controlFunction(name, extraControls: extraControls, pos) { return c }
        if Builtins.unsupported.contains(name) {
            throw PatternError("`\(name)` is not supported yet", column: pos.column, line: pos.line)
        }
        if name.first?.isLetter == true || name.first == "_" {
            throw PatternError("unknown name `\(name)`", column: pos.column, line: pos.line)
        }
        throw PatternError("unknown operator `\(name)`", column: pos.column, line: pos.line)
    }

    /// `f x`: one more argument; the function's body runs when it has them all.
    // Thread: any
    func apply(_ f: RuntimeValue, _ x: RuntimeValue, at pos: SourcePosition) throws(PatternError) -> RuntimeValue {
        guard case var .function(fv) = f else {
            throw PatternError("one argument too many: what comes before it is not a function (a missing `$` or `#`?)", column: pos.column, line: pos.line)
        }
        fv.arguments.append(x)
        if fv.arguments.count < fv.parameters.count { return .function(fv) }
        return try fv.body(fv.arguments)
    }

    /// `f . g`: a function of one pattern.
    // Thread: any
    func compose(_ f: RuntimeValue, _ g: RuntimeValue, _ pos: SourcePosition) throws(PatternError) -> RuntimeValue {
        for v in [f, g] {
            guard case let .function(fv) = v, !fv.remaining.isEmpty else {
                let p = v.position
                throw PatternError("`.` composes functions, and this is not one", column: p.column, line: p.line)
            }
        }
        guard case let .function(gv) = g else { throw PatternError("`.` needs functions", column: pos.column, line: pos.line) }
        return .function(FunctionValue(name: "(.)", parameters: [gv.remaining.first!], position: pos) { args throws(PatternError) in
            try self.apply(f, try self.apply(g, args[0], at: pos), at: pos)
        })
    }

    /// The value as a pattern of `kind`, or an error saying what `context` expected, where.
    // Thread: any
    func coerce(_ v: RuntimeValue, to kind: PatternKind, _ context: String) throws(PatternError) -> Pattern<ControlMap> {
        switch v {
        case let .pattern(p, k, pos):
            if k == kind { return p }
            if k.isNumeric, kind.isNumeric { return Builtins.convert(p, from: k, to: kind) }
            throw PatternError("\(context) expects \(kind.expectation), not \(k.expectation)", column: pos.column, line: pos.line)
        case let .poly(p):
            return try p.resolve(kind)
        case let .function(f):
            let p = f.position
            throw PatternError("\(context) expects \(kind.expectation), but `\(f.name)` is a function still missing \(f.remaining.count) argument\(f.remaining.count == 1 ? "" : "s")", column: p.column, line: p.line)
        case let .list(xs, p):
            // A list of patterns may be a pattern of lists (`listToPat [[0, 4], [7]]`).
            let hint = xs.isEmpty ? "" : " (`flatpat` plays a pattern of lists' values together)"
            throw PatternError("\(context) expects \(kind.expectation), not a list\(hint)", column: p.column, line: p.line)
        case let .tuple(_, p):
            throw PatternError("\(context) expects \(kind.expectation), not a tuple", column: p.column, line: p.line)
        }
    }

    /// A function value as a Swift function from patterns of `kind` to patterns of `kind`;
    /// an error raised inside a call is kept in `failure` for the caller to throw.
    // Thread: any
    func function(_ v: RuntimeValue, kind: PatternKind, _ context: String, failure: FailureBox) throws(PatternError) -> @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap> {
        guard case let .function(fv) = v, fv.remaining.count == 1 else {
            let p = v.position
            if case let .function(fv) = v {
                throw PatternError("\(context) expects a function of one pattern, but `\(fv.name)` still takes \(fv.remaining.count) arguments", column: p.column, line: p.line)
            }
            throw PatternError("\(context) expects a function (`(fast 2)`, `rev`, `(# speed 2)`)", column: p.column, line: p.line)
        }
        let pos = fv.position
        let call: (Pattern<ControlMap>) -> Pattern<ControlMap> = { p in
            do {
                let r = try self.apply(v, .pattern(p, kind, pos), at: pos)
                return try self.coerce(r, to: kind, context)
            } catch {
                if failure.open, failure.error == nil { failure.error = (error as? PatternError) ?? PatternError("\(error)", column: pos.column, line: pos.line) }
                return .silence
            }
        }
        let box = UncheckedCall(call: call)
        return { p in box.call(p) }
    }
}

/// The first error raised inside a function handed to a transformation.
final class FailureBox {
    var error: PatternError?
    /// Cleared when the transformation has been built: a later call (from a query) records nothing.
    var open = true
    // Thread: any
    init() {}
}

/// A closure evaluated only while the expression is built (never from a query on another
/// thread), marked sendable for the transformations' signatures.
struct UncheckedCall: @unchecked Sendable {
    let call: (Pattern<ControlMap>) -> Pattern<ControlMap>
}

extension RuntimeValue {
    // Thread: any
    var isList: Bool { if case .list = self { return true }; return false }
}
