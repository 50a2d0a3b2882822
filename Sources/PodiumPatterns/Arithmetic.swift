import Glibc

/// Tidal 1.7.10's arithmetic on patterns (`Sound.Tidal.Core`'s `|+|`, `|+`, `+|` … and the
/// `Num`/`Fractional`/`Moddable` instances of `Pattern`, `Value` and `ValueMap` in
/// `Sound.Tidal.Pattern`): an operator and whose structure the result keeps.

/// One of Tidal's pattern operators, `|op|`, `|op` or `op|` by `Structure`.
public enum NumOp: Sendable {
    /// `+`
    case add
    /// `-`
    case sub
    /// `*`
    case mul
    /// `/`
    case div
    /// `%` (Tidal's `gmod`: `mod` on integers, `mod'` on fractions)
    case mod
    /// `**`
    case pow
    /// `<`: the left-hand values win (Tidal's `union`; on control maps `Map.union`).
    case keepLeft
    /// `>` (and `#`): the right-hand values win (Tidal's `flip union`).
    case keepRight
}

// Thread: any (all of this file)

/// Haskell's `mod` for `Int` and `mod'` for `Double` (`Data.Fixed`: the divisor's sign).
@inline(__always)
func gmodDouble(_ x: Double, _ m: Double) -> Double { hmodDouble(x, m) }

extension NumOp {
    /// The operator on two plain numbers.
    public func apply(_ a: Double, _ b: Double) -> Double {
        switch self {
        case .add: return a + b
        case .sub: return a - b
        case .mul: return a * b
        case .div: return a / b
        case .mod: return gmodDouble(a, b)
        case .pow: return Glibc.pow(a, b)
        case .keepLeft: return a
        case .keepRight: return b
        }
    }

    /// The operator on two values as on Tidal's numbers (`fNum2`: ints stay ints, a note with a
    /// float is a note; a string, bool or rational meeting anything keeps the left value). An
    /// int divided by an int is a fraction, as the numbers of a Tidal pattern are.
    public func apply(_ a: Value, _ b: Value) -> Value {
        switch self {
        case .keepLeft: return a
        case .keepRight: return b
        case .div:
            if case let .int(x) = a, case let .int(y) = b { return .double(Double(x) / Double(y)) }
            return Value.numeric(a, b, int: { $0 &* $1 }, double: { $0 / $1 })
        case .pow:
            if case let .int(x) = a, case let .int(y) = b { return .double(Glibc.pow(Double(x), Double(y))) }
            return Value.numeric(a, b, int: { $0 &* $1 }, double: { Glibc.pow($0, $1) })
        case .add: return Value.numeric(a, b, int: { $0 &+ $1 }, double: { $0 + $1 })
        case .sub: return Value.numeric(a, b, int: { $0 &- $1 }, double: { $0 - $1 })
        case .mul: return Value.numeric(a, b, int: { $0 &* $1 }, double: { $0 * $1 })
        case .mod: return Value.numeric(a, b, int: { hmod($0, $1) }, double: { gmodDouble($0, $1) })
        }
    }

    /// The operator on two control maps as Tidal's `Num ValueMap` does it: `Map.unionWith` of
    /// `fNum2` (keys on one side only are kept), `-` as `+ negate` and `/` as `* recip` (so a
    /// key only on the right comes out negated or inverted, and ints are not inverted: `|/` on
    /// ints multiplies, as in Tidal 1.7.10), `|<` as `Map.union` and `|>`/`#` as its flip.
    public func apply(_ a: ControlMap, _ b: ControlMap) -> ControlMap {
        switch self {
        case .keepLeft: return a.merging(b) { l, _ in l }
        case .keepRight: return a.merging(b) { _, r in r }
        case .add: return a.merging(b) { Value.numeric($0, $1, int: { $0 &+ $1 }, double: { $0 + $1 }) }
        case .mul: return a.merging(b) { Value.numeric($0, $1, int: { $0 &* $1 }, double: { $0 * $1 }) }
        case .sub:
            return a.merging(b.mapValues(NumOp.negateValue)) { Value.numeric($0, $1, int: { $0 &+ $1 }, double: { $0 + $1 }) }
        case .div:
            return a.merging(b.mapValues(NumOp.recipValue)) { Value.numeric($0, $1, int: { $0 &* $1 }, double: { $0 * $1 }) }
        case .mod: return a.merging(b) { Value.numeric($0, $1, int: { hmod($0, $1) }, double: { gmodDouble($0, $1) }) }
        case .pow:
            // Tidal 1.7.10 has no `**` on control maps (`noOv`); here it is `fNum2` of powers.
            return a.merging(b) { x, y in
                Value.numeric(x, y, int: { Int(Glibc.pow(Double($0), Double($1))) }, double: { Glibc.pow($0, $1) })
            }
        }
    }

