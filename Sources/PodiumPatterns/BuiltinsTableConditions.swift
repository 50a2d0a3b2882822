/// The table's conditional functions (`when`, `whenT`, `ifp`, `snowball`, `spread'`,
/// `compressTo`, `withinArc`, `fromMaybes`) and the tests of numbers they are given: Haskell's
/// comparisons, `even`, `odd`, `not`, `elem`, `mod`, used in sections (`(> 3)`,
/// `((== 0) . (`mod` 4))`, `(`elem` [1, 3])`).
extension Builtins {
    // Thread: any
    static func addConditionFunctions(_ t: inout [String: Builtin]) {
        t["when"] = Builtin([.predicate, .function, .same]) { a, _ in let test = a.predicate(0); return when({ test(Time($0)) }, a.f(1), a.p(2)) }
        t["whenT"] = Builtin([.predicate, .function, .same]) { a, _ in whenT(a.predicate(0), a.f(1), a.p(2)) }
        t["ifp"] = Builtin([.predicate, .function, .function, .same]) { a, _ in ifp(a.predicate(0), a.f(1), a.f(2), a.p(3)) }
        t["compressTo"] = Builtin([.pair, .same]) { a, _ in let (s, e) = a.pair(0); return compressTo(s, e, a.p(1)) }
        t["withinArc"] = t["within"]
        t["snowball"] = Builtin([.number, .combiner, .function, .same]) { a, _ in snowball(whole(a.number(0)), a.combiner(1), a.f(2), a.p(3)) }
        t["spread'"] = Builtin([.spreader, .bindValues, .same]) { a, _ in a.p(1) }
        // `fromMaybes [Just 0, Nothing, Just 3]`: `Just x` is `x`, `Nothing` silence (the evaluator's).
        t["fromMaybes"] = Builtin([.list]) { a, _ in fastcat(a.list(0)) }
        t["xorwise"] = Builtin([.pattern(.int)], .fixed(.int)) { a, _ in a.int(0).map { [plainValueKey: .int(TidalRandom.xorwise($0))] } }
        // Haskell's comparisons and tests of numbers: booleans, the structure from both sides.
        let comparisons: [(String, @Sendable (Time, Time) -> Bool)] = [
            (">", { $0 > $1 }), ("<", { $0 < $1 }), (">=", { $0 >= $1 }), ("<=", { $0 <= $1 }), ("==", { $0 == $1 }), ("/=", { $0 != $1 }),
        ]
        for (name, test) in comparisons {
            t[name] = Builtin([.pattern(.time), .pattern(.time)], .fixed(.bool)) { a, _ in bools(appBoth(a.time(0), a.time(1), test)) }
        }
        t["even"] = Builtin([.pattern(.int)], .fixed(.bool)) { a, _ in bools(a.int(0).map { $0 % 2 == 0 }) }
        t["odd"] = Builtin([.pattern(.int)], .fixed(.bool)) { a, _ in bools(a.int(0).map { $0 % 2 != 0 }) }
        t["not"] = Builtin([.pattern(.bool)], .fixed(.bool)) { a, _ in bools(a.bool(0).map { !$0 }) }
        t["elem"] = Builtin([.pattern(.time), .numbers], .fixed(.bool)) { a, _ in let xs = a.numbers(1); return bools(a.time(0).map { xs.contains($0) }) }
        // A time's place in its cycle, and its cycle's start (`whenT ((< 0.5) . cyclePos)`).
        t["cyclePos"] = Builtin([.pattern(.time)], .fixed(.time)) { a, _ in a.time(0).map { [plainValueKey: .rational($0 - $0.sam)] } }
        t["sam"] = Builtin([.pattern(.time)], .fixed(.time)) { a, _ in a.time(0).map { [plainValueKey: .rational($0.sam)] } }
        // A signal of a function of time (`sig fromRational`), and Haskell's number conversions,
        // which change nothing here (every number is exact until it is played).
        t["sig"] = Builtin([.numberFunction], .numeric) { a, k in plain(sig(a.numberFunction(0)), k) }
        for name in ["fromRational", "toRational", "fromIntegral", "realToFrac"] { t[name] = Builtin([.same], .numeric) { a, _ in a.p(0) } }
        // Haskell's roundings to whole numbers (`triggerWith (fromIntegral . floor)`); `round`
        // takes a half to the even neighbour, as Haskell's does.
        let roundings: [(String, @Sendable (Time) -> Int64)] = [
            ("floor", { $0.floorInt }), ("ceiling", { $0.ceilInt }), ("truncate", { $0 < .zero ? $0.ceilInt : $0.floorInt }),
            ("round", { t in
                let f = t.floorInt, rest = t - Time(f)
                if rest < Time(1, 2) { return f }
                if rest > Time(1, 2) { return f &+ 1 }
                return f % 2 == 0 ? f : f &+ 1
            }),
        ]
        for (name, rounded) in roundings {
            t[name] = Builtin([.pattern(.time)], .fixed(.int)) { a, _ in a.time(0).map { [plainValueKey: .int(Int(clamping: rounded($0)))] } }
        }
        t["mod"] = operatorBuiltin("mod", .mod, .both)
        t["mod'"] = t["mod"]
    }
}
