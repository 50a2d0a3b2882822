/// The built-ins for step sequences and sample names (`Steps.swift`), patterns inside others'
/// events (`Substructure.swift`), samples cut with gaps or smashed (`SampleSlicing.swift`),
/// rhythms within rhythms (`Euclid.swift`), weaving (`tabby`) and shares of steps (`permstep`),
/// added to `Builtins.table`.
extension Builtins {
    // Thread: any
    static func strings(_ p: Pattern<String>) -> P { p.map { [plainValueKey: .string($0)] } }
    static func string(_ v: ControlMap) -> String { v[plainValueKey]?.string ?? "" }
    static func whole(_ t: Time) -> Int { Int(clamping: t.floorInt) }

    // Thread: any (building the table, once)
    static func addStepFunctions(_ t: inout [String: Builtin]) {
        t["step"] = Builtin([.text, .text], .fixed(.string)) { a, _ in strings(step(a.text(0), a.text(1))) }
        t["steps"] = Builtin([.textPairs], .fixed(.string)) { a, _ in strings(steps(a.textPairs(0))) }
        t["step'"] = Builtin([.values, .text], .fixed(.string)) { a, _ in strings(stepNamed(a.plainValues(0).map(string), a.text(1))) }
        t["samples"] = Builtin([.pattern(.string), .pattern(.int)], .fixed(.string)) { a, _ in
            strings(samples(a.p(0).map(string), a.int(1)))
        }
        t["samples'"] = t["samples"]  // `flip pick <$> p' <*> p`: the same events
        // `pick :: String -> Int -> String`, met as `pick <$> "bd sn" <*> "0 1"` or
        // `fmap (pick "drum") "0 1 2"`: over patterns, `samples` (both structures, as `<*>`).
        t["pick"] = t["samples"]
        t["substruct"] = Builtin([.pattern(.bool), .same]) { a, _ in substruct(a.bool(0), a.p(1)) }
        t["substruct'"] = Builtin([.pattern(.int), .same]) { a, _ in substructShifted(a.int(0), a.p(1)) }
        t["stretch"] = Builtin([.same]) { a, _ in stretch(a.p(0)) }
        t["soak"] = Builtin([.number, .function, .same]) { a, _ in soak(whole(a.number(0)), a.f(1), a.p(2)) }
        t["gap"] = Builtin([.pattern(.int), .pattern(.control)], .fixed(.control)) { a, _ in gap(a.int(0), a.p(1)) }
        t["smash"] = Builtin([.pattern(.int), .numbers, .pattern(.control)], .fixed(.control)) { a, _ in smash(a.int(0), a.numbers(1), a.p(2)) }
        t["smash'"] = Builtin([.number, .numbers, .pattern(.control)], .fixed(.control)) { a, _ in
            smashChop(whole(a.number(0)), a.numbers(1), a.p(2))
        }
        t["distrib"] = Builtin([.numbers, .same]) { a, _ in distrib(a.ints(0), a.p(1)) }
        t["degradeOverBy"] = Builtin([.number, .pattern(.double), .same]) { a, _ in degradeOverBy(whole(a.number(0)), a.double(1), a.p(2)) }
        t["tabby"] = Builtin([.number, .same, .same]) { a, _ in tabby(whole(a.number(0)), a.p(1), a.p(2)) }
        t["permstep"] = Builtin([.number, .values, .pattern(.double)]) { a, _ in permstep(whole(a.number(0)), a.plainValues(1), a.double(2)) }
        t["densityGap"] = Builtin([.pattern(.time), .same]) { a, _ in fastGap(a.time(0), a.p(1)) }
    }
}
