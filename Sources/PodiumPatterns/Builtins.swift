/// A built-in function: its parameters, the kind of what it makes, and what it does.
struct Builtin: Sendable {
    /// The kind of a built-in's result.
    enum Result: Sendable {
        /// The kind of its `.same` arguments (or what the context asks for).
        case same
        case fixed(PatternKind)
        /// Any number kind the context asks for (a signal, `irand 8`).
        case numeric
    }
    var parameters: [Parameter]
    var result: Result
    var run: @Sendable (BuiltinArguments, PatternKind) throws(PatternError) -> Pattern<ControlMap>

    // Thread: any
    init(_ parameters: [Parameter], _ result: Result = .same,
         _ run: @escaping @Sendable (BuiltinArguments, PatternKind) throws(PatternError) -> Pattern<ControlMap>) {
        self.parameters = parameters; self.result = result; self.run = run
    }

    /// The built-in as a function value named `name`, at `pos`.
    // Thread: any
    func value(_ name: String, _ pos: SourcePosition, _ ev: ExpressionEvaluator) -> FunctionValue {
        let b = self
        return FunctionValue(name: name, parameters: parameters, position: pos) { args throws(PatternError) in
            try b.call(name, args, pos, ev)
        }
    }

    // Thread: any
    func call(_ name: String, _ args: [RuntimeValue], _ pos: SourcePosition, _ ev: ExpressionEvaluator) throws(PatternError) -> RuntimeValue {
        let known = knownKind(args)
        switch result {
        case let .fixed(k):
            return .pattern(try make(name, args, pos, k, ev), k, pos)
        case .same, .numeric:
            if let k = known {
                if case .numeric = result, !k.isNumeric {
                    throw PatternError("`\(name)` makes numbers, not \(k.expectation)", column: pos.column, line: pos.line)
                }
                return .pattern(try make(name, args, pos, k, ev), k, pos)
            }
            let numeric: Bool
            if case .numeric = result { numeric = true } else { numeric = false }
            let b = self
            return .poly(PolyPattern(position: pos, number: nil, text: nil) { k throws(PatternError) in
                if numeric, !k.isNumeric, k != .control {
                    throw PatternError("`\(name)` makes numbers, where \(k.expectation) is expected", column: pos.column, line: pos.line)
                }
                if numeric, k == .control {
                    throw PatternError("`\(name)` makes numbers, where a control pattern is expected (give it to a control: `speed (\(name) …)`)", column: pos.column, line: pos.line)
                }
                return try b.make(name, args, pos, k, ev)
            })
        }
    }

    /// The kind of the first argument in a `.same` place whose kind is known.
    // Thread: any
    func knownKind(_ args: [RuntimeValue]) -> PatternKind? {
        for (p, a) in zip(parameters, args) {
            switch p {
            case .same:
                if case let .pattern(_, k, _) = a { return k }
            case .list:
                if case let .list(items, _) = a {
                    for case let .pattern(_, k, _) in items { return k }
                }
            case .weightedList:
                if case let .list(items, _) = a {
                    for case let .tuple(t, _) in items where t.count == 2 {
                        if case let .pattern(_, k, _) = t[1] { return k }
                    }
                }
            case .patternWeights:
                if case let .list(items, _) = a {
                    for case let .tuple(t, _) in items where t.count == 2 {
                        if case let .pattern(_, k, _) = t[0] { return k }
                    }
                }
            case .namedPatterns, .triples:
                if case let .list(items, _) = a {
                    for case let .tuple(t, _) in items {
                        if case let .pattern(_, k, _)? = t.last { return k }
                    }
                }
            default: continue
            }
        }
        return nil
    }

