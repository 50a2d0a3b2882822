/// The few Haskell names Tidal code leans on beside Tidal's own (`flip`, `Arc`, `Just`,
/// `Nothing`, `take`, `lindenmayer`), and the function arguments made from values the
/// evaluator holds: a test of a number (`when`'s), a function of two patterns (`snowball`'s),
/// and a function bound over a pattern of values (`spread'`'s).
extension ExpressionEvaluator {
    /// The value of one of these names, or nil.
    // Thread: any
    func haskellName(_ name: String, _ pos: SourcePosition) -> RuntimeValue? {
        switch name {
        case "flip":
            // `flip f x y` is `f y x` (`ifp (flip elem [1, 3])`, `(flip mod 4)`).
            return .function(FunctionValue(name: "flip", parameters: [.function, .same, .same], position: pos) { args throws(PatternError) in
                try self.apply(try self.apply(args[0], args[2], at: pos), args[1], at: pos)
            })
        case "fmap":
            // `fmap (\x -> x * 2 + 1) sine`: Tidal's Functor, as `<$>` (the function applied to the pattern).
            return .function(FunctionValue(name: "fmap", parameters: [.function, .same], position: pos) { args throws(PatternError) in
                try self.apply(args[0], args[1], at: pos)
            })
        case "scaleList":
            // Tidal's `unwords` of its scales' names, in its order (a String: text, as a literal).
            return .poly(Builtins.stringLiteral(Scales.table.map(\.name).joined(separator: " "), pos))
        case "map":
            // `map (\x -> s x) ["bd", "sn"]`, `fastcat $ map (+ 1) [0, 4]`: a list of the results.
            return .function(FunctionValue(name: "map", parameters: [.function, .list], position: pos) { args throws(PatternError) in
                guard case let .list(xs, p) = args[1] else { throw Builtins.expected("a list (`[0, 2, 4]`)", "`map`", args[1]) }
                var out: [RuntimeValue] = []
                for x in xs { out.append(try self.apply(args[0], x, at: x.position)) }
                return .list(out, p)
            })
        case "Arc":
            // `withinArc (Arc 0 0.5) (fast 2)`: an arc is a pair of times.
            return .function(FunctionValue(name: "Arc", parameters: [.number, .number], position: pos) { args in .tuple(args, pos) })
        case "Just":
            return .function(FunctionValue(name: "Just", parameters: [.same], position: pos) { args in args[0] })
        case "Nothing":
            return Builtins.constants["silence"].map { .poly($0(pos)) }
        case "take":
            return .function(FunctionValue(name: "take", parameters: [.number, .same], position: pos) { args throws(PatternError) in
                let n = max(0, Int(clamping: try Builtins.plainNumber(args[0], "`take`").floorInt))
                switch args[1] {
                case let .poly(p) where p.text != nil: return .poly(Builtins.stringLiteral(String(p.text!.prefix(n)), p.position))
                case let .list(xs, p): return .list(Array(xs.prefix(n)), p)
                default: throw Builtins.expected("a string or a list", "`take`", args[1])
                }
            })
        case "lindenmayer", "lindenmayerI":
            return .function(FunctionValue(name: name, parameters: [.number, .text, .text], position: pos) { args throws(PatternError) in
                let context = "`\(name)`"
                let n = Int(clamping: try Builtins.plainNumber(args[0], context).floorInt)
                guard case let .poly(r) = args[1], let rules = r.text else { throw Builtins.expected("rules in quotes (\"0:1~~,1:0~2\")", context, args[1]) }
                guard case let .poly(s) = args[2], let start = s.text else { throw Builtins.expected("a start in quotes (\"0\")", context, args[2]) }
                let text: String
                switch lindenmayer(n, rules, start) {
                case let .success(t): text = t
                case let .failure(e): throw PatternError(e.message, column: r.position.column, line: r.position.line)
                }
                if name == "lindenmayer" { return .poly(Builtins.stringLiteral(text, pos)) }
                // Haskell's digitToInt: 0-9, a-f, A-F.
                var digits: [RuntimeValue] = []
                for c in text {
                    guard let d = c.hexDigitValue else {
                        throw PatternError("`lindenmayerI` makes numbers of digits, and `\(c)` is not one (Haskell's digitToInt)", column: pos.column, line: pos.line)
                    }
                    digits.append(.poly(Builtins.numberLiteral(Time(Int64(d)), isInteger: true, pos)))
                }
                return .list(digits, pos)
            })
        default:
            return nil
        }
    }

