/// Tidal 1.7's randomness, computed as Tidal computes it: a xorshift of the cycle position
/// (`timeToRand`), so the same pattern gives the same "random" events as Tidal, every time —
/// and again at replay. No generator state: randomness is a function of time.
public enum TidalRandom {
    // Thread: any (all of this enum)

    /// Tidal's `xorwise` on a 64-bit Int (shifts drop bits; `>>` is arithmetic, as Haskell's).
    @inline(__always)
    public static func xorwise(_ x: Int) -> Int {
        let a = (x << 13) ^ x
        let b = (a >> 17) ^ a
        return (b << 5) ^ b
    }

    /// Tidal's `timeToIntSeed`: 300 cycles stretched over [0, 2^29), then one xorshift.
    public static func intSeed(_ t: Time) -> Int {
        // properFraction (t / 300): the fraction keeps t's sign (truncation toward zero).
        let d = t.denominator.multipliedFullWidth(by: 300)
        let n = t.numerator
        // frac = (n mod' 300d) / 300d, with n's sign: n - trunc(n / 300d) * 300d.
        let denominator300: Int64
        if d.high == 0, d.low <= UInt64(Int64.max) { denominator300 = Int64(d.low) } else {
            return xorwise(Int((t.double / 300).truncatingRemainder(dividingBy: 1) * 536870912))
        }
        let rem = n % denominator300
        // truncate(rem * 2^29 / 300d), exact in 128 bits.
        let wide = rem.multipliedFullWidth(by: 536870912)
        let product = (high: wide.high, low: wide.low)
        let (q, _) = denominator300.dividingFullWidth(product)
        return xorwise(Int(q))
    }

    public static func intSeedToRand(_ seed: Int) -> Double {
        let m = 536870912
        return Double(((seed % m) + m) % m) / 536870912
    }

    /// Tidal's `timeToRand`: a number in [0, 1) for a time.
    public static func timeToRand(_ t: Time) -> Double { intSeedToRand(intSeed(t)) }

    /// Tidal's `timeToRands`: `n` numbers from one time, each the next xorshift.
    public static func timeToRands(_ t: Time, _ n: Int) -> [Double] {
        var seed = intSeed(t)
        var out: [Double] = []
        out.reserveCapacity(max(0, n))
        for _ in 0..<max(0, n) {
            out.append(intSeedToRand(seed))
            seed = xorwise(seed)
        }
        return out
    }
}

// Thread: any (the functions below)

/// A continuous random signal, sampled at the middle of each query (Tidal's `rand`).
public func rand() -> Pattern<Double> {
    Pattern { a in [Event(whole: nil, part: a, value: TidalRandom.timeToRand((a.start + a.stop) / 2))] }
}

/// Whole numbers in [0, n) (Tidal's `_irand`).
public func _irand(_ n: Int) -> Pattern<Double> {
    rand().map { (($0 * Double(n)).rounded(.down)) }
}

/// Keeps the events whose random number (from `prand`, sampled at their whole) is above `x`
/// (Tidal's `_degradeByUsing`).
public func _degradeByUsing<T>(_ prand: Pattern<Double>, _ x: Double, _ p: Pattern<T>) -> Pattern<T> {
    appLeft(p, prand) { v, r in (v, r) }.filterValues { $0.1 > x }.map { $0.0 }
}

public func _degradeBy<T>(_ x: Double, _ p: Pattern<T>) -> Pattern<T> { _degradeByUsing(rand(), x, p) }

/// The events `_degradeBy` drops (Tidal's `_unDegradeBy`).
public func _unDegradeBy<T>(_ x: Double, _ p: Pattern<T>) -> Pattern<T> {
    appLeft(p, rand()) { v, r in (v, r) }.filterValues { $0.1 <= x }.map { $0.0 }
}

/// Samples `p` `n` times a cycle (Tidal's `_segment`).
public func _segment<T>(_ n: Time, _ p: Pattern<T>) -> Pattern<T> {
    appLeft(_fast(n, Pattern<Bool>.pure(true)), p) { _, v in v }
}

/// `from + (to - from) * v` (Tidal's `range` with plain bounds).
public func _range(_ from: Double, _ to: Double, _ p: Pattern<Double>) -> Pattern<Double> {
    p.map { from + (to - from) * $0 }
}

/// One of `xs`, picked by a signal in [0, 1) (Tidal's `chooseBy`; `!!!` wraps).
public func chooseBy<T: Sendable>(_ f: Pattern<Double>, _ xs: [T]) -> Pattern<T> {
    if xs.isEmpty { return .silence }
    let n = xs.count
    return _range(0, Double(n), f).map { v in
        // Haskell's floor then `!!!`, for any double a pattern gives (NaN and ±inf: the first).
        guard v.isFinite else { return xs[0] }
        let r = v.rounded(.down).truncatingRemainder(dividingBy: Double(n))
        let i = Int(r < 0 ? r + Double(n) : r)
        return xs[min(max(i, 0), n - 1)]
    }
}
