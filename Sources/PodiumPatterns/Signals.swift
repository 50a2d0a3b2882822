import Glibc

/// Tidal 1.7.10's continuous signals (`Sound.Tidal.Core`, `Sound.Tidal.UI`): each is sampled at
/// the middle of the query, with no structure of its own; give it some with `segment` or by
/// combining it with a pattern that has events.

// Thread: any (all of this file)

/// Haskell's `mod'` on doubles (the divisor's sign; `mod' x 1` is the fractional part upwards).
@inline(__always)
func hmodDouble(_ x: Double, _ m: Double) -> Double {
    if m == 0 { return 0 }
    return x - (x / m).rounded(.down) * m
}

/// From 0 up to 1 and back, once a cycle (Tidal's `sine`).
public func sine() -> Pattern<Double> { sig { t in (sin(Double.pi * 2 * t.double) + 1) / 2 } }

/// From -1 to 1 (Tidal's `sine2`).
public func sine2() -> Pattern<Double> { sig { t in sin(Double.pi * 2 * t.double) } }

/// `sine` a quarter cycle later (Tidal's `cosine`).
public func cosine() -> Pattern<Double> { sine().rotR(Time(1, 4)) }

/// `sine2` a quarter cycle later (Tidal's `cosine2`).
public func cosine2() -> Pattern<Double> { sine2().rotR(Time(1, 4)) }

/// From 0 up to 1 each cycle (Tidal's `saw`).
public func saw() -> Pattern<Double> { sig { t in hmodDouble(t.double, 1) } }

/// From -1 up to 1 each cycle (Tidal's `saw2`).
public func saw2() -> Pattern<Double> { sig { t in hmodDouble(t.double, 1) * 2 - 1 } }

/// From 1 down to 0 each cycle (Tidal's `isaw`).
public func isaw() -> Pattern<Double> { saw().map { 1 - $0 } }

/// From 1 down to -1 each cycle (Tidal's `isaw2`).
public func isaw2() -> Pattern<Double> { saw2().map { $0 * -1 } }

/// Up from 0 to 1 in the first half of the cycle and down in the second (Tidal's `tri`).
public func tri() -> Pattern<Double> { _fast(2, slowcat([saw(), isaw()])) }

/// `tri` from -1 to 1 (Tidal's `tri2`).
public func tri2() -> Pattern<Double> { _fast(2, slowcat([saw2(), isaw2()])) }

/// 0 in the first half of the cycle, 1 in the second (Tidal's `square`).
public func square() -> Pattern<Double> { sig { t in (hmodDouble(t.double, 1) * 2).rounded(.down) } }

/// -1 then 1 (Tidal's `square2`).
public func square2() -> Pattern<Double> { sig { t in (hmodDouble(t.double, 1) * 2).rounded(.down) * 2 - 1 } }

/// 0 to 1 over the first cycle, then 1 (Tidal's `envL`).
public func envL() -> Pattern<Double> { sig { t in Swift.max(0, Swift.min(t.double, 1)) } }

/// 1 to 0 over the first cycle, then 0 (Tidal's `envLR`).
public func envLR() -> Pattern<Double> { envL().map { 1 - $0 } }

/// Equal-power fade in over the first cycle (Tidal's `envEq`).
public func envEq() -> Pattern<Double> {
    sig { t in sqrt(sin(Double.pi / 2 * Swift.max(0, Swift.min((1 - t).double, 1)))) }
}

/// Equal-power fade out (Tidal's `envEqR`).
public func envEqR() -> Pattern<Double> {
    sig { t in sqrt(cos(Double.pi / 2 * Swift.max(0, Swift.min((1 - t).double, 1)))) }
}

/// Smooth noise following the numbers of `p`: random values at each whole number, eased
/// between (Tidal's `perlinWith`).
public func perlinWith(_ p: Pattern<Double>) -> Pattern<Double> {
    let pa = p.map { $0.rounded(.down) }
    let pb = p.map { $0.rounded(.down) + 1 }
    let frac = appBoth(p, pa.map { -$0 }) { $0 + $1 }
    @Sendable func smootherStep(_ x: Double) -> Double { 6.0 * pow(x, 5) - 15.0 * pow(x, 4) + 10.0 * pow(x, 3) }
    let withA = appBoth(frac, pa.map(timeToRandDouble)) { ($0, $1) }
    return appBoth(withA, pb.map(timeToRandDouble)) { xa, b in
        let (x, a) = xa
        return a + smootherStep(x) * (b - a)
    }
}