    /// The arguments resolved for a result of kind `k`, then the function run.
    // Thread: any
    func make(_ name: String, _ args: [RuntimeValue], _ pos: SourcePosition, _ k: PatternKind, _ ev: ExpressionEvaluator) throws(PatternError) -> Pattern<ControlMap> {
        let context = "`\(name)`"
        let failure = FailureBox()
        var items: [BuiltinArgument] = []
        for (index, (p, a)) in zip(parameters, args).enumerated() {
            switch p {
            case let .pattern(pk): items.append(.pattern(try ev.coerce(a, to: pk, context)))
            case .same: items.append(.pattern(try ev.coerce(a, to: k, context)))
            case .function: items.append(.function(try ev.function(a, kind: k, context, failure: failure)))
            case .list:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list (`[…, …]`)", context, a) }
                var ps: [Pattern<ControlMap>] = []
                for x in xs { ps.append(try ev.coerce(x, to: k, context)) }
                items.append(.patterns(ps))
            case .weightedList:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of pairs (`[(1, s \"bd\"), (2, s \"sn\")]`)", context, a) }
                var ps: [(Time, Pattern<ControlMap>)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2 else { throw Builtins.expected("a pair (`(1, s \"bd\")`)", context, x) }
                    ps.append((try Builtins.plainNumber(t[0], context), try ev.coerce(t[1], to: k, context)))
                }
                items.append(.weighted(ps))
            case .text:
                guard case let .poly(pp) = a, let s = pp.text else { throw Builtins.expected("a name in quotes", context, a) }
                items.append(.text(s))
            case .number:
                items.append(.number(try Builtins.plainNumber(a, context)))
            case .pair:
                guard case let .tuple(t, _) = a, t.count == 2 else { throw Builtins.expected("a pair of numbers (`(0.25, 0.75)`)", context, a) }
                items.append(.pair(try Builtins.plainNumber(t[0], context), try Builtins.plainNumber(t[1], context)))
            case .values:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of values (`[\"bd\", \"sn\"]`, `[0, 2, 7]`)", context, a) }
                var vs: [ControlMap] = []
                for x in xs { vs.append(try Builtins.plainValue(x, k, ev, context)) }
                items.append(.values(vs))
            case .numbers:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of numbers (`[1, 0.5, 2]`)", context, a) }
                var ns: [Time] = []
                for x in xs { ns.append(try Builtins.plainNumber(x, context)) }
                items.append(.numbers(ns))
            case .matrix:
                guard case let .list(rows, _) = a else { throw Builtins.expected("a list of lists of numbers (`[[3, 5], [1, 1]]`)", context, a) }
                var m: [[Double]] = []
                for row in rows {
                    guard case let .list(xs, _) = row else { throw Builtins.expected("a list of numbers (`[3, 5]`), a row of the matrix", context, row) }
                    var r: [Double] = []
                    for x in xs { r.append(try Builtins.plainNumber(x, context).double) }
                    m.append(r)
                }
                items.append(.matrix(m))
            case .valuePairs:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of pairs (`[(\"a\", \"bd\"), (\"b\", \"sn\")]`)", context, a) }
                var ps: [(String, ControlMap)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2, case let .poly(key) = t[0], let name = key.text ?? key.number.map({ Builtins.keyText($0.value) }) else {
                        throw Builtins.expected("a pair of a name and a value (`(\"a\", \"bd\")`)", context, x)
                    }
                    ps.append((name, try Builtins.plainValue(t[1], k, ev, context)))
                }
                items.append(.valuePairs(ps))
            case .textPairs:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of pairs of strings (`[(\"bd\", \"x~x~\")]`)", context, a) }
                var ps: [(String, String)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2, case let .poly(l) = t[0], case let .poly(r) = t[1], let a = l.text, let b = r.text else {
                        throw Builtins.expected("a pair of strings (`(\"bd\", \"x~x~\")`)", context, x)
                    }
                    ps.append((a, b))
                }
                items.append(.textPairs(ps))
            case .functions:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of functions (`[rev, fast 2, (# speed 2)]`)", context, a) }
                var fs: [@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>] = []
                for x in xs { fs.append(try ev.function(x, kind: k, context, failure: failure)) }
                items.append(.functions(fs))
            case .weightedValues:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of pairs (`[(\"bd\", 1), (\"sn\", 0.5)]`)", context, a) }
                var vs: [(ControlMap, Double)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2 else { throw Builtins.expected("a pair of a value and its weight (`(\"bd\", 1)`)", context, x) }
                    vs.append((try Builtins.plainValue(t[0], k, ev, context), try Builtins.plainNumber(t[1], context).double))
                }
                items.append(.weightedValues(vs))
            case .patternWeights:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of pairs (`[(s \"bd*2\", 1), (s \"hh*4\", 2)]`)", context, a) }
                var ps: [(Pattern<ControlMap>, Double)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2 else { throw Builtins.expected("a pair of a pattern and its weight (`(s \"bd\", 1)`)", context, x) }
                    ps.append((try ev.coerce(t[0], to: k, context), try Builtins.plainNumber(t[1], context).double))
                }
                items.append(.patternWeights(ps))
            case .spreader:
                items.append(.none)
            case .triples:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of (start, stop, pattern) (`[(0, 4, s \"bd*2\")]`)", context, a) }
                var ts: [(Time, Time, Pattern<ControlMap>)] = []
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 3 else { throw Builtins.expected("a (start, stop, pattern) (`(0, 4, s \"bd*2\")`)", context, x) }
                    ts.append((try Builtins.plainNumber(t[0], context), try Builtins.plainNumber(t[1], context), try ev.coerce(t[2], to: k, context)))
                }
                items.append(.triples(ts))
            case .namedPatterns, .namedFunctions:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list of (name, …) pairs (`[(\"a\", s \"bd*4\")]`)", context, a) }
                var ps: [(String, Pattern<ControlMap>)] = []
                var fs: [(String, @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>)] = []
                var patterns = false
                if case .namedPatterns = p { patterns = true }
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2, case let .poly(name) = t[0], let text = name.text else {
                        throw Builtins.expected("a pair of a name in quotes and a \(patterns ? "pattern" : "function") (`(\"a\", …)`)", context, x)
                    }
                    if patterns { ps.append((text, try ev.coerce(t[1], to: k, context))) }
                    else { fs.append((text, try ev.function(t[1], kind: k, context, failure: failure))) }
                }
                items.append(patterns ? .namedPatterns(ps) : .namedFunctions(fs))
            case .key:
                guard case let .poly(pp) = a, pp.number != nil || pp.text != nil else {
                    throw Builtins.expected("a name (`1`, `\"drums\"`)", context, a)
                }
                items.append(.none)
            case .spreadValues:
                guard case let .list(xs, _) = a else { throw Builtins.expected("a list (`[1, 2]`, `[rev, fast 2]`)", context, a) }
                guard index >= 1, index + 1 < args.count else { throw Builtins.expected("a list", context, a) }
                let f = args[index - 1], pattern = try ev.coerce(args[index + 1], to: k, context)
                var ps: [Pattern<ControlMap>] = []
                for x in xs {
                    let r = try ev.apply(try ev.apply(f, x, at: x.position), .pattern(pattern, k, pos), at: pos)
                    ps.append(try ev.coerce(r, to: k, context))
                }
                items.append(.applied(ps))
            case .predicate:
                items.append(.predicate(try ev.predicate(a, context)))
            case .numberFunction:
                items.append(.numberFunction(try ev.numberFunction(a, context)))
            case .combiner:
                items.append(.combiner(try ev.combiner(a, kind: k, context, failure: failure)))
            case .valueTest:
                items.append(.valueTest(try ev.valueTest(a, context)))
            case .ranges:
                items.append(.ranges(try ev.ranges(a, context)))
            case .listFunction:
                items.append(.listFunction(try ev.listFunction(a, context)))
            case .bindValues:
                guard index >= 1, index + 1 < args.count else { throw Builtins.expected("a pattern of values", context, a) }
                items.append(.pattern(try ev.bound(function: args[index - 1], values: a, over: args[index + 1], kind: k, context)))
            }
        }
        let out = try run(BuiltinArguments(items: items, position: pos, trigger: ev.trigger, controllers: ev.controllers), k)
        failure.open = false
        if let e = failure.error { throw e }
        return out
    }
}

