/// Tidal 1.7.10's functions on control patterns that take functions (`Sound.Tidal.UI`): a list
/// of functions spread across the stereo field, and functions applied to the events whose
/// controls match.

// Thread: any (all of this file)

/// Each function of `p` at its own place from left to right, `pan` added (Tidal's `jux'`).
public func juxList(_ fs: [@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>], _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let l = Double(fs.count)
    return stack(fs.enumerated().map { n, f in
        numericOp(.add, .left, f(p), control("pan", .pure(.double(Double(n) / l))))
    })
}

/// Tidal's `jux4`: the pattern at pan 5/8, `f` of it at 1/8.
public func jux4(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    stack([sharp(p, control("pan", .pure(.double(5.0 / 8)))), f(sharp(p, control("pan", .pure(.double(1.0 / 8)))))])
}

/// Tidal's `juxcut`: `jux` with each side in a cut group of its own (-1 and -2).
public func juxcut(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    stack([sharp(sharp(p, control("pan", .pure(.double(0)))), control("cut", .pure(.int(-1)))),
           f(sharp(sharp(p, control("pan", .pure(.double(1)))), control("cut", .pure(.int(-2)))))])
}

/// Tidal's `juxcut'`: `jux'` with `cut` 1 - n added to each.
public func juxcutList(_ fs: [@Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>], _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let l = Double(fs.count)
    return stack(fs.enumerated().map { n, f in
        sharp(numericOp(.add, .left, f(p), control("cut", .pure(.int(1 - n)))), control("pan", .pure(.double(Double(n) / l))))
    })
}

/// Tidal's `Eq Value`: equal kinds by value; floats, integers and rationals by number; a note
/// only equals a note.
func tidalEqual(_ a: Value, _ b: Value) -> Bool {
    switch (a, b) {
    case let (.note(x), .note(y)): return x == y
    case (.note, _), (_, .note): return false
    case (.double, .int), (.int, .double), (.double, .rational), (.rational, .double), (.int, .rational), (.rational, .int):
        return a.number == b.number
    default: return a == b
    }
}

/// `f` applied to the events whose controls include one of `controls`' maps at their onset,
/// `g` to the others (Tidal's `contrast`: `contrastBy (==)`, through `matchManyToOne`).
public func contrast(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                     _ g: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                     _ controls: Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    contrastBy({ a, v in tidalEqual(a, v) }, f, g, controls, p)
}

/// Tidal's `contrastBy`: an event matches a map of `controls` (those at its onset) when it has
/// every key of the map and `test` holds between the map's value and its own; `f` is applied
/// to the events that match one, `g` to the others.
public func contrastBy<A>(_ test: @escaping @Sendable (A, Value) -> Bool,
                          _ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                          _ g: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                          _ controls: Pattern<[String: A]>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let cq = controls.query, pq = p.query
    let matches = Pattern<(Bool, ControlMap)> { st in
        pq(st).map { e in
            let s = e.wholeStart
            let found = cq(Arc(s, s)).contains { c in
                c.value.allSatisfy { k, a in e.value[k].map { test(a, $0) } ?? false }
            }
            return e.with(value: (found, e.value))
        }
    }
    let matched = matches.filterValues { $0.0 }.map(\.1)
    let unmatched = matches.filterValues { !$0.0 }.map(\.1)
    return f(matched).overlay(g(unmatched))
}

/// Tidal's `contrastRange`: an event matches when each of the map's controls is within its
/// (low, high) pair, both ends included; integers, floats and notes each against their own
/// kind only, and a string only when it equals both ends.
public func contrastRange(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                          _ g: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>,
                          _ ranges: [String: (Value, Value)], _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let pairs = ranges.mapValues { RangePair(low: $0.0, high: $0.1) }
    return contrastBy({ (r: RangePair, v: Value) in r.holds(v) }, f, g, .pure(pairs), p)
}

/// A (low, high) pair of `contrastRange`.
public struct RangePair: Sendable {
    public var low: Value, high: Value

    func holds(_ v: Value) -> Bool {
        switch (low, high, v) {
        case let (.int(s), .int(e), .int(x)): return x >= s && x <= e
        case let (.double(s), .double(e), .double(x)), let (.note(s), .note(e), .note(x)): return x >= s && x <= e
        case let (.string(s), .string(e), .string(x)): return x == s && x == e
        default: return false
        }
    }
}

/// Tidal's `compare` of two values (`Ord Value`): strings, then booleans, before every number;
/// numbers of any kind by number. -1, 0 or 1.
func tidalCompare(_ a: Value, _ b: Value) -> Int {
    func order<T: Comparable>(_ x: T, _ y: T) -> Int { x < y ? -1 : (x > y ? 1 : 0) }
    switch (a, b) {
    case let (.string(x), .string(y)):
        let u = x.unicodeScalars.map(\.value), w = y.unicodeScalars.map(\.value)
        return u.lexicographicallyPrecedes(w) ? -1 : (w.lexicographicallyPrecedes(u) ? 1 : 0)
    case let (.bool(x), .bool(y)): return order(x ? 1 : 0, y ? 1 : 0)
    case (.string, _): return -1
    case (_, .string): return 1
    case (.bool, _): return -1
    case (_, .bool): return 1
    case let (.rational(x), .rational(y)): return order(x, y)
    case let (.int(x), .int(y)): return order(x, y)
    case let (.rational(x), .int(y)): return order(x, Time(y))
    case let (.int(x), .rational(y)): return order(Time(x), y)
    default: return order(a.number ?? 0, b.number ?? 0)
    }
}

