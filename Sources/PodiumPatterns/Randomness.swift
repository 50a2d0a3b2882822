/// Tidal 1.7.10's random transformations (`Sound.Tidal.UI`): degrading, `sometimesBy` and its
/// named variants, `someCyclesBy`, and patterned `irand`. Every random number comes from
/// `TidalRandom` at the same times Tidal samples it, so the same events drop as in Tidal.

// Thread: any (all of this file)

/// Tidal's `timeToRand` on a `Double` (as `someCyclesBy` and `perlin` call it): the seed from
/// the double's own arithmetic, which can differ from the exact rational's in the last bit.
public func timeToRandDouble(_ x: Double) -> Double {
    let y = x / 300
    let frac = y - y.rounded(.towardZero)
    let seed = Int((frac * 536870912).rounded(.towardZero))
    return TidalRandom.intSeedToRand(TidalRandom.xorwise(seed))
}

/// Drops each event with probability `x`, patterned (Tidal's `degradeBy`).
public func degradeBy<T>(_ x: Pattern<Double>, _ p: Pattern<T>) -> Pattern<T> { tParam(_degradeBy, x, p) }

/// Keeps exactly the events `degradeBy` drops (Tidal's `unDegradeBy`).
public func unDegradeBy<T>(_ x: Pattern<Double>, _ p: Pattern<T>) -> Pattern<T> { tParam(_unDegradeBy, x, p) }

/// Drops half the events at random (Tidal's `degrade`).
public func degrade<T>(_ p: Pattern<T>) -> Pattern<T> { _degradeBy(0.5, p) }

/// `f` applied to a random share `x` of the events (Tidal's `sometimesBy`).
public func sometimesBy<T>(_ x: Pattern<Double>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    degradeBy(x, p).overlay(f(unDegradeBy(x, p)))
}

/// Like `sometimesBy`, choosing events after `f` is applied (Tidal's `sometimesBy'`).
public func sometimesByAfter<T>(_ x: Pattern<Double>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    degradeBy(x, p).overlay(unDegradeBy(x, f(p)))
}

/// Tidal's `sometimes`: `sometimesBy 0.5`.
public func sometimes<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.5), f, p) }
/// Tidal's `often`: `sometimesBy 0.75`.
public func often<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.75), f, p) }
/// Tidal's `rarely`: `sometimesBy 0.25`.
public func rarely<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.25), f, p) }
/// Tidal's `almostNever`: `sometimesBy 0.1`.
public func almostNever<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.1), f, p) }
/// Tidal's `almostAlways`: `sometimesBy 0.9`.
public func almostAlways<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.9), f, p) }
/// Tidal's `always`: `f` applied.
public func always<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { f(p) }
/// Tidal's `never`: the pattern unchanged.
public func never<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { p }

/// Tidal's `sometimes'`, `often'`, `rarely'`, `almostAlways'` (`sometimesBy'` at 0.5, 0.75,
/// 0.25, 0.9); `almostNever'` is `sometimesBy 0.1` in 1.7.10, unprimed, and so here.
public func sometimesAfter<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesByAfter(.pure(0.5), f, p) }
public func oftenAfter<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesByAfter(.pure(0.75), f, p) }
public func rarelyAfter<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesByAfter(.pure(0.25), f, p) }
public func almostNeverAfter<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesBy(.pure(0.1), f, p) }
public func almostAlwaysAfter<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { sometimesByAfter(.pure(0.9), f, p) }

/// `f` applied to whole cycles, each with probability `x` (Tidal's `_someCyclesBy`).
public func _someCyclesBy<T>(_ x: Double, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    when({ timeToRandDouble(Double($0)) < x }, f, p)
}

/// Tidal's `someCyclesBy` (also spelt `somecyclesBy`).
public func someCyclesBy<T>(_ x: Pattern<Double>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(x.map { _someCyclesBy($0, f, p) })
}