/// Literals, conversions and errors the table uses.
enum Builtins {
    // Thread: any
    static func expected(_ what: String, _ context: String, _ v: RuntimeValue) -> PatternError {
        let p = v.position
        return PatternError("\(context) expects \(what) here", column: p.column, line: p.line)
    }

    /// A literal number (or arithmetic on literals), as its exact value.
    // Thread: any
    /// A number as a pattern of strings reads it (`swap [(1, "bd")] "1 2"`): "1", "0.5".
    static func keyText(_ t: Time) -> String {
        let d = t.double
        return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }

    /// A value as `swap` looks it up: a string as it is, a number as `keyText` writes it.
    static func keyText(_ v: Value?) -> String {
        switch v {
        case let .string(s)?: return s
        case let v?: return v.number.map { keyText(Time($0)) } ?? ""
        case nil: return ""
        }
    }

    static func plainNumber(_ v: RuntimeValue, _ context: String) throws(PatternError) -> Time {
        if case let .poly(p) = v, let n = p.number { return n.value }
        throw expected("a plain number", context, v)
    }

    /// A plain value (`"bd"`, `3`, `(-1)`) of kind `k`: a pattern of one event a cycle, the
    /// whole cycle, and no other.
    // Thread: any
    static func plainValue(_ v: RuntimeValue, _ k: PatternKind, _ ev: ExpressionEvaluator, _ context: String) throws(PatternError) -> ControlMap {
        let p = try ev.coerce(v, to: k, context)
        // Metered as the scheduler's queries are: a list's value is read here, before any check.
        let (es, exceeded) = QueryBudget.limited(to: QueryBudget.stepsPerCycle) { p.queryArc(0, 1) }
        guard !exceeded, es.count == 1, es[0].whole == Arc(0, 1), es[0].part == Arc(0, 1) else {
            throw expected("a plain value (`\"bd\"`, `3`), not a pattern of several", context, v)
        }
        return es[0].value
    }

    // Thread: any
    static func time(_ v: Value?) -> Time {
        switch v {
        case let .rational(t)?: return t
        case let .int(i)?: return Time(i)
        case let .double(d)?, let .note(d)?: return Time(d)
        default: return .zero
        }
    }

