/// Haskell's lists, maps and `Value`s as Tidal code uses them beside Tidal's own functions:
/// list functions for `arpWith` (`reverse`, `init`, `tail`, `drop`, `concat`, `++`), `pure`,
/// `Value`'s constructors (`VF 0`) and `Data.Map`'s `fromList`/`singleton` for `contrastRange`'s
/// maps, and lists of lists as patterns of lists (`flatpat $ listToPat [[0, 4, 7], [2, 5]]`).
///
/// A pattern of lists is held as a list of patterns, one a place in the lists (the first
/// values, the second values …; a shorter list is silent in the later ones): `flatpat` stacks
/// them, which gives Tidal's events (`flatpat` plays a list's values at its event's time).
/// A `Data.Map` is held as its list of (key, value) pairs.
extension ExpressionEvaluator {
    /// The value of one of these names, or nil.
    // Thread: any
    func haskellListName(_ name: String, _ pos: SourcePosition) -> RuntimeValue? {
        func listFunction(_ f: @escaping ([RuntimeValue]) -> [RuntimeValue]) -> RuntimeValue {
            .function(FunctionValue(name: name, parameters: [.same], position: pos) { args throws(PatternError) in
                guard case let .list(xs, p) = args[0] else { throw Builtins.expected("a list", "`\(name)`", args[0]) }
                return .list(f(xs), p)
            })
        }
        switch name {
        case "reverse": return listFunction { $0.reversed() }
        // Haskell's `init` and `tail` fail on an empty list; here an empty list stays empty.
        case "init": return listFunction { Array($0.dropLast()) }
        case "tail": return listFunction { Array($0.dropFirst()) }
        case "concat":
            return listFunction { xs in xs.flatMap { x -> [RuntimeValue] in if case let .list(ys, _) = x { return ys }; return [x] } }
        case "drop":
            return .function(FunctionValue(name: name, parameters: [.number, .same], position: pos) { args throws(PatternError) in
                let n = max(0, Int(clamping: try Builtins.plainNumber(args[0], "`drop`").floorInt))
                guard case let .list(xs, p) = args[1] else { throw Builtins.expected("a list", "`drop`", args[1]) }
                return .list(Array(xs.dropFirst(n)), p)
            })
        case "++":
            return .function(FunctionValue(name: name, parameters: [.same, .same], position: pos) { args throws(PatternError) in
                switch (args[0], args[1]) {
                case let (.list(xs, p), .list(ys, _)): return .list(xs + ys, p)
                case let (.poly(x), .poly(y)) where x.text != nil && y.text != nil:
                    return .poly(Builtins.stringLiteral(x.text! + y.text!, x.position))
                default: throw Builtins.expected("two lists or two strings", "`++`", args[1])
                }
            })
        case "pure", "return":
            // A literal is a pattern of one value a cycle already; a string is its text, not
            // mini-notation (`pure "bd sn"` is one event); a list or a map stays as it is.
            return .function(FunctionValue(name: name, parameters: [.same], position: pos) { args throws(PatternError) in
                switch args[0] {
                case let .poly(p) where p.text != nil:
                    let text = p.text!
                    return .pattern(.pure([plainValueKey: .string(text)]), .string, p.position)
                case .poly, .list, .tuple: return args[0]
                case .pattern, .function:
                    let p = args[0].position
                    throw PatternError("`\(name)` makes a pattern of one value, and this is already a pattern or a function", column: p.column, line: p.line)
                }
            })
        case "VF", "VN", "VI", "VR", "VS":
            return .function(FunctionValue(name: name, parameters: [.same], position: pos) { args throws(PatternError) in
                let context = "`\(name)`"
                let value: Value, kind: PatternKind
                if name == "VS" {
                    guard case let .poly(p) = args[0], let text = p.text else { throw Builtins.expected("a string in quotes", context, args[0]) }
                    (value, kind) = (.string(text), .string)
                } else {
                    let n = try Builtins.plainNumber(args[0], context)
                    switch name {
                    case "VF": (value, kind) = (.double(n.double), .double)
                    case "VN": (value, kind) = (.note(n.double), .note)
                    case "VR": (value, kind) = (.rational(n), .time)
                    default:
                        guard n.denominator == 1 else { throw Builtins.expected("a whole number", context, args[0]) }
                        (value, kind) = (.int(Int(n.numerator)), .int)
                    }
                }
                return .pattern(.pure([plainValueKey: value]), kind, pos)
            })
        case "Map.fromList", "M.fromList", "Data.Map.fromList", "Data.Map.Strict.fromList":
            return .function(FunctionValue(name: name, parameters: [.same], position: pos) { args throws(PatternError) in
                guard case let .list(xs, _) = args[0] else { throw Builtins.expected("a list of (name, value) pairs", "`\(name)`", args[0]) }
                for x in xs {
                    guard case let .tuple(t, _) = x, t.count == 2 else { throw Builtins.expected("a (name, value) pair", "`\(name)`", x) }
                }
                return args[0]
            })
        case "Map.singleton", "M.singleton", "Data.Map.singleton", "Data.Map.Strict.singleton":
            return .function(FunctionValue(name: name, parameters: [.same, .same], position: pos) { args in
                .list([.tuple(args, pos)], pos)
            })
        default:
            return nil
        }
    }

