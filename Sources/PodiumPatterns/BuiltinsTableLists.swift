/// The built-ins that take lists, booleans and whole cycles (`Lists.swift`, `Booleans.swift`,
/// `CycleFunctions.swift`, `ControlFunctions.swift`), added to `Builtins.table`.
extension Builtins {
    // Thread: any
    static func bools(_ p: Pattern<Bool>) -> P { p.map { [plainValueKey: .bool($0)] } }

    // Thread: any (building the table, once)
    static func addListFunctions(_ t: inout [String: Builtin]) {
        // Spreading a function over values, layering and picking functions.
        t["spread"] = Builtin([.spreader, .spreadValues, .same]) { a, _ in spread(a.applied(1)) }
        t["slowspread"] = t["spread"]
        t["fastspread"] = Builtin([.spreader, .spreadValues, .same]) { a, _ in fastspread(a.applied(1)) }
        t["spreadChoose"] = Builtin([.spreader, .spreadValues, .same]) { a, _ in spreadChoose(a.applied(1)) }
        t["spreadr"] = t["spreadChoose"]
        t["spreadf"] = Builtin([.functions, .same]) { a, _ in let p = a.p(1); return spread(a.fs(0).map { $0(p) }) }
        t["layer"] = Builtin([.functions, .same]) { a, _ in layer(a.fs(0), a.p(1)) }
        t["select"] = Builtin([.pattern(.double), .list]) { a, _ in select(a.double(0), a.list(1)) }
        t["selectF"] = Builtin([.pattern(.double), .functions, .same]) { a, _ in selectF(a.double(0), a.fs(1), a.p(2)) }
        t["pickF"] = Builtin([.pattern(.int), .functions, .same]) { a, _ in pickF(a.int(0), a.fs(1), a.p(2)) }
        t["squeeze"] = Builtin([.pattern(.int), .list]) { a, _ in squeeze(a.int(0), a.list(1)) }
        t["foldEvery"] = Builtin([.numbers, .function, .same]) { a, _ in foldEvery(a.ints(0), a.f(1), a.p(2)) }
        t["flatpat"] = Builtin([.list]) { a, _ in stack(a.list(0)) }
        t["fromList"] = Builtin([.values]) { a, _ in slowcat(a.plainValues(0).map { P.pure($0) }) }
        t["fastFromList"] = Builtin([.values]) { a, _ in fastcat(a.plainValues(0).map { P.pure($0) }) }
        t["listToPat"] = t["fastFromList"]
        t["swap"] = Builtin([.valuePairs, .pattern(.string)]) { a, _ in swap(a.valuePairs(0), a.p(1).map { Builtins.keyText($0[plainValueKey]) }) }
        t["markovPat"] = Builtin([.pattern(.int), .pattern(.int), .matrix], .numeric) { a, k in
            plain(markovPat(a.int(0), a.int(1), a.matrix(2)).map(Double.init), k)
        }
        t["fit"] = Builtin([.pattern(.int), .values, .pattern(.int)]) { a, _ in fit(a.int(0), a.plainValues(1), a.int(2)) }
        t["fit'"] = Builtin([.pattern(.time), .number, .pattern(.int), .pattern(.int), .same]) { a, _ in
            fitParts(a.time(0), Int(clamping: a.number(1).floorInt), a.int(2), a.int(3), a.p(4))
        }
        // Random choices from lists.
        t["choose"] = Builtin([.values]) { a, _ in choose(a.plainValues(0)) }
        t["chooseBy"] = Builtin([.pattern(.double), .values]) { a, _ in chooseBy(a.double(0), a.plainValues(1)) }
        t["cycleChoose"] = Builtin([.values]) { a, _ in cycleChoose(a.plainValues(0)) }
        t["wchoose"] = Builtin([.weightedValues]) { a, _ in wchoose(a.weightedValues(0)) }
        t["wchooseBy"] = Builtin([.pattern(.double), .weightedValues]) { a, _ in wchooseBy(a.double(0), a.weightedValues(1)) }
        t["wrandcat"] = Builtin([.patternWeights]) { a, _ in wrandcat(a.patternWeights(0)) }
        t["brandBy"] = Builtin([.pattern(.double)], .fixed(.bool)) { a, _ in bools(brandBy(a.double(0))) }
        t["stripe"] = Builtin([.pattern(.int), .same]) { a, _ in stripe(a.int(0), a.p(1)) }
        // Scales from a list of steps.
        t["toScale"] = Builtin([.numbers, .pattern(.int)], .numeric) { a, k in
            plain(toScale(12, a.numbers(0).map(\.double), a.int(1)), k)
        }
        t["toScale'"] = Builtin([.number, .numbers, .pattern(.int)], .numeric) { a, k in
            plain(toScale(Int(clamping: a.number(0).floorInt), a.numbers(1).map(\.double), a.int(2)), k)
        }
        // Whole cycles and their shares.
        t["repeatCycles"] = Builtin([.pattern(.int), .same]) { a, _ in repeatCycles(a.int(0), a.p(1)) }
        t["fastRepeatCycles"] = Builtin([.number, .same]) { a, _ in _repeatCycles(Int(clamping: a.number(0).floorInt), a.p(1)) }
        t["fastSqueeze"] = Builtin([.pattern(.time), .same]) { a, _ in fastSqueeze(a.time(0), a.p(1)) }
        t["slowSqueeze"] = Builtin([.pattern(.time), .same]) { a, _ in slowSqueeze(a.time(0), a.p(1)) }
        t["spaceOut"] = Builtin([.numbers, .same]) { a, _ in spaceOut(a.numbers(0), a.p(1)) }
        t["wedge"] = Builtin([.pattern(.time), .same, .same]) { a, _ in wedge(a.time(0), a.p(1), a.p(2)) }
        // Booleans.
        t["inv"] = Builtin([.pattern(.bool)], .fixed(.bool)) { a, _ in bools(inv(a.bool(0))) }
        t["stitch"] = Builtin([.pattern(.bool), .same, .same]) { a, _ in stitch(a.bool(0), a.p(1), a.p(2)) }
        t["binaryN"] = Builtin([.pattern(.int), .pattern(.int)], .fixed(.bool)) { a, _ in bools(binaryN(a.int(0), a.int(1))) }
        t["binary"] = Builtin([.pattern(.int)], .fixed(.bool)) { a, _ in bools(binary(a.int(0))) }
        t["ascii"] = Builtin([.pattern(.string)], .fixed(.bool)) { a, _ in
            bools(ascii(a.p(0).map { $0[plainValueKey]?.string ?? "" }))
        }
        t["necklace"] = Builtin([.number, .numbers], .fixed(.bool)) { a, _ in bools(necklace(a.number(0), a.ints(1))) }
        t["mono"] = Builtin([.same]) { a, _ in mono(a.p(0)) }
        // Copies shifted in time (Tidal 1.7's `stutter`; `echo`, `triple`, `quad`, `double`).
        t["stutter"] = Builtin([.number, .number, .same]) { a, _ throws(PatternError) in
            try stutter(Int(clamping: a.number(0).floorInt), a.number(1), a.p(2), a.position)
        }
        for (name, n) in [("echo", 2), ("double", 2), ("triple", 3), ("quad", 4)] {
            t[name] = Builtin([.number, .same]) { a, _ throws(PatternError) in try stutter(n, a.number(0), a.p(1), a.position) }
        }
        // Shares of cycles: pressed, bitten, chewed, looped, zoomed.
        t["press"] = Builtin([.same]) { a, _ in _pressBy(Time(1, 2), a.p(0)) }
        t["pressBy"] = Builtin([.pattern(.time), .same]) { a, _ in pressBy(a.time(0), a.p(1)) }
        t["bite"] = Builtin([.pattern(.int), .pattern(.int), .same]) { a, _ in bite(a.int(0), a.int(1), a.p(2)) }
        t["chew"] = Builtin([.pattern(.int), .pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in chew(a.int(0), a.int(1), a.p(2)) }
        t["loopFirst"] = Builtin([.same]) { a, _ in loopFirst(a.p(0)) }
        t["timeLoop"] = Builtin([.pattern(.time), .same]) { a, _ in timeLoop(a.time(0), a.p(1)) }
        t["within'"] = Builtin([.pair, .function, .same]) { a, _ in let (s, e) = a.pair(0); return withinZoomed(s, e, a.f(1), a.p(2)) }
        t["runWith"] = Builtin([.number, .function, .same]) { a, _ in _chunk(Int(clamping: a.number(0).floorInt), a.f(1), a.p(2)) }
        t["plyWith"] = Builtin([.pattern(.double), .function, .same]) { a, _ in plyWith(a.double(0), a.f(1), a.p(2)) }
        t["offadd"] = Builtin([.pattern(.time), .same, .same], .numeric) { a, k throws(PatternError) in
            let n = a.p(1)
            return off(a.time(0), { x in (try? combine("+", .add, .both, k, x, n, a.position)) ?? .silence }, a.p(2))
        }
        t["euclidOffBool"] = Builtin([.pattern(.int), .pattern(.int), .pattern(.int), .pattern(.bool)], .fixed(.bool)) { a, _ in
            bools(tParam3({ k, n, r, p in _euclidOffBool(k, n, r, p) }, a.int(0), a.int(1), a.int(2), a.bool(3)))
        }
        t["randrun"] = Builtin([.number], .numeric) { a, k in plain(randrun(Int(clamping: a.number(0).floorInt)).map(Double.init), k) }
        t["slowstripe"] = Builtin([.pattern(.int), .same]) { a, _ in
            let n = a.int(0)
            return slow(n.map { Time(Int64($0)) }, stripe(n, a.p(1)))
        }
        t["qfloor"] = Builtin([.number, .same], .numeric) { a, k in
            let n = a.number(0).double
            return plain(a.double(1).map { ($0 * n).rounded(.down) / n }, k)
        }
        t["qceiling"] = Builtin([.number, .same], .numeric) { a, k in
            let n = a.number(0).double
            return plain(a.double(1).map { ($0 * n).rounded(.up) / n }, k)
        }
        t["qround"] = t["quantise"]
        // Patterns over longer spans: at set times, by name, woven; fades.
        t["seqP"] = Builtin([.triples]) { a, _ in seqP(a.triples(0)) }
        t["seqPLoop"] = Builtin([.triples]) { a, _ in seqPLoop(a.triples(0)) }
        t["inhabit"] = Builtin([.namedPatterns, .pattern(.string)]) { a, _ in
            inhabit(a.namedPatterns(0), a.p(1).map { $0[plainValueKey]?.string ?? "" })
        }
        t["ur"] = Builtin([.number, .pattern(.string), .namedPatterns, .namedFunctions]) { a, _ in
            ur(a.number(0), a.p(1).map { $0[plainValueKey]?.string ?? "" }, a.namedPatterns(2), a.namedFunctions(3))
        }
        t["weaveWith"] = Builtin([.number, .same, .functions]) { a, _ in weaveWith(a.number(0), a.p(1), a.fs(2)) }
        t["weave'"] = t["weaveWith"]
        t["weave"] = Builtin([.number, .pattern(.control), .list], .fixed(.control)) { a, _ in weave(a.number(0), a.p(1), a.list(2)) }
        t["interlace"] = Builtin([.pattern(.control), .pattern(.control)], .fixed(.control)) { a, _ in interlace(a.p(0), a.p(1)) }
        t["fadeOut"] = Builtin([.number, .same]) { a, _ in fadeOut(a.number(0), a.p(1)) }
        t["fadeIn"] = Builtin([.number, .same]) { a, _ in fadeIn(a.number(0), a.p(1)) }
        t["fadeOutFrom"] = Builtin([.number, .number, .same]) { a, _ in fadeOutFrom(a.number(0), a.number(1), a.p(2)) }
        t["fadeInFrom"] = Builtin([.number, .number, .same]) { a, _ in fadeInFrom(a.number(0), a.number(1), a.p(2)) }
        // Restarting from the cycle the statement was evaluated at (Tidal's triggers: the cycle is
        // the `_t_` control Tidal sets when a slot is given its pattern; the key is not used).
        // (Without a player, cycle 0: the pattern as it is, as in Tidal without `_t_`.)
        func triggered(_ offset: @escaping @Sendable (Time) -> Time) -> Builtin {
            Builtin([.key, .same]) { a, _ in a.trigger.map { $0.shifted(a.p(1), offset) } ?? a.p(1) }
        }
        t["trigger"] = triggered { $0 }
        t["qtrigger"] = triggered { Time($0.ceilInt) }
        t["ctrigger"] = t["qtrigger"]
        t["qt"] = t["qtrigger"]
        t["ftrigger"] = triggered { $0.sam }
        // Haskell's `round`: halves to even.
        t["triggerWith"] = Builtin([.numberFunction, .key, .same]) { a, _ in
            let f = a.numberFunction(0)
            return a.trigger.map { $0.shifted(a.p(2)) { Time(f($0)) } } ?? a.p(2)
        }
        t["rtrigger"] = triggered { Time(Int64($0.double.rounded(.toNearestOrEven))) }
        // `ftrigger` of the pattern with its cycles up to 0 silent: it starts a cycle after.
        t["reset"] = Builtin([.key, .same]) { a, _ in
            let later = when({ $0 <= 0 }, { _ in .silence }, a.p(1))
            return a.trigger.map { $0.shifted(later) { $0.sam } } ?? later
        }
        // Control patterns: functions across the stereo field, functions on matching events.
        t["jux'"] = Builtin([.functions, .pattern(.control)], .fixed(.control)) { a, _ in juxList(a.fs(0), a.p(1)) }
        t["jux4"] = Builtin([.function, .pattern(.control)], .fixed(.control)) { a, _ in jux4(a.f(0), a.p(1)) }
        t["juxcut"] = Builtin([.function, .pattern(.control)], .fixed(.control)) { a, _ in juxcut(a.f(0), a.p(1)) }
        t["juxcut'"] = Builtin([.functions, .pattern(.control)], .fixed(.control)) { a, _ in juxcutList(a.fs(0), a.p(1)) }
        t["fix"] = Builtin([.function, .pattern(.control), .pattern(.control)], .fixed(.control)) { a, _ in fix(a.f(0), a.p(1), a.p(2)) }
        t["unfix"] = Builtin([.function, .pattern(.control), .pattern(.control)], .fixed(.control)) { a, _ in unfix(a.f(0), a.p(1), a.p(2)) }
        t["ghost"] = Builtin([.pattern(.control)], .fixed(.control)) { a, _ in ghostWith(Time(1, 8), a.p(0)) }
        t["ghost'"] = Builtin([.number, .pattern(.control)], .fixed(.control)) { a, _ in ghostWith(a.number(0), a.p(1)) }
        t["ghost''"] = Builtin([.number, .function, .same]) { a, _ in ghostly(a.number(0), a.f(1), a.p(2)) }
        t["ghostWith"] = t["ghost''"]  // Tidal 1.9's name for it
        t["spin"] = Builtin([.pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in spin(a.int(0), a.p(1)) }
        t["stackwith"] = Builtin([.pattern(.control), .list], .fixed(.control)) { a, _ in stackwith(a.p(0), a.list(1)) }
        t["grain"] = Builtin([.pattern(.double), .pattern(.double)], .fixed(.control)) { a, _ in grain(a.double(0), a.double(1)) }
        t["contrast"] = Builtin([.function, .function, .pattern(.control), .pattern(.control)], .fixed(.control)) { a, _ in
            contrast(a.f(0), a.f(1), a.p(2), a.p(3))
        }
        t["contrastBy"] = Builtin([.valueTest, .function, .function, .pattern(.control), .pattern(.control)], .fixed(.control)) { a, _ in
            contrastBy(a.valueTest(0), a.f(1), a.f(2), a.p(3), a.p(4))
        }
        t["contrastRange"] = Builtin([.function, .function, .ranges, .pattern(.control)], .fixed(.control)) { a, _ in
            contrastRange(a.f(0), a.f(1), a.ranges(2), a.p(3))
        }
        t["fixRange"] = Builtin([.function, .ranges, .pattern(.control)], .fixed(.control)) { a, _ in
            contrastRange(a.f(0), { $0 }, a.ranges(1), a.p(2))
        }
        t["unfixRange"] = Builtin([.function, .ranges, .pattern(.control)], .fixed(.control)) { a, _ in
            contrastRange({ $0 }, a.f(0), a.ranges(1), a.p(2))
        }
    }

    /// Tidal's `stutter`: `n` copies, each `t` later than the one before; at most 1,024.
    // Thread: any
    static func stutter(_ n: Int, _ t: Time, _ p: P, _ pos: SourcePosition) throws(PatternError) -> P {
        guard n <= 1024 else { throw PatternError("`stutter` makes at most 1024 copies, not \(n)", column: pos.column, line: pos.line) }
        return stack((0..<max(0, n)).map { p.rotR(t * Time(Int64($0))) })
    }
}