    // Thread: any
    static func int(_ v: Value?) -> Int {
        switch v {
        case let .int(i)?: return i
        case let .rational(t)?: return Int(clamping: t.floorInt)
        case let .double(d)?, let .note(d)?: return d.isFinite ? Int(max(-1e15, min(1e15, d.rounded(.down)))) : 0
        default: return 0
        }
    }

    /// A number as a value of `kind` (nil: not a number kind).
    // Thread: any
    static func number(_ d: Double, _ kind: PatternKind) -> Value? {
        switch kind {
        case .double: return .double(d)
        case .note: return .note(d)
        case .int: return .int(int(.double(d)))
        case .time: return .rational(Time(d))
        default: return nil
        }
    }

    /// A plain pattern's values converted to another number kind.
    // Thread: any
    static func convert(_ p: Pattern<ControlMap>, from: PatternKind, to: PatternKind) -> Pattern<ControlMap> {
        p.map { m in
            guard let v = m[plainValueKey] else { return m }
            if to == .time { return [plainValueKey: .rational(time(v))] }
            if to == .int { return [plainValueKey: .int(int(v))] }
            if case let .rational(t) = v { return [plainValueKey: number(t.double, to) ?? v] }
            return [plainValueKey: number(v.number ?? 0, to) ?? v]
        }
    }

    /// A plain pattern of numbers from a signal of doubles.
    // Thread: any
    static func plain(_ p: Pattern<Double>, _ kind: PatternKind) -> Pattern<ControlMap> {
        p.map { [plainValueKey: number($0, kind) ?? .double($0)] }
    }

    /// `2`, `0.25`: a pattern of whichever kind the context asks for.
    // Thread: any
    static func numberLiteral(_ v: Time, isInteger: Bool, _ pos: SourcePosition) -> PolyPattern {
        PolyPattern(position: pos, number: (v, isInteger), text: nil) { k throws(PatternError) in
            let value: ControlMap
            switch k {
            case .int:
                guard v.denominator == 1 else {
                    throw PatternError("a whole number is expected here, not a fraction", column: pos.column, line: pos.line)
                }
                value = [plainValueKey: .int(Int(v.numerator))]
            case .double: value = [plainValueKey: .double(v.double)]
            case .note: value = [plainValueKey: .note(v.double)]
            case .time: value = [plainValueKey: .rational(v)]
            // Tidal's `Num ValueMap`: an integer is `n`, a fraction `speed`.
            case .control: value = isInteger && v.denominator == 1 ? ["n": .int(Int(v.numerator))] : ["speed": .double(v.double)]
            case .string, .bool:
                throw PatternError("a number where \(k.expectation) is expected", column: pos.column, line: pos.line)
            }
            return .pure(value)
        }
    }

    /// `"bd*2 [~ sn]"`: mini-notation, parsed as the kind the context asks for.
    // Thread: any
    static func stringLiteral(_ s: String, _ pos: SourcePosition) -> PolyPattern {
        PolyPattern(position: pos, number: nil, text: s) { k throws(PatternError) in
            guard let mini = k.miniKind else {
                throw PatternError("a string where a control pattern is expected (name the control: `s \"…\"`)", column: max(1, pos.column - 1), line: pos.line)
            }
            let p = try MiniNotation.parse(s, kind: mini, column: pos.column, line: pos.line)
            return p.map { [plainValueKey: $0] }
        }
    }

    /// Haskell's `negate` on a value (Tidal's `applyFIS negate negate id`; times too).
    // Thread: any
    static func negateValue(_ v: Value) -> Value {
        if case let .rational(t) = v { return .rational(-t) }
        return NumOp.negateValue(v)
    }

    /// `-x`: numbers negated (a literal stays a literal).
    // Thread: any
    static func negate(_ v: RuntimeValue, _ pos: SourcePosition) throws(PatternError) -> RuntimeValue {
        let f: @Sendable (ControlMap) -> ControlMap = { m in m.mapValues(Builtins.negateValue) }
        switch v {
        case let .pattern(p, k, _):
            guard k.isNumeric || k == .control else { throw PatternError("`-` needs numbers", column: pos.column, line: pos.line) }
            return .pattern(p.map(f), k, pos)
        case let .poly(pp):
            var out = PolyPattern(position: pos, number: pp.number.map { (-$0.value, $0.isInteger) }, text: nil) { k throws(PatternError) in
                try pp.resolve(k).map(f)
            }
            if let n = pp.number { out = numberLiteral(-n.value, isInteger: n.isInteger, pos) }
            return .poly(out)
        default:
            throw PatternError("`-` needs a number or a pattern of numbers", column: pos.column, line: pos.line)
        }
    }
}
