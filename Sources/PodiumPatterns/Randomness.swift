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
