/// Tidal 1.7.10's step sequencing and sample names (`Sound.Tidal.UI`): `step "bd" "x~x1"`,
/// `step'`, and `samples "bd sn" "<0 3>"` (names with their index, `bd:3`).

// Thread: any (all of this file)

/// One sound per character, fast: `x` the name, a digit the name with that index (`bd:2`),
/// anything else a rest (Tidal's `step`).
public func step(_ name: String, _ steps: String) -> Pattern<String> {
    fastcat(steps.map { c -> Pattern<String> in
        if c == "x" { return .pure(name) }
        if let d = c.wholeNumberValue, c.isASCII { return .pure(name + ":" + String(d)) }
        return .silence
    })
}

/// `step` for each (name, steps) pair, together (Tidal's `steps`): `steps [("bd", "x~x~"), ("sn", "~x")]`.
public func steps(_ pairs: [(String, String)]) -> Pattern<String> {
    stack(pairs.map { step($0.0, $0.1) })
}

/// `step` with a list of names: `x` the first, a digit the one at that index (Tidal's `step'`;
/// an index past the list is a rest where Tidal stops with an error).
public func stepNamed(_ names: [String], _ steps: String) -> Pattern<String> {
    fastcat(steps.map { c -> Pattern<String> in
        if c == "x", let first = names.first { return .pure(first) }
        if let d = c.wholeNumberValue, c.isASCII, d < names.count { return .pure(names[d]) }
        return .silence
    })
}

/// Names with an index (`bd` and 3 make `bd:3`), the structure of both (Tidal's `samples`,
/// `pick <$> names <*> indices`).
public func samples(_ names: Pattern<String>, _ indices: Pattern<Int>) -> Pattern<String> {
    appBoth(names, indices) { $0 + ":" + String($1) }
}
