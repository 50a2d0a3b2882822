/// Tidal 1.7.10's functions that cut samples into parts (`Sound.Tidal.Control`): `chop`,
/// `striate`, `striateBy`, `slice`, `randslice`, `splice`, `loopAt`. Each sets the `begin` and
/// `end` (and for some `speed` and `unit`) controls the sampler reads.

// Thread: any (all of this file)

/// A control's value as Tidal's `getF` reads it: a float, a rational or an integer.
func floatControl(_ v: Value?) -> Double? {
    switch v {
    case let .double(d)?: return d
    case let .rational(r)?: return r.double
    case let .int(i)?: return Double(i)
    default: return nil
    }
}

/// Each event cut into `n` equal parts over its whole, each playing the next part of the
/// sample's `begin`–`end` span (Tidal's `_chop`). An event without a whole (a signal's) is
/// dropped, as in Tidal.
public func _chop(_ n: Int, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    guard n > 0 else { return .silence }
    return p.withEvents { events in
        var out: [Event<ControlMap>] = []
        for e in events {
            guard let w = e.whole else { continue }
            let b = floatControl(e.value["begin"]) ?? 0, end = floatControl(e.value["end"]) ?? 1
            let d = end - b
            for i in 0..<n {
                let piece = Arc(w.start + (w.stop - w.start) * Time(Int64(i), Int64(n)),
                                w.start + (w.stop - w.start) * Time(Int64(i + 1), Int64(n)))
                guard let part = e.part.subArc(piece) else { continue }
                var v = e.value
                v["begin"] = .double(Double(i) / Double(n) * d + b)
                v["end"] = .double(Double(i + 1) / Double(n) * d + b)
                out.append(Event(context: e.context, whole: piece, part: part, value: v))
            }
        }
        return out
    }
}

public func chop(_ n: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> { tParam(_chop, n, p) }

/// The pattern played `n` times a cycle, the i-th time playing the i-th of `n` parts of each
/// sample's `begin`–`end` span (Tidal's `_striate`, `mergePlayRange`).
public func _striate(_ n: Int, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    guard n > 0 else { return .silence }
    return fastcat((0..<n).map { i in
        p.map { v in
            let b0 = floatControl(v["begin"]) ?? 0, e0 = floatControl(v["end"]) ?? 1
            let d = e0 - b0
            var out = v
            out["begin"] = .double(Double(i) / Double(n) * d + b0)
            out["end"] = .double(Double(i + 1) / Double(n) * d + b0)
            return out
        }
    })
}

public func striate(_ n: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> { tParam(_striate, n, p) }

/// `striate` with parts `f` long, spread evenly over the sample (Tidal's `_striateBy`).
public func _striateBy(_ n: Int, _ f: Double, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    guard n > 0 else { return .silence }
    let slot = (1 - f) / Double(n)
    return fastcat((0..<n).map { i in
        sharp(sharp(p, control("begin", .pure(.double(slot * Double(i))))), control("end", .pure(.double(slot * Double(i) + f))))
    })
}

public func striateBy(_ n: Pattern<Int>, _ f: Pattern<Double>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    tParam2(_striateBy, n, f, p)
}

/// Haskell's ``num `mod` den`` over `den`, as a share of the sample; nil for no parts.
func sliceStart(_ i: Int, _ n: Int) -> Double? {
    guard n != 0 else { return nil }
    let m = i % n
    return Double(m != 0 && (m < 0) != (n < 0) ? m + n : m) / Double(n)
}

/// The `i`-th of `n` equal parts of each sample, with the structure of `i` (Tidal's `slice`).
public func slice(_ n: Pattern<Int>, _ i: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let spans = appLeft(i, n) { i, n -> (Double, Double)? in
        guard let b = sliceStart(i, n) else { return nil }
        return (b, b + 1 / Double(n))
    }.withEvents { $0.filter { $0.value != nil } }.map { $0! }
    let range = spans.map { ["begin": Value.double($0.0), "end": Value.double($0.1)] as ControlMap }
    return sharp(range, p)
}

/// One of `n` parts a cycle (`_slice`).
func _slice(_ n: Int, _ i: Int, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    sharp(sharp(p, control("begin", .pure(.double(Double(i) / Double(n))))), control("end", .pure(.double(Double(i + 1) / Double(n)))))
}

/// A random one of `n` parts for each cycle's events (Tidal's `randslice`).
public func randslice(_ n: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    tParam({ (n: Int, p: Pattern<ControlMap>) in
        n > 0 ? innerJoin(_irand(n).map { i in _slice(n, Int(i), p) }) : .silence
    }, n, p)
}

/// `slice`, with `speed` set so that each part fills its event (times any speed given) and
/// `unit "c"` (Tidal's `splice`).
public func splice(_ bits: Pattern<Int>, _ i: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    innerJoin(bits.map { bits -> Pattern<ControlMap> in
        let sliced = slice(.pure(bits), i, p).withEvents { events in
            events.map { e in
                var e = e
                let d = (1 / Double(bits)) / (e.wholeStop - e.wholeStart).double
                if case let .double(s)? = e.value["speed"] { e.value["speed"] = .double(d * s) } else { e.value["speed"] = .double(d) }
                return e
            }
        }
        return sharp(sliced, control("unit", .pure(.string("c"))))
    })
}

/// The pattern slowed `n` times, its samples' speed divided by `n` in cycles (`unit "c"`), so
/// that a loop fits `n` cycles (Tidal's `loopAt`).
public func loopAt(_ n: Pattern<Time>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let speed = control("speed", n.map { Value.double($0 == .zero ? 0 : (Time(1) / $0).double) })
    return sharp(numericOp(.mul, .left, slow(n, p), speed), control("unit", .pure(.string("c"))))
}

/// Each event cut in `n` parts as `chop` cuts it, only every other part played, so a sample
/// plays with gaps (Tidal's `_gap`: `_fast n (cat [pure 1, silence]) |>| _chop n p`, whose
/// numeric literal is Tidal's `n 1`: an event without `n` gets `n` 1, as in Tidal).
public func _gap(_ n: Int, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    guard n > 0 else { return .silence }
    let gate: Pattern<Int> = _fast(Time(Int64(n)), slowcat([.pure(1), .silence]))
    return appBoth(gate, _chop(n, p)) { _, v in
        var v = v
        if v["n"] == nil { v["n"] = .int(1) }
        return v
    }
}

public func gap(_ n: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> { tParam(_gap, n, p) }

/// The pattern striated in `n` parts, then played slowed by each factor in turn, a cycle each
/// (Tidal's `smash`); `smash'` chops instead (`_chop`).
public func smash(_ n: Pattern<Int>, _ factors: [Time], _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let striated = striate(n, p)
    return slowcat(factors.map { _slow($0, striated) })
}

public func smashChop(_ n: Int, _ factors: [Time], _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    let chopped = _chop(n, p)
    return slowcat(factors.map { _slow($0, chopped) })
}
