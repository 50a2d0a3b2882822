import CThreads
import Glibc

/// A number's text for a crash report, written where a signal handler may write it (no
/// allocation, no lock): a whole number's digits, else 15 significant digits without trailing
/// zeros, in exponent form (`1e-07`, `1.5e+20`) below 1e-4 or from 2^53: as InputCheck words
/// numbers (Swift's shortest form), except past 15 digits (`0.30000000000000004` reads `0.3`).
public enum NumberText {
    /// Writes `v`'s text to `out` (room for 24 bytes); returns its length. Computed in the default
    /// floating-point environment: on a thread that created a Csound (DAZ set) a subnormal number
    /// would otherwise compare equal to zero and read `0`.
    // Thread: any, including a signal handler
    public static func write(_ v: Double, into out: UnsafeMutablePointer<UInt8>) -> Int {
        var saved = fenv_t()
        podium_fp_default(&saved)
        defer { podium_fp_restore(&saved) }
        var n = 0
        func put(_ c: UInt8) { out[n] = c; n += 1 }
        func putDigits(_ x: UInt64, count: Int) {  // exactly `count` digits
            var x = x
            for i in (0..<count).reversed() { out[n + i] = 48 + UInt8(x % 10); x /= 10 }
            n += count
        }
        if v.isNaN { for c in "NaN".utf8 { put(c) }; return n }
        if v < 0 { put(45) }
        let m = v.magnitude
        if m.isInfinite { for c in "inf".utf8 { put(c) }; return n }
        if m == m.rounded(.towardZero), m < 9_007_199_254_740_992 {  // whole, below 2^53
            let x = UInt64(m)
            var digits = 1, t = x
            while t >= 10 { t /= 10; digits += 1 }
            putDigits(x, count: digits)
            if m >= 1e15 { put(46); put(48) }  // "1000000000000000.0", as Swift writes it
            return n
        }
        // 15 significant digits: d = m × 10^(14 − e), with 10^e ≤ m < 10^(e + 1).
        func scaled(_ k: Int) -> Double { k > 300 ? m * 1e300 * Glibc.pow(10, Double(k - 300)) : m * Glibc.pow(10, Double(k)) }
        var e = Int(Glibc.floor(Glibc.log10(m)))
        if m < Glibc.pow(10, Double(e)) { e -= 1 } else if m >= Glibc.pow(10, Double(e + 1)) { e += 1 }
        var d = scaled(14 - e).rounded()
        if d >= 1e15 { d = 1e14; e += 1 }  // 9.99…95 rounded up to the next power of ten
        var digits = UInt64(d), significant = 15
        while significant > 1 && digits % 10 == 0 { digits /= 10; significant -= 1 }
        if e >= -4 && m < 9_007_199_254_740_992 {
            if e < 0 {
                put(48); put(46)
                for _ in 0..<(-e - 1) { put(48) }
                putDigits(digits, count: significant)
            } else {
                // e + 1 digits before the point (all of them when the number is shorter).
                let whole = e + 1
                var scratch = digits, scale: UInt64 = 1
                for _ in 0..<max(0, significant - whole) { scale *= 10 }
                let head = scratch / scale
                scratch %= scale
                var headDigits = whole
                if significant < whole { headDigits = significant }
                putDigits(head, count: headDigits)
                for _ in 0..<max(0, whole - significant) { put(48) }
                if significant > whole { put(46); putDigits(scratch, count: significant - whole) }
            }
        } else {
            var scale: UInt64 = 1
            for _ in 0..<(significant - 1) { scale *= 10 }
            putDigits(digits / scale, count: 1)
            if significant > 1 { put(46); putDigits(digits % scale, count: significant - 1) }
            put(101)
            put(e < 0 ? 45 : 43)
            let x = e.magnitude
            if x < 10 { put(48) }
            var digitsE = 1, t = x
            while t >= 10 { t /= 10; digitsE += 1 }
            putDigits(UInt64(x), count: digitsE)
        }
        return n
    }
}