    /// A function from a number to a boolean, for `when`, `whenT` and `ifp`: applied to the cycle
    /// (or the time), its pattern of booleans read at cycle 0. The expression is pure: a test
    /// runs it on the query's thread. An error shows at once (the test is tried on 0); one that
    /// only a later number raises counts as false.
    // Thread: any
    func predicate(_ v: RuntimeValue, _ context: String) throws(PatternError) -> @Sendable (Time) -> Bool {
        guard case let .function(fv) = v, fv.remaining.count == 1 else {
            throw Builtins.expected("a test of a number (`(> 3)`, `even`, `((== 0) . (`mod` 4))`, `(`elem` [1, 3])`)", context, v)
        }
        let pos = fv.position
        let test: (Time) throws(PatternError) -> Bool = { t throws(PatternError) in
            let r = try self.apply(v, .poly(Builtins.numberLiteral(t, isInteger: t == t.sam, pos)), at: pos)
            return Self.firstBool(try self.coerce(r, to: .bool, context))
        }
        _ = try test(.zero)
        let box = UncheckedSendable(value: test)
        return { t in (try? box.value(t)) ?? false }
    }

    /// A pattern of booleans read at cycle 0: its first value (a number: not zero), false if none.
    // Thread: any
    static func firstBool(_ p: Pattern<ControlMap>) -> Bool {
        guard let value = p.query(Arc(.zero, Time(1))).first?.value[plainValueKey] else { return false }
        if case let .bool(x) = value { return x }
        return (value.number ?? 0) != 0
    }

    /// A function from a time to a number, for `sig`: applied to the time (exact, a rational),
    /// its pattern read at cycle 0. Pure, so it runs on the query's thread; an error shows at
    /// once (it is tried on 0); one only a later time raises gives 0.
    // Thread: any
    func numberFunction(_ v: RuntimeValue, _ context: String) throws(PatternError) -> @Sendable (Time) -> Double {
        guard case let .function(fv) = v, fv.remaining.count == 1 else {
            throw Builtins.expected("a function of a time (`fromRational`, `((* 2) . fromRational)`)", context, v)
        }
        let pos = fv.position
        let call: (Time) throws(PatternError) -> Double = { t throws(PatternError) in
            let r = try self.apply(v, .poly(Builtins.numberLiteral(t, isInteger: false, pos)), at: pos)
            let p = try self.coerce(r, to: .double, context)
            return p.query(Arc(.zero, Time(1))).first?.value[plainValueKey]?.number ?? 0
        }
        _ = try call(.zero)
        let box = UncheckedSendable(value: call)
        return { t in (try? box.value(t)) ?? 0 }
    }

    /// A function of two patterns of `kind` (`snowball`'s `(+)`).
    // Thread: any
    func combiner(_ v: RuntimeValue, kind: PatternKind, _ context: String, failure: FailureBox) throws(PatternError)
        -> @Sendable (Pattern<ControlMap>, Pattern<ControlMap>) -> Pattern<ControlMap> {
        guard case let .function(fv) = v, fv.remaining.count == 2 else {
            throw Builtins.expected("a function of two patterns (`(+)`, `(#)`, `overlay`)", context, v)
        }
        let pos = fv.position
        let call: (Pattern<ControlMap>, Pattern<ControlMap>) -> Pattern<ControlMap> = { x, y in
            do {
                let r = try self.apply(try self.apply(v, .pattern(x, kind, pos), at: pos), .pattern(y, kind, pos), at: pos)
                return try self.coerce(r, to: kind, context)
            } catch {
                if failure.open, failure.error == nil { failure.error = (error as? PatternError) ?? PatternError("\(error)", column: pos.column, line: pos.line) }
                return .silence
            }
        }
        let box = UncheckedSendable(value: call)
        return { x, y in box.value(x, y) }
    }

    /// `f v pattern` for each value `v` of `values`, bound (Tidal's `spread'`): the values are
    /// read as `f`'s first parameter takes them (`fast`'s times, `striate`'s whole numbers).
    /// Each value's pattern is made on the query's thread (the expression is pure); an error
    /// shows at once for the values of cycle 0.
    // Thread: any
    func bound(function f: RuntimeValue, values: RuntimeValue, over target: RuntimeValue, kind: PatternKind, _ context: String) throws(PatternError) -> Pattern<ControlMap> {
        guard case let .function(fv) = f, fv.remaining.count == 2 else {
            throw Builtins.expected("a function of a value and a pattern (`fast`, `striate`, `(# speed 2)` is not one)", context, f)
        }
        var valueKind = PatternKind.double
        if case let .pattern(k)? = fv.remaining.first { valueKind = k }
        let vs = try coerce(values, to: valueKind, context)
        let pattern = try coerce(target, to: kind, context)
        let pos = fv.position
        let make: (ControlMap) throws(PatternError) -> Pattern<ControlMap> = { v throws(PatternError) in
            let r = try self.apply(try self.apply(f, .pattern(.pure(v), valueKind, pos), at: pos), .pattern(pattern, kind, pos), at: pos)
            return try self.coerce(r, to: kind, context)
        }
        for e in vs.query(Arc(.zero, Time(1))) { _ = try make(e.value) }
        let box = UncheckedSendable(value: make)
        return spreadBind({ v in (try? box.value(v)) ?? .silence }, vs)
    }
}

/// A value handed to a pattern's query (a closure the evaluator made from pure expressions, no
/// state), marked sendable for the patterns' signatures.
struct UncheckedSendable<T>: @unchecked Sendable {
    let value: T
}