    /// Tidal's `applyFIS negate negate id`.
    static func negateValue(_ v: Value) -> Value {
        switch v {
        case let .double(d): return .double(-d)
        case let .note(d): return .note(-d)
        case let .int(i): return .int(0 &- i)
        default: return v
        }
    }

    /// Tidal's `applyFIS recip id id`.
    static func recipValue(_ v: Value) -> Value {
        switch v {
        case let .double(d): return .double(1 / d)
        case let .note(d): return .note(1 / d)
        default: return v
        }
    }
}

/// Two patterns of values combined by `op`, the structure from `structure` (Tidal's `|+|`,
/// `|+`, `+|`, `|-|` … `|<`, `|>`).
public func numericOp(_ op: NumOp, _ structure: Structure, _ a: Pattern<Value>, _ b: Pattern<Value>) -> Pattern<Value> {
    app(structure, a, b) { op.apply($0, $1) }
}

/// Two control patterns combined by `op` (Tidal's operators on `ControlPattern`; `#` is
/// `.keepRight` with `.left` structure).
public func numericOp(_ op: NumOp, _ structure: Structure, _ a: Pattern<ControlMap>, _ b: Pattern<ControlMap>) -> Pattern<ControlMap> {
    app(structure, a, b) { op.apply($0, $1) }
}

/// Two patterns of numbers combined by `op` (Tidal's operators on `Pattern Double`).
public func numericOp(_ op: NumOp, _ structure: Structure, _ a: Pattern<Double>, _ b: Pattern<Double>) -> Pattern<Double> {
    app(structure, a, b) { op.apply($0, $1) }
}

/// Tidal's `#`: the values of `b` over those of `a`, structure from `a`.
public func sharp(_ a: Pattern<ControlMap>, _ b: Pattern<ControlMap>) -> Pattern<ControlMap> {
    numericOp(.keepRight, .left, a, b)
}

/// Orders control maps as Haskell's `Ord (Map String Value)` does (by ascending key/value lists).
public func controlMapLess(_ a: ControlMap, _ b: ControlMap) -> Bool {
    let ka = a.keys.sorted(), kb = b.keys.sorted()
    for (x, y) in zip(ka, kb) {
        if x != y { return x < y }
        let c = compareValues(a[x]!, b[y]!)
        if c != 0 { return c < 0 }
    }
    return ka.count < kb.count
}

/// Tidal's `Ord Value`: strings first, then booleans, then numbers by value.
public func compareValues(_ a: Value, _ b: Value) -> Int {
    func rank(_ v: Value) -> Int {
        switch v { case .string: return 0; case .bool: return 1; default: return 2 }
    }
    let ra = rank(a), rb = rank(b)
    if ra != rb { return ra < rb ? -1 : 1 }
    switch (a, b) {
    case let (.string(x), .string(y)): return x == y ? 0 : (x < y ? -1 : 1)
    case let (.bool(x), .bool(y)): return x == y ? 0 : (!x ? -1 : 1)
    default:
        let x = a.number ?? 0, y = b.number ?? 0
        return x == y ? 0 : (x < y ? -1 : 1)
    }
}