    /// `fromList`, `fastFromList` and `listToPat` of a list of lists: a pattern of lists (one
    /// pattern a place in the lists); of anything else, the built-in's pattern of values.
    // Thread: any
    func listPattern(_ name: String, _ pos: SourcePosition) -> RuntimeValue? {
        guard ["fromList", "fastFromList", "listToPat"].contains(name), let b = Builtins.table[name] else { return nil }
        let plain = RuntimeValue.function(b.value(name, pos, self))
        return .function(FunctionValue(name: name, parameters: [.same], position: pos) { args throws(PatternError) in
            guard case let .list(steps, listPos) = args[0], !steps.isEmpty, steps.allSatisfy(\.isList) else {
                return try self.apply(plain, args[0], at: pos)
            }
            let width = steps.map { if case let .list(xs, _) = $0 { return xs.count }; return 0 }.max() ?? 0
            let layers = (0..<width).map { place -> RuntimeValue in
                .poly(PolyPattern(position: listPos, number: nil, text: nil) { k throws(PatternError) in
                    var ps: [Pattern<ControlMap>] = []
                    for step in steps {
                        guard case let .list(xs, _) = step, place < xs.count else { ps.append(.silence); continue }
                        ps.append(.pure(try Builtins.plainValue(xs[place], k, self, "`\(name)`")))
                    }
                    return name == "fromList" ? slowcat(ps) : fastcat(ps)
                })
            }
            return .list(layers, listPos)
        })
    }

    /// A test of two values for `contrastBy`: Tidal's comparisons by name (`(>=)`: its `Ord
    /// Value`), or any function of two patterns giving booleans, read at cycle 0.
    // Thread: any
    func valueTest(_ v: RuntimeValue, _ context: String) throws(PatternError) -> @Sendable (Value, Value) -> Bool {
        guard case let .function(fv) = v, fv.remaining.count == 2 else {
            throw Builtins.expected("a test of two values (`(==)`, `(>=)`, `\\a v -> v > a`)", context, v)
        }
        if fv.arguments.isEmpty, let test = tidalComparison(fv.name) { return test }
        let pos = fv.position
        let call: (Value, Value) throws(PatternError) -> Bool = { a, b throws(PatternError) in
            let r = try self.apply(try self.apply(v, Self.valuePattern(a, pos), at: pos), Self.valuePattern(b, pos), at: pos)
            return Self.firstBool(try self.coerce(r, to: .bool, context))
        }
        _ = try call(.double(0), .double(0))
        let box = UncheckedSendable(value: call)
        return { a, b in (try? box.value(a, b)) ?? false }
    }