/// Tidal's comparison operators on values, by name (`contrastBy (>=)`).
func tidalComparison(_ name: String) -> (@Sendable (Value, Value) -> Bool)? {
    switch name {
    case "==": return { tidalEqual($0, $1) }
    case "/=": return { !tidalEqual($0, $1) }
    case "<": return { tidalCompare($0, $1) < 0 }
    case "<=": return { tidalCompare($0, $1) <= 0 }
    case ">": return { tidalCompare($0, $1) > 0 }
    case ">=": return { tidalCompare($0, $1) >= 0 }
    default: return nil
    }
}

/// Tidal's `fix`: `f` applied to the matching events only.
public func fix(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>, _ controls: Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    contrast(f, { $0 }, controls, p)
}

/// Tidal's `unfix`: `f` applied to the events that do not match.
public func unfix(_ f: @escaping @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap>, _ controls: Pattern<ControlMap>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    contrast({ $0 }, f, controls, p)
}

/// One event at a time: events sorted by their wholes, each cut where an earlier one still
/// sounds (Tidal's `mono`).
public func mono<T>(_ p: Pattern<T>) -> Pattern<T> {
    p.withEvents { es in
        // Haskell's sortOn is stable; Nothing (an analog event) sorts first.
        let sorted = es.enumerated().sorted { x, y in
            switch (x.element.whole, y.element.whole) {
            case (nil, nil): return x.offset < y.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (a?, b?):
                if a.start != b.start { return a.start < b.start }
                if a.stop != b.stop { return a.stop < b.stop }
                return x.offset < y.offset
            }
        }.map(\.element)
        var kept: [Event<T>] = []
        var rest = sorted[...]
        while let first = rest.popFirst() {
            kept.append(first)
            let a = first.wholeOrPart
            rest = ArraySlice(rest.compactMap { b -> Event<T>? in
                let w = b.wholeOrPart
                if w.start >= a.stop { return b }
                if w.stop <= a.stop { return nil }
                var c = b
                c.whole = Arc(a.stop, w.stop)
                return c
            })
        }
        return kept.compactMap { e in
            guard let part = e.wholeOrPart.subArc(e.part) else { return nil }
            var c = e
            c.part = part
            return c
        }
    }
}

/// Two quieter, shorter, higher copies of each event, `2.5 a` and `1.5 a` later (Tidal's
/// `ghost'`; `ghost` is `ghost' 0.125`).
public func ghostWith(_ a: Time, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let f: @Sendable (Pattern<ControlMap>) -> Pattern<ControlMap> = { x in
        numericOp(.mul, .both, sharpRight(numericOp(.mul, .both, x, control("speed", .pure(.double(1.25)))), control("end", .pure(.double(0.2)))),
                  control("gain", .pure(.double(0.7))))
    }
    return ghostly(a, f, p)
}

/// Tidal's `ghost''`: `f` of the pattern, `2.5 a` and `1.5 a` later, on top.
public func ghostly<T>(_ a: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    superimpose({ f($0).rotR(a * Time(5, 2)) }, superimpose({ f($0).rotR(a * Time(3, 2)) }, p))
}

/// `|>`: the right's values, the left's structure.
func sharpRight(_ a: Pattern<ControlMap>, _ b: Pattern<ControlMap>) -> Pattern<ControlMap> { numericOp(.keepRight, .left, a, b) }

/// `copies` of the pattern, each `i/copies` of a cycle earlier and panned by as much (Tidal's `_spin`).
public func _spin(_ copies: Int, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    guard copies > 0, copies <= 1024 else { return copies > 1024 ? _spin(1024, p) : .silence }
    return stack((0..<copies).map { i in
        let offset = Time(Int64(i), Int64(copies))
        return sharp(p.rotL(offset), control("pan", .pure(.double(offset.double))))
    })
}

/// Tidal's `spin`.
public func spin(_ copies: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> { tParam(_spin, copies, p) }

/// Each pattern with `p`'s values, `p` shifted by `i/n` for the `i`th (Tidal's `stackwith`).
public func stackwith(_ p: Pattern<ControlMap>, _ ps: [Pattern<ControlMap>]) -> Pattern<ControlMap> {
    if ps.isEmpty { return .silence }
    let l = Int64(ps.count)
    return stack(ps.enumerated().map { i, x in sharp(x, p.rotL(Time(Int64(i), l))) })
}

/// `begin` at `s` and `end` at `s + w` (Tidal's `grain`).
public func grain(_ s: Pattern<Double>, _ w: Pattern<Double>) -> Pattern<ControlMap> {
    sharp(control("begin", s.map(Value.double)), control("end", numericOp(.add, .both, s, w).map(Value.double)))
}