/// Smooth noise over time, a new random value each cycle (Tidal's `perlin`).
public func perlin() -> Pattern<Double> { perlinWith(sig { $0.double }) }

/// Perlin noise over two inputs, from 0 to 1 (Tidal's `perlin2With`): a random gradient at each
/// whole-number corner, eased between; a circle in (x, y) repeats without reversing.
public func perlin2With(_ x: Pattern<Double>, _ y: Pattern<Double>) -> Pattern<Double> {
    @Sendable func s(_ v: Double) -> Double { 6.0 * pow(v, 5) - 15.0 * pow(v, 4) + 10.0 * pow(v, 3) }
    @Sendable func angle(_ a: Double, _ b: Double) -> Double { 2 * Double.pi * timeToRandDouble(a + 0.0001 * b) }
    // Tidal combines x and y with <*> in every term: the same wholes each time, so once is the same.
    return appBoth(x, y) { xv, yv in
        let fx = xv.rounded(.down), fy = yv.rounded(.down), cx = fx + 1, cy = fy + 1
        let xf = xv - fx, yf = yv - fy
        func dot(_ ax: Double, _ ay: Double, _ dx: Double, _ dy: Double) -> Double {
            let t = angle(ax, ay)
            return cos(t) * dx + sin(t) * dy
        }
        let a = dot(fx, fy, xf, yf), b = dot(cx, fy, xf - 1, yf)
        let c = dot(fx, cy, xf, yf - 1), d = dot(cx, cy, xf - 1, yf - 1)
        let sx = s(xf), sy = s(yf)
        let v = (1 - sx) * (1 - sy) * a + sx * (1 - sy) * b + (1 - sx) * sy * c + sx * sy * d
        return (v + 1) / 2
    }
}

/// `perlin2With` with the cycle as its first input (Tidal's `perlin2 = perlin2With (sig fromRational)`).
public func perlin2(_ y: Pattern<Double>) -> Pattern<Double> { perlin2With(sig { $0.double }, y) }

/// Values glided between: at each query, the value at the query's middle moves linearly towards
/// the next event's, by how far into its event the middle is (Tidal 1.7's `smooth`; the event
/// spans the query, as Tidal's does).
public func smooth(_ p: Pattern<Double>) -> Pattern<Double> {
    let monoP = mono(p)
    return Pattern { a in
        let middle = (a.start + a.stop) / Time(2)
        guard let e = monoP.query(Arc(middle, middle)).first else { return [] }
        guard let next = monoP.query(Arc(e.wholeStop, e.wholeStop)).first?.value else {
            return [Event(context: e.context, whole: a, part: a, value: e.value)]
        }
        let w = e.wholeOrPart
        let width = w.stop - w.start
        let pc = width == .zero ? 0 : ((e.part.start - w.start) / width).double
        return [Event(context: e.context, whole: a, part: a, value: e.value + (next - e.value) * pc)]
    }
}

/// `from + (to - from) * v` with patterned bounds, structure from `p` (Tidal's `range`).
public func range(_ from: Pattern<Double>, _ to: Pattern<Double>, _ p: Pattern<Double>) -> Pattern<Double> {
    appRight(appRight(from, to) { ($0, $1) }, p) { ft, v in v * (ft.1 - ft.0) + ft.0 }
}

/// Exponential `range` for positive bounds (Tidal's `rangex`).
public func rangex(_ from: Double, _ to: Double, _ p: Pattern<Double>) -> Pattern<Double> {
    _range(log(from), log(to), p).map { exp($0) }
}

/// Values rounded to the nearest `1/n` (Tidal's `quantise`; Haskell's `round`: halves to even).
public func quantise(_ n: Double, _ p: Pattern<Double>) -> Pattern<Double> {
    p.map { ($0 * n).rounded(.toNearestOrEven) / n }
}
