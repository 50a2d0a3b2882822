/// Rational time, as Tidal's `Time` (Haskell's `Rational`): cycles as exact fractions, so that
/// `1/3 + 1/3 + 1/3` is 1 and an event at 7/12 of a cycle stays there. Numerator and denominator
/// are 64-bit and kept reduced; a result that does not fit (a pattern nested past any musical
/// use, `"bd*99999999999"` inside itself) becomes the nearest fraction with a denominator under
/// 2^31 instead of trapping, so no input can crash the engine.
public struct Time: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let numerator: Int64
    public let denominator: Int64

    // Thread: any (all of this file)
    @inline(__always)
    init(reduced n: Int64, _ d: Int64) { numerator = n; denominator = d }

    public init(_ n: Int64, _ d: Int64 = 1) {
        precondition(d != 0, "a time with denominator 0")
        self = Time.make(n, d)
    }

    public init(_ n: Int) { numerator = Int64(n); denominator = 1 }

    /// The nearest fraction (denominator ≤ 2^31) to a finite Double; 0 for NaN, clamped at ±2^40.
    public init(_ x: Double) {
        self = Time.approximate(x)
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var a = a.magnitude, b = b.magnitude
        while b != 0 { (a, b) = (b, a % b) }
        return Int64(truncatingIfNeeded: a)
    }

    static func make(_ n: Int64, _ d: Int64) -> Time {
        if n == 0 { return Time(reduced: 0, 1) }
        if n == .min || d == .min { return approximate(Double(n) / Double(d)) }
        let g = gcd(n, d)
        var n = n / g, d = d / g
        if d < 0 { n = -n; d = -d }
        return Time(reduced: n, d)
    }

    /// From a 128-bit numerator and denominator (a product that overflowed 64 bits).
    static func make(wide n: (high: Int64, low: UInt64), _ d: (high: Int64, low: UInt64)) -> Time {
        approximate(wideDouble(n) / wideDouble(d))
    }

    static func wideDouble(_ x: (high: Int64, low: UInt64)) -> Double {
        Double(x.high) * 18446744073709551616.0 + Double(x.low)
    }

    /// Continued fractions: the best fraction with a denominator ≤ 2^31.
    static func approximate(_ x: Double) -> Time {
        guard x.isFinite else { return Time(reduced: 0, 1) }
        let limit = 1099511627776.0 // 2^40 cycles: far past any performance
        let x = min(max(x, -limit), limit)
        var (h0, h1): (Int64, Int64) = (0, 1)
        var (k0, k1): (Int64, Int64) = (1, 0)
        var r = x
        for _ in 0..<64 {
            let a = r.rounded(.down)
            guard let ai = Int64(exactly: a) else { break }
            let (hm, o1) = ai.multipliedReportingOverflow(by: h1)
            let (h2, o2) = hm.addingReportingOverflow(h0)
            let (km, o3) = ai.multipliedReportingOverflow(by: k1)
            let (k2, o4) = km.addingReportingOverflow(k0)
            if o1 || o2 || o3 || o4 || k2 > 2147483648 { break }
            (h0, h1, k0, k1) = (h1, h2, k1, k2)
            let f = r - a
            if f < 1e-12 { break }
            r = 1 / f
        }
        if k1 == 0 { return Time(reduced: Int64(x), 1) }
        return make(h1, k1)
    }

    public static let zero = Time(reduced: 0, 1)
    public static let one = Time(reduced: 1, 1)

    public var double: Double { Double(numerator) / Double(denominator) }

    /// The cycle the time is in (Tidal's `sam`): the largest whole number not after it.
    public var sam: Time { Time(reduced: floorInt, 1) }
    public var nextSam: Time { Time(reduced: floorInt &+ 1, 1) }
    public var floorInt: Int64 {
        let q = numerator / denominator
        return (numerator % denominator != 0 && numerator < 0) ? q - 1 : q
    }
    public var ceilInt: Int64 {
        let q = numerator / denominator
        return (numerator % denominator != 0 && numerator > 0) ? q + 1 : q
    }
    /// The position inside its cycle (Tidal's `cyclePos`).
    public var cyclePos: Time { self - sam }

    public static func + (a: Time, b: Time) -> Time {
        if a.denominator == b.denominator {
            let (n, o) = a.numerator.addingReportingOverflow(b.numerator)
            if !o { return make(n, a.denominator) }
        } else {
            let (x, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
            let (y, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
            let (n, o3) = x.addingReportingOverflow(y)
            let (d, o4) = a.denominator.multipliedReportingOverflow(by: b.denominator)
            if !(o1 || o2 || o3 || o4) { return make(n, d) }
        }
        return approximate(a.double + b.double)
    }

    public static prefix func - (a: Time) -> Time {
        a.numerator == .min ? approximate(-a.double) : Time(reduced: -a.numerator, a.denominator)
    }

    public static func - (a: Time, b: Time) -> Time { a + (-b) }

    public static func * (a: Time, b: Time) -> Time {
        let g1 = gcd(a.numerator, b.denominator), g2 = gcd(b.numerator, a.denominator)
        let an = g1 == 0 ? a.numerator : a.numerator / g1, bd = g1 == 0 ? b.denominator : b.denominator / g1
        let bn = g2 == 0 ? b.numerator : b.numerator / g2, ad = g2 == 0 ? a.denominator : a.denominator / g2
        let (n, o1) = an.multipliedReportingOverflow(by: bn)
        let (d, o2) = ad.multipliedReportingOverflow(by: bd)
        if !(o1 || o2) { return make(n, d) }
        return make(wide: an.multipliedFullWidth(by: bn), ad.multipliedFullWidth(by: bd))
    }

    /// Division; by zero gives zero (callers that mean something else check first, as Tidal's
    /// functions do: `_fast 0` is silence).
    public static func / (a: Time, b: Time) -> Time {
        if b.numerator == 0 { return .zero }
        return a * b.reciprocal
    }

    public var reciprocal: Time {
        numerator == 0 ? .zero : (numerator == .min ? Time.approximate(1 / double) : Time.make(denominator, numerator))
    }

    public static func += (a: inout Time, b: Time) { a = a + b }
    public static func -= (a: inout Time, b: Time) { a = a - b }

    public static func < (a: Time, b: Time) -> Bool {
        if a.denominator == b.denominator { return a.numerator < b.numerator }
        let l = a.numerator.multipliedFullWidth(by: b.denominator)
        let r = b.numerator.multipliedFullWidth(by: a.denominator)
        return l.high != r.high ? l.high < r.high : l.low < r.low
    }

    /// Haskell's `mod'` on rationals: the remainder with the divisor's sign.
    public func mod(_ m: Time) -> Time {
        if m.numerator == 0 { return .zero }
        let q = (self / m).floorInt
        return self - m * Time(reduced: q, 1)
    }

    /// `a/b`, or the integer alone when b is 1 (as `podium pattern` prints times).
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }
}

extension Time: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { numerator = value; denominator = 1 }
}

public func min(_ a: Time, _ b: Time) -> Time { a < b ? a : b }
public func max(_ a: Time, _ b: Time) -> Time { a < b ? b : a }