    /// A value as a pattern of its own kind.
    // Thread: any
    static func valuePattern(_ v: Value, _ pos: SourcePosition) -> RuntimeValue {
        let kind: PatternKind
        switch v {
        case .string: kind = .string
        case .double: kind = .double
        case .note: kind = .note
        case .int: kind = .int
        case .rational: kind = .time
        case .bool: kind = .bool
        }
        return .pattern(.pure([plainValueKey: v]), kind, pos)
    }

    /// `contrastRange`'s map: control names to (low, high) pairs of `Value`s with their kinds
    /// (`VF 0`, `VN 3`): Tidal compares an integer only with integers, a note with notes.
    // Thread: any
    func ranges(_ v: RuntimeValue, _ context: String) throws(PatternError) -> [String: (Value, Value)] {
        let shape = "a map of controls to ranges (`(pure $ Map.fromList [(\"n\", (VN 0, VN 3))])`)"
        guard case let .list(pairs, _) = v else { throw Builtins.expected(shape, context, v) }
        var out: [String: (Value, Value)] = [:]
        for pair in pairs {
            guard case let .tuple(t, _) = pair, t.count == 2, case let .poly(key) = t[0], let name = key.text else {
                throw Builtins.expected("a (name, (low, high)) pair (`(\"n\", (VN 0, VN 3))`)", context, pair)
            }
            guard case let .tuple(ends, _) = t[1], ends.count == 2 else {
                throw Builtins.expected("a (low, high) pair (`(VN 0, VN 3)`)", context, t[1])
            }
            var values: [Value] = []
            for end in ends {
                guard case let .pattern(p, _, _) = end, let value = p.query(Arc(.zero, Time(1))).first?.value[plainValueKey] else {
                    throw Builtins.expected("a value with its kind (`VF 0.5`, `VN 3`, `VI 2`, `VS \"bd\"`)", context, end)
                }
                values.append(value)
            }
            // Haskell's Data.Map.fromList keeps the last of a repeated key.
            out[name] = (values[0], values[1])
        }
        return out
    }

    /// `arpWith`'s function of a list of events: given the list of a group's places, the places
    /// it gives back. The events are opaque here: a function may reorder, repeat or drop them
    /// (`reverse`, `take 2`, `\x -> x ++ reverse x`), not make new ones. An error shows at once
    /// (the function is tried on three events).
    // Thread: any
    func listFunction(_ v: RuntimeValue, _ context: String) throws(PatternError) -> @Sendable (Int) -> [Int] {
        guard case let .function(fv) = v, fv.remaining.count == 1 else {
            throw Builtins.expected("a function of a list of events (`reverse`, `take 2`, `\\x -> x ++ reverse x`)", context, v)
        }
        if fv.arguments.isEmpty, fv.name == "id" { return { Array(0..<$0) } }
        let pos = fv.position
        // Each event is a number no arithmetic on places would make by chance.
        let base = 1_000_003
        let call: (Int) throws(PatternError) -> [Int] = { n throws(PatternError) in
            let items = (0..<n).map { RuntimeValue.poly(Builtins.numberLiteral(Time(base + $0), isInteger: true, pos)) }
            guard case let .list(out, p) = try self.apply(v, .list(items, pos), at: pos) else {
                throw PatternError("\(context)'s function gives back a list of the events it was given", column: pos.column, line: pos.line)
            }
            var places: [Int] = []
            for x in out {
                guard case let .poly(pp) = x, let number = pp.number, number.value.denominator == 1,
                      case let place = Int(number.value.numerator) - base, place >= 0, place < n else {
                    throw PatternError("\(context)'s function can reorder, repeat or drop the events (`reverse`, `take 2`), not make new ones", column: p.column, line: p.line)
                }
                places.append(place)
            }
            return places
        }
        _ = try call(3)
        let box = UncheckedSendable(value: call)
        return { n in (try? box.value(n)) ?? Array(0..<n) }
    }
}
