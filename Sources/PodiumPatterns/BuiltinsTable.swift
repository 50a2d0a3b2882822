/// The language's built-in functions: each Tidal name with its parameters (which decide how a
/// literal argument is read: `fast "<1 2>"` as times, `every "<2 3>"` as whole numbers) and the
/// transformation it runs. Every pattern here is a `Pattern<ControlMap>` (plain values under
/// `plainValueKey`), so the generic transformations run with `T == ControlMap`.
extension Builtins {
    typealias P = Pattern<ControlMap>

    /// Function names and what they are.
    static let table: [String: Builtin] = {
        var t: [String: Builtin] = [:]
        // Time.
        t["fast"] = Builtin([.pattern(.time), .same]) { a, _ in fast(a.time(0), a.p(1)) }
        t["density"] = t["fast"]
        t["slow"] = Builtin([.pattern(.time), .same]) { a, _ in slow(a.time(0), a.p(1)) }
        t["sparsity"] = t["slow"]
        t["hurry"] = Builtin([.pattern(.time), .pattern(.control)], .fixed(.control)) { a, _ in hurry(a.time(0), a.p(1)) }
        t["fastGap"] = Builtin([.pattern(.time), .same]) { a, _ in fastGap(a.time(0), a.p(1)) }
        t["fastgap"] = t["fastGap"]
        t["rev"] = Builtin([.same]) { a, _ in rev(a.p(0)) }
        t["rotL"] = Builtin([.number, .same]) { a, _ in a.p(1).rotL(a.number(0)) }
        t["rotR"] = Builtin([.number, .same]) { a, _ in a.p(1).rotR(a.number(0)) }
        t["<~"] = Builtin([.pattern(.time), .same]) { a, _ in rotL(a.time(0), a.p(1)) }
        t["~>"] = Builtin([.pattern(.time), .same]) { a, _ in rotR(a.time(0), a.p(1)) }
        t["iter"] = Builtin([.pattern(.int), .same]) { a, _ in iter(a.int(0), a.p(1)) }
        t["iter'"] = Builtin([.pattern(.int), .same]) { a, _ in iterBack(a.int(0), a.p(1)) }
        t["ply"] = Builtin([.pattern(.time), .same]) { a, _ in ply(a.time(0), a.p(1)) }
        t["palindrome"] = Builtin([.same]) { a, _ in palindrome(a.p(0)) }
        t["brak"] = Builtin([.same]) { a, _ in brak(a.p(0)) }
        t["segment"] = Builtin([.pattern(.time), .same]) { a, _ in segment(a.time(0), a.p(1)) }
        t["discretise"] = t["segment"]
        t["linger"] = Builtin([.pattern(.time), .same]) { a, _ in linger(a.time(0), a.p(1)) }
        t["trunc"] = Builtin([.pattern(.time), .same]) { a, _ in trunc(a.time(0), a.p(1)) }
        t["swingBy"] = Builtin([.pattern(.time), .pattern(.time), .same]) { a, _ in swingBy(a.time(0), a.time(1), a.p(2)) }
        t["swing"] = Builtin([.pattern(.time), .same]) { a, _ in swing(a.time(0), a.p(1)) }
        t["zoom"] = Builtin([.pair, .same]) { a, _ in let (s, e) = a.pair(0); return zoom(s, e, a.p(1)) }
        t["zoomArc"] = t["zoom"]
        t["compress"] = Builtin([.pair, .same]) { a, _ in let (s, e) = a.pair(0); return compress(s, e, a.p(1)) }
        t["rot"] = Builtin([.pattern(.int), .same]) { a, _ in rot(a.int(0), a.p(1)) }
        t["euclid"] = Builtin([.pattern(.int), .pattern(.int), .same]) { a, _ in euclid(a.int(0), a.int(1), a.p(2)) }
        t["euclidInv"] = Builtin([.pattern(.int), .pattern(.int), .same]) { a, _ in euclidInv(a.int(0), a.int(1), a.p(2)) }
        t["euclidFull"] = Builtin([.pattern(.int), .pattern(.int), .same, .same]) { a, _ in euclidFull(a.int(0), a.int(1), a.p(2), a.p(3)) }
        t["euclidOff"] = Builtin([.pattern(.int), .pattern(.int), .pattern(.int), .same]) { a, _ in
            euclidOff(a.int(0), a.int(1), a.int(2), a.p(3))
        }
        t["eoff"] = t["euclidOff"]
        // Conditions and layers (a function argument).
        t["every"] = Builtin([.pattern(.int), .function, .same]) { a, _ in every(a.int(0), a.f(1), a.p(2)) }
        t["every'"] = Builtin([.pattern(.int), .pattern(.int), .function, .same]) { a, _ in everyOffset(a.int(0), a.int(1), a.f(2), a.p(3)) }
        t["whenmod"] = Builtin([.pattern(.time), .pattern(.time), .function, .same]) { a, _ in whenmod(a.time(0), a.time(1), a.f(2), a.p(3)) }
        t["within"] = Builtin([.pair, .function, .same]) { a, _ in let (s, e) = a.pair(0); return within(s, e, a.f(1), a.p(2)) }
        t["while"] = Builtin([.pattern(.bool), .function, .same]) { a, _ in whilePattern(a.bool(0), a.f(1), a.p(2)) }
        t["mask"] = Builtin([.pattern(.bool), .same]) { a, _ in mask(a.bool(0), a.p(1)) }
        t["struct"] = Builtin([.pattern(.bool), .same]) { a, _ in structure(a.bool(0), a.p(1)) }
        t["sew"] = Builtin([.pattern(.bool), .same, .same]) { a, _ in sew(a.bool(0), a.p(1), a.p(2)) }
        t["superimpose"] = Builtin([.function, .same]) { a, _ in superimpose(a.f(0), a.p(1)) }
        t["off"] = Builtin([.pattern(.time), .function, .same]) { a, _ in off(a.time(0), a.f(1), a.p(2)) }
        t["jux"] = Builtin([.function, .pattern(.control)], .fixed(.control)) { a, _ in jux(a.f(0), a.p(1)) }
        t["juxBy"] = Builtin([.pattern(.double), .function, .pattern(.control)], .fixed(.control)) { a, _ in juxBy(a.double(0), a.f(1), a.p(2)) }
        t["juxby"] = t["juxBy"]
        t["chunk"] = Builtin([.pattern(.int), .function, .same]) { a, _ in chunk(a.int(0), a.f(1), a.p(2)) }
        t["chunk'"] = Builtin([.pattern(.int), .function, .same]) { a, _ in chunkBack(a.int(0), a.f(1), a.p(2)) }
        t["inside"] = Builtin([.pattern(.time), .function, .same]) { a, _ in inside(a.time(0), a.f(1), a.p(2)) }
        t["outside"] = Builtin([.pattern(.time), .function, .same]) { a, _ in outside(a.time(0), a.f(1), a.p(2)) }
        t["id"] = Builtin([.same]) { a, _ in a.p(0) }
        t["const"] = Builtin([.same, .same]) { a, _ in a.p(0) }
        // Randomness.
        t["sometimesBy"] = Builtin([.pattern(.double), .function, .same]) { a, _ in sometimesBy(a.double(0), a.f(1), a.p(2)) }
        t["sometimesBy'"] = Builtin([.pattern(.double), .function, .same]) { a, _ in sometimesByAfter(a.double(0), a.f(1), a.p(2)) }
        let named: [(String, @Sendable (@escaping @Sendable (P) -> P, P) -> P)] = [
            ("sometimes", sometimes), ("often", often), ("rarely", rarely), ("almostNever", almostNever),
            ("almostAlways", almostAlways), ("always", always), ("never", never), ("somecycles", someCycles),
            ("someCycles", someCycles), ("sometimes'", sometimesAfter), ("often'", oftenAfter), ("rarely'", rarelyAfter),
            ("almostNever'", almostNeverAfter), ("almostAlways'", almostAlwaysAfter),
        ]
        for (name, f) in named { t[name] = Builtin([.function, .same]) { a, _ in f(a.f(0), a.p(1)) } }
        t["somecyclesBy"] = Builtin([.pattern(.double), .function, .same]) { a, _ in someCyclesBy(a.double(0), a.f(1), a.p(2)) }
        t["someCyclesBy"] = t["somecyclesBy"]
        t["degradeBy"] = Builtin([.pattern(.double), .same]) { a, _ in degradeBy(a.double(0), a.p(1)) }
        t["unDegradeBy"] = Builtin([.pattern(.double), .same]) { a, _ in unDegradeBy(a.double(0), a.p(1)) }
        t["degrade"] = Builtin([.same]) { a, _ in degrade(a.p(0)) }
        t["randcat"] = Builtin([.list]) { a, _ in randcat(a.list(0)) }
        t["irand"] = Builtin([.pattern(.int)], .numeric) { a, k in plain(irand(a.int(0)), k) }
        // Scales.
        t["scale"] = Builtin([.pattern(.string), .pattern(.int)], .numeric) { a, k in
            plain(scale(a.p(0).map { $0[plainValueKey]?.string ?? "" }, a.int(1)), k)
        }
        // A cycle's parts rearranged at random.
        t["shuffle"] = Builtin([.pattern(.int), .same]) { a, _ in shuffle(a.int(0), a.p(1)) }
        t["scramble"] = Builtin([.pattern(.int), .same]) { a, _ in scramble(a.int(0), a.p(1)) }
        // Echoes.
        t["stut"] = Builtin([.pattern(.int), .pattern(.double), .pattern(.time), .pattern(.control)], .fixed(.control)) { a, _ in
            stut(a.int(0), a.double(1), a.time(2), a.p(3))
        }
        t["stutWith"] = Builtin([.pattern(.int), .pattern(.time), .function, .same]) { a, _ in stutWith(a.int(0), a.time(1), a.f(2), a.p(3)) }
        t["stut'"] = t["stutWith"]
        t["echoWith"] = t["stutWith"]  // Tidal 1.9's name for it (1.7's `echo` is `stutter 2`)
        // Arpeggios: a chord's notes one after another.
        t["arp"] = Builtin([.pattern(.string), .same]) { a, _ in arp(a.p(0).map { $0[plainValueKey]?.string ?? "" }, a.p(1)) }
        t["arpeggiate"] = Builtin([.same]) { a, _ in arpeggiate(a.p(0)) }
        t["arpWith"] = Builtin([.listFunction, .same]) { a, _ in
            let places = a.listFunction(0)
            return arpWith({ es in places(es.count).map { es[$0] } }, a.p(1))
        }
        t["arpg"] = t["arpeggiate"]
        // Samples cut into parts (Tidal's Sound.Tidal.Control).
        t["chop"] = Builtin([.pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in chop(a.int(0), a.p(1)) }
        t["striate"] = Builtin([.pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in striate(a.int(0), a.p(1)) }
        t["striateBy"] = Builtin([.pattern(.int), .pattern(.double), .pattern(.control)], .fixed(.control)) { a, _ in
            striateBy(a.int(0), a.double(1), a.p(2))
        }
        t["striate'"] = t["striateBy"]
        t["slice"] = Builtin([.pattern(.int), .pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in slice(a.int(0), a.int(1), a.p(2)) }
        t["splice"] = Builtin([.pattern(.int), .pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in splice(a.int(0), a.int(1), a.p(2)) }
        t["randslice"] = Builtin([.pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in randslice(a.int(0), a.p(1)) }
        t["loopAt"] = Builtin([.pattern(.time), .pattern(.control)], .fixed(.control)) { a, _ in loopAt(a.time(0), a.p(1)) }
        // Numbers.
        t["range"] = Builtin([.same, .same, .same], .numeric) { a, k in
            plain(range(a.double(0), a.double(1), a.double(2)), k)
        }
        t["rangex"] = Builtin([.number, .number, .same], .numeric) { a, k in
            plain(rangex(a.number(0).double, a.number(1).double, a.double(2)), k)
        }
        t["perlinWith"] = Builtin([.pattern(.double)], .numeric) { a, k in plain(perlinWith(a.double(0)), k) }
        t["perlin2With"] = Builtin([.pattern(.double), .pattern(.double)], .numeric) { a, k in plain(perlin2With(a.double(0), a.double(1)), k) }
        t["perlin2"] = Builtin([.pattern(.double)], .numeric) { a, k in plain(perlin2(a.double(0)), k) }
        t["smooth"] = Builtin([.pattern(.double)], .numeric) { a, k in plain(smooth(a.double(0)), k) }
        t["quantise"] = Builtin([.number, .same], .numeric) { a, k in plain(quantise(a.number(0).double, a.double(1)), k) }
        t["run"] = Builtin([.same], .numeric) { a, k in plain(run(a.double(0)), k) }
        t["scan"] = Builtin([.same], .numeric) { a, k in plain(scan(a.double(0)), k) }
        // Lists.
        t["stack"] = Builtin([.list]) { a, _ in stack(a.list(0)) }
        t["overlay"] = Builtin([.same, .same]) { a, _ in a.p(0).overlay(a.p(1)) }
        t["<>"] = t["overlay"]
        t["cat"] = Builtin([.list]) { a, _ in slowcat(a.list(0)) }
        t["slowcat"] = t["cat"]
        t["slowCat"] = t["cat"]
        t["fastcat"] = Builtin([.list]) { a, _ in fastcat(a.list(0)) }
        t["fastCat"] = t["fastcat"]
        t["timecat"] = Builtin([.weightedList]) { a, _ in timecat(a.weighted(0)) }
        t["timeCat"] = t["timecat"]
        t["append"] = Builtin([.same, .same]) { a, _ in slowcat([a.p(0), a.p(1)]) }
        t["slowAppend"] = t["append"]
        t["slowappend"] = t["append"]
        t["fastAppend"] = Builtin([.same, .same]) { a, _ in fastcat([a.p(0), a.p(1)]) }
        t["fastappend"] = t["fastAppend"]
        for (name, op, structure) in operators { t[name] = operatorBuiltin(name, op, structure) }
        addListFunctions(&t)
        addStepFunctions(&t)
        addConditionFunctions(&t)
        addControllerInput(&t)
        return t
    }()

    /// Names whose value is a pattern of whichever kind the context asks for.
    static let constants: [String: @Sendable (SourcePosition) -> PolyPattern] = {
        var c: [String: @Sendable (SourcePosition) -> PolyPattern] = [:]
        c["silence"] = { pos in PolyPattern(position: pos, number: nil, text: nil) { _ in .silence } }
        c["brand"] = { pos in
            PolyPattern(position: pos, number: nil, text: nil) { k throws(PatternError) in
                guard k == .bool else {
                    throw PatternError("`brand` is a signal of booleans, where \(k.expectation) is expected", column: pos.column, line: pos.line)
                }
                return bools(brand())
            }
        }
        // Haskell's True and False, where booleans are expected (`cB True "on"`).
        for (name, value) in [("True", true), ("False", false)] {
            c[name] = { pos in
                PolyPattern(position: pos, number: nil, text: nil) { k throws(PatternError) in
                    guard k == .bool else { throw PatternError("`\(name)` is a boolean, where \(k.expectation) is expected", column: pos.column, line: pos.line) }
                    return .pure([plainValueKey: .bool(value)])
                }
            }
        }
        let signals: [(String, @Sendable () -> Pattern<Double>)] = [
            ("sine", sine), ("cosine", cosine), ("saw", saw), ("isaw", isaw), ("tri", tri), ("square", square),
            ("sine2", sine2), ("cosine2", cosine2), ("saw2", saw2), ("isaw2", isaw2), ("tri2", tri2), ("square2", square2),
            ("rand", rand), ("perlin", perlin), ("envL", envL), ("envLR", envLR), ("envEq", envEq), ("envEqR", envEqR),
        ]
        for (name, f) in signals {
            c[name] = { pos in
                PolyPattern(position: pos, number: nil, text: nil) { k throws(PatternError) in
                    guard k.isNumeric else {
                        throw PatternError("`\(name)` is a signal of numbers, where \(k.expectation) is expected", column: pos.column, line: pos.line)
                    }
                    return plain(f(), k)
                }
            }
        }
        return c
    }()

    /// Operator names: what they do and whose structure they keep (Tidal's `|+|`, `|+`, `+|` …;
    /// plain `+` keeps both, as `Num (Pattern a)`).
    static let operators: [(String, NumOp, Structure)] = {
        var out: [(String, NumOp, Structure)] = [("#", .keepRight, .left)]
        let ops: [(String, NumOp)] = [("+", .add), ("-", .sub), ("*", .mul), ("/", .div), ("%", .mod),
                                      ("<", .keepLeft), (">", .keepRight)]
        for (s, op) in ops {
            out.append(("|\(s)|", op, .both))
            out.append(("|\(s)", op, .left))
            out.append(("\(s)|", op, .right))
            if s != "<", s != ">", s != "%" { out.append((s, op, .both)) }
        }
        return out
    }()

    /// An operator as a function of two patterns of one kind.
    // Thread: any
    static func operatorBuiltin(_ name: String, _ op: NumOp, _ structure: Structure) -> Builtin {
        Builtin([.same, .same]) { a, k throws(PatternError) in
            try combine(name, op, structure, k, a.p(0), a.p(1), a.position)
        }
    }

    /// `a op b` on patterns of kind `k`: control maps as Tidal's `Num ValueMap`, plain values
    /// as numbers of that kind.
    // Thread: any
    static func combine(_ name: String, _ op: NumOp, _ structure: Structure, _ k: PatternKind,
                        _ a: P, _ b: P, _ pos: SourcePosition) throws(PatternError) -> P {
        if k == .control { return numericOp(op, structure, a, b) }
        if op != .keepLeft, op != .keepRight, !k.isNumeric {
            throw PatternError("`\(name)` needs numbers, not \(k.expectation)", column: pos.column, line: pos.line)
        }
        return app(structure, a, b) { x, y in
            guard let l = x[plainValueKey], let r = y[plainValueKey] else { return x }
            if case let .rational(s) = l, case let .rational(t) = r {
                switch op {
                case .add: return [plainValueKey: .rational(s + t)]
                case .sub: return [plainValueKey: .rational(s - t)]
                case .mul: return [plainValueKey: .rational(s * t)]
                case .div: return [plainValueKey: .rational(s / t)]
                case .mod: return [plainValueKey: .rational(s.mod(t))]
                case .keepLeft: return x
                case .keepRight: return y
                case .pow: return [plainValueKey: .rational(Time(op.apply(s.double, t.double)))]
                }
            }
            if k == .int, op == .div, case let .int(i) = l, case let .int(j) = r {
                return [plainValueKey: .int(j == 0 ? 0 : Int(Double(i) / Double(j)))]
            }
            return [plainValueKey: op.apply(l, r)]
        }
    }
}