/// Tidal's `somecyclesBy`, the same as `someCyclesBy`.
public func somecyclesBy<T>(_ x: Pattern<Double>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { someCyclesBy(x, f, p) }

/// Tidal's `someCycles`: `someCyclesBy 0.5`.
public func someCycles<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> { someCyclesBy(.pure(0.5), f, p) }

/// Random whole numbers in `[0, n)`, `n` patterned (Tidal's `irand`, a bind).
public func irand(_ n: Pattern<Int>) -> Pattern<Double> { bind(n) { _irand($0) } }

/// True with probability `x`, a continuous signal (Tidal's `_brandBy`).
public func _brandBy(_ x: Double) -> Pattern<Bool> { rand().map { $0 < x } }

/// Tidal's `brandBy`, patterned.
public func brandBy(_ x: Pattern<Double>) -> Pattern<Bool> { innerJoin(x.map { _brandBy($0) }) }

/// Tidal's `brand`: true half the time.
public func brand() -> Pattern<Bool> { _brandBy(0.5) }

/// One of `xs` at random (Tidal's `choose`: `chooseBy rand`).
public func choose<T: Sendable>(_ xs: [T]) -> Pattern<T> { chooseBy(rand(), xs) }

/// One of the patterns each cycle, chosen at random (Tidal's `randcat`).
public func randcat<T>(_ ps: [Pattern<T>]) -> Pattern<T> {
    let shifts = _segment(1, _irand(ps.count).map { Time(Int64($0)) })
    let cat = slowcat(ps)
    return bind(shifts) { cat.rotL($0) }
}

/// Each cycle cut into `n` parts of random lengths (1, 2 or 3 shares each, from `choose`
/// sampled at the middle of the cycle plus `i/n`), numbered 0 to n - 1 (Tidal's `randStruct`).
public func randStruct(_ n: Int) -> Pattern<Int> {
    Pattern<Int> { st in
        // Its n parts are work, metered as cycles walked are (QueryBudget).
        guard n > 0, QueryBudget.spend(n) else { return [] }
        let sam = st.start.sam
        let shares = (0..<n).map { x -> Time in
            let t = sam + Time(1, 2) + Time(Int64(x), Int64(n))
            return Time(Int64([1, 2, 3][min(2, Int((TidalRandom.timeToRand(t) * 3).rounded(.down)))]))
        }
        let total = shares.reduce(Time.zero, +)
        var ends: [Time] = []
        var sum = Time.zero
        for s in shares { sum += s; ends.append(sum / total) }
        // Tidal's pairUp: [0, e0], [e0, e1] … and the last part to 1.
        var arcs: [Arc] = [Arc(0, ends[0])]
        if n >= 2 {
            for i in 0..<(n - 2) { arcs.append(Arc(ends[i], ends[i + 1])) }
            arcs.append(Arc(ends[n - 2], 1))
        }
        return arcs.enumerated().compactMap { i, a in
            let w = Arc(a.start + sam, a.stop + sam)
            return st.subArc(w).map { Event(whole: w, part: $0, value: i) }
        }
    }.splitQueries()
}

/// Each event of `s` (numbered `i`, of the cycle's `len`) holds `p` shifted by `i` cycles,
/// squeezed into it (Tidal's `substruct'`). Tidal returns each event's whole span whatever the
/// query; here only what falls in the query (the same for whole-cycle queries), so that a
/// scheduler querying a cycle in slices posts each event once.
public func substructShifted<T>(_ s: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> {
    let sq = s.query
    return Pattern<T> { st in
        let cycle = Arc(st.start.sam, st.start.nextSam)
        let len = Int64(sq(cycle).count)
        guard len > 0 else { return [] }
        return sq(st).flatMap { e -> [Event<T>] in
            guard let w = e.whole else { return [] }
            let shifted = _inside(Time(1, len), { $0.rotR(Time(Int64(e.value))) }, p)
            return compressArc(w.cycleArc, shifted).query(w).compactMap { x in
                guard let part = x.part.subArc(st) else { return nil }
                var c = x
                c.part = part
                if part.start == part.stop, x.part.start != x.part.stop { return nil }
                return c
            }
        }
    }
}

/// `n` repeats of the pattern a cycle, each of a random length (Tidal's `_stripe`).
public func _stripe<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> { substructShifted(randStruct(n), p) }

/// Tidal's `stripe`, the count patterned.
public func stripe<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_stripe, n, p) }

/// A one-cycle pattern of `n` steps walking a Markov chain from state `xi`, each step drawn from
/// the current state's row of `matrix` (rows normalised), a new walk every cycle (Tidal's
/// `markovPat`, with `runMarkov`'s random numbers). A row or state that does not exist, or n
/// outside 1…65536, plays nothing (Tidal's walk would stop with an error).
public func markovPat(_ n: Pattern<Int>, _ xi: Pattern<Int>, _ matrix: [[Double]]) -> Pattern<Int> {
    innerJoin(appBoth(n, xi) { n, xi in _markovPat(n, xi, matrix) })
}

func _markovPat(_ n: Int, _ xi: Int, _ matrix: [[Double]]) -> Pattern<Int> {
    Pattern { a in
        guard let chain = runMarkov(n, matrix, xi, a.start.sam) else { return [] }
        return fastcat(chain.map { Pattern.pure($0) }).query(a)
    }.splitQueries()
}

/// The chain of `n` states from `xi`, seeded by the cycle (Tidal's `runMarkov`); nil where
/// Tidal's would fail.
public func runMarkov(_ n: Int, _ matrix: [[Double]], _ xi: Int, _ seed: Time) -> [Int]? {
    guard n >= 1, n <= 65536 else { return nil }
    let rows = matrix.map { row -> [Double] in
        let sum = row.reduce(0, +)
        return row.map { $0 / sum }
    }
    var xs = [xi]
    while xs.count < n {
        guard let state = xs.last, state >= 0, state < rows.count else { return nil }
        let r = TidalRandom.timeToRand(seed + Time(Int64(xs.count)) / Time(Int64(n)))
        var sum = 0.0
        guard let next = rows[state].firstIndex(where: { sum += $0; return r <= sum }) else { return nil }
        xs.append(next)
    }
    return xs
}

/// `degradeBy` whose random numbers repeat for `i` cycles, its amount `tx` slowed by `i`
/// (Tidal's `degradeOverBy`): the same events drop for `i` cycles at a time.
public func degradeOverBy<T>(_ i: Int, _ tx: Pattern<Double>, _ p: Pattern<T>) -> Pattern<T> {
    guard i > 0 else { return .silence }
    let r = _repeatCycles(i, rand())
    return Pattern<Pattern<T>>.unwrap(_slow(Time(Int64(i)), tx).map { x in
        appLeft(p, r) { ($0, $1) }.filterValues { $0.1 > x }.map { $0.0 }
    })
}
