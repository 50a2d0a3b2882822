/// Tidal 1.7.10's boolean patterns and what they choose between (`Sound.Tidal.UI`): inverted,
/// stitched, made from numbers' bits, letters' bits, or lists of gaps.

// Thread: any (all of this file)

/// Tidal's `inv`.
public func inv(_ p: Pattern<Bool>) -> Pattern<Bool> { p.map { !$0 } }

/// `a` at the true events, `b` at the false ones, with the boolean pattern's structure
/// (Tidal's `stitch`).
public func stitch<T>(_ b: Pattern<Bool>, _ x: Pattern<T>, _ y: Pattern<T>) -> Pattern<T> {
    structure(b, x).overlay(structure(inv(b), y))
}

/// `n` steps a cycle, step `i` valued `value(i)` (Tidal's `listToPat`, without the list: a
/// large `n` costs nothing until queried).
func steps<T: Sendable>(_ n: Int, _ value: @escaping @Sendable (Int) -> T) -> Pattern<T> {
    if n <= 0 { return .silence }
    let slow = Pattern<T> { a in
        a.wholeCycles.map { w in Event(whole: w, part: a.sect(w), value: value(hmod(Int(clamping: w.start.floorInt), n))) }
    }
    return _fast(Time(Int64(n)), slow)
}

/// Bit `i` of `x`, counted from the most significant of `n` (Haskell's `testBit`, false past 63).
@inline(__always)
func bit(_ x: Int, _ i: Int, of n: Int) -> Bool {
    let b = n - 1 - i
    return b >= 0 && b < 64 && (x >> b) & 1 == 1
}

/// The `n` lowest bits of each number, most significant first, squeezed into its event
/// (Tidal's `_binaryN`).
public func _binaryN(_ n: Int, _ p: Pattern<Int>) -> Pattern<Bool> {
    squeezeJoin(p.map { x in steps(n) { bit(x, $0, of: n) } })
}

/// Tidal's `binaryN`, the width patterned.
public func binaryN(_ n: Pattern<Int>, _ p: Pattern<Int>) -> Pattern<Bool> {
    innerJoin(n.map { _binaryN($0, p) })
}

/// Tidal's `binary`: eight bits.
public func binary(_ p: Pattern<Int>) -> Pattern<Bool> { binaryN(.pure(8), p) }

/// Each word's letters as eight bits each, squeezed into its event (Tidal's `ascii`).
public func ascii(_ p: Pattern<String>) -> Pattern<Bool> {
    squeezeJoin(p.map { s in
        let codes = s.unicodeScalars.map { Int($0.value) }
        return steps(codes.count * 8) { i in bit(codes[i / 8], i % 8, of: 8) }
    })
}

/// True at the start of each gap of `xs` steps, `perCycle` steps a cycle (Tidal's `necklace`).
public func necklace(_ perCycle: Time, _ xs: [Int]) -> Pattern<Bool> {
    // The list Tidal builds: for each x, True then x - 1 Falses.
    var starts: [Int] = []
    var length = 0
    for x in xs {
        starts.append(length)
        let (next, overflow) = length.addingReportingOverflow(max(1, x))
        if overflow || next > 1 << 40 { return .silence }
        length = next
    }
    let sum = xs.reduce(Time.zero) { $0 + Time(Int64($1)) }
    if perCycle == .zero || length == 0 { return .silence }
    let starting = Set(starts)
    return _slow(sum / perCycle, steps(length) { starting.contains($0) })
}
