/// Tidal 1.7.10's functions that choose, cycle by cycle, between what functions make of a
/// pattern (`UI`'s `ifp`, `snowball`, `spread'`; `Core`'s `when` and `whenT` are in Core.swift),
/// and Lindenmayer systems (`lindenmayer`) for the step sequencer.

// Thread: any (all of this file)

/// `f1 p` in the cycles whose number `test` accepts, `f2 p` in the others (Tidal's `ifp`).
public func ifp<T>(_ test: @escaping @Sendable (Time) -> Bool, _ f1: @escaping @Sendable (Pattern<T>) -> Pattern<T>,
                   _ f2: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    let yes = f1(p).query, no = f2(p).query
    return Pattern { a in a.cycles.flatMap { c in test(c.start.sam) ? yes(c) : no(c) } }
}

/// Each cycle squeezed into the part of a cycle from `s` to `e` (Tidal's `compressTo`: `s`'s
/// position in its cycle, `e` counted from `s`'s cycle).
public func compressTo<T>(_ s: Time, _ e: Time, _ p: Pattern<T>) -> Pattern<T> {
    compressArc(Arc(s - s.sam, e - s.sam), p)
}

/// `depth` cycles, one after another: the pattern, then each time it is combined with `f`
/// applied once more (Tidal's `snowball`: `cat $ take depth $ scanl combine p $ drop 1 $ iterate f p`).
public func snowball<T>(_ depth: Int, _ combine: @Sendable (Pattern<T>, Pattern<T>) -> Pattern<T>,
                        _ f: @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    guard depth > 0 else { return .silence }
    var layers = [p]
    var applied = p, sum = p
    for _ in 1..<min(depth, 4096) {
        applied = f(applied)
        sum = combine(sum, applied)
        layers.append(sum)
    }
    return slowcat(layers)
}

/// `f v pat` for each value `v` of `values`, bound as Tidal's monad binds (Tidal's `spread'`:
/// `values >>= \v -> f v pat`; an event's whole is where the value's and the result's meet).
public func spreadBind<A: Sendable, T>(_ f: @escaping @Sendable (A) -> Pattern<T>, _ values: Pattern<A>) -> Pattern<T> {
    Pattern<Pattern<T>>.unwrap(values.map(f))
}

/// The `n`th generation of a Lindenmayer system over characters (Tidal's `lindenmayer`): `rules`
/// as "a:ab,b:a", each character replaced by its rule's right side (kept where it has none).
/// Each generation is kept to its first `limit` characters (a set takes 16 or 64 steps, not
/// millions): the prefix of the next generation comes from the prefix of this one, so it is
/// exact unless a rule's right side is empty.
public func lindenmayer(_ n: Int, _ rules: String, _ start: String, limit: Int = 4096) -> Result<String, PatternError> {
    var table: [Character: [Character]] = [:]
    for rule in rules.split(separator: ",", omittingEmptySubsequences: false) {
        guard let colon = rule.firstIndex(of: ":") else {
            return .failure(PatternError("`lindenmayer`'s rule `\(rule)` has no `:` (rules are written \"a:ab,b:a\")", column: 1))
        }
        // Tidal's parser drops every ':' of a rule and splits where the first was.
        let left = rule[..<colon], right = rule[rule.index(after: colon)...].filter { $0 != ":" }
        guard let c = left.first else { return .failure(PatternError("`lindenmayer`'s rule `\(rule)` names no character before `:`", column: 1)) }
        if table[c] == nil { table[c] = Array(right) }
    }
    var text = Array(start.prefix(limit))
    for _ in 0..<max(n, 0) {
        var next: [Character] = []
        next.reserveCapacity(min(limit, text.count * 2))
        for c in text {
            if let r = table[c] { next += r } else { next.append(c) }
            if next.count >= limit { next.removeLast(next.count - limit); break }
        }
        if next == text { break }
        text = next
    }
    return .success(String(text))
}
