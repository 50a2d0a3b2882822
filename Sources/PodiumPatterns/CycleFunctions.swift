/// Tidal 1.7.10's functions on whole cycles and their shares (`Sound.Tidal.Core` and `UI`):
/// cycles repeated, speed squeezed into events, a cycle shared out by a list of lengths or by
/// a fraction between two patterns.

// Thread: any (all of this file)

/// Each cycle played `n` times before the next (Tidal's `_repeatCycles`: `cat (replicate n p)`,
/// worked out per cycle instead of from a list, so a large `n` costs nothing).
public func _repeatCycles<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    if n <= 0 { return .silence }
    let q = p.query
    let k = n
    return Pattern { st in
        st.cycles.flatMap { a -> [Event<T>] in
            let cyc = Int(clamping: a.start.floorInt)
            // slowcat's offset for n copies: the cycle minus Haskell's `cyc div n`.
            let offset = Time(Int64(cyc - (cyc - hmod(cyc, k)) / k))
            return q(Arc(a.start - offset, a.stop - offset)).map { e in
                Event(context: e.context, whole: e.whole.map { $0.withTime { $0 + offset } },
                      part: e.part.withTime { $0 + offset }, value: e.value)
            }
        }
    }
}

/// Tidal's `repeatCycles`, the count patterned.
public func repeatCycles<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_repeatCycles, n, p) }

/// Tidal's `fastSqueeze`: `fast`, each value of the speed squeezed into its event.
public func fastSqueeze<T>(_ r: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParamSqueeze(_fast, r, p) }

/// Tidal's `slowSqueeze`.
public func slowSqueeze<T>(_ r: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParamSqueeze(_slow, r, p) }

/// The pattern played again at each length of `xs`, one after another, the whole taking
/// `sum xs` cycles (Tidal's `spaceOut`).
public func spaceOut<T>(_ xs: [Time], _ p: Pattern<T>) -> Pattern<T> {
    let total = xs.reduce(Time.zero, +)
    if total == .zero { return .silence }
    var offset = Time.zero
    var parts: [Pattern<T>] = []
    for x in xs {
        parts.append(compressArc(Arc(offset / total, (offset + x) / total), p))
        offset += x
    }
    return _slow(total, stack(parts))
}

/// `p` squeezed into the first `t` of each cycle and `q` into the rest (Tidal's `_wedge`).
public func _wedge<T>(_ t: Time, _ p: Pattern<T>, _ q: Pattern<T>) -> Pattern<T> {
    if t == .zero { return q }
    if t == Time(1) { return p }
    return _fastGap(t.reciprocal, p).overlay(_fastGap((Time(1) - t).reciprocal, q).rotR(t))
}

/// Tidal's `wedge`, the share patterned.
public func wedge<T>(_ t: Pattern<Time>, _ p: Pattern<T>, _ q: Pattern<T>) -> Pattern<T> {
    innerJoin(t.map { _wedge($0, p, q) })
}

/// Each event's value squeezed into the last `1 - r` of it (Tidal's `_pressBy`; `press` is 0.5).
public func _pressBy<T: Sendable>(_ r: Time, _ p: Pattern<T>) -> Pattern<T> {
    squeezeJoin(p.map { compressArc(Arc(r.cyclePos, Time(1) - r.sam), Pattern<T>.pure($0)) })
}

/// Tidal's `pressBy`.
public func pressBy<T: Sendable>(_ r: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_pressBy, r, p) }

/// The part `i` of `n` of each cycle, picked by each event and squeezed into it (Tidal's `_bite`).
public func _bite<T>(_ n: Int, _ i: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> {
    if n == 0 { return .silence }
    let whole = Time(Int64(n))
    return squeezeJoin(i.map { k in
        let x = Time(Int64(hmod(k, n)))
        return zoomArc(Arc(x / whole, (x + 1) / whole), p)
    })
}

/// Tidal's `bite`, the number of parts patterned.
public func bite<T>(_ n: Pattern<Int>, _ i: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { innerJoin(n.map { _bite($0, i, p) }) }

/// `bite`, each part's `speed` changed with how much it is squeezed or stretched (Tidal's
/// `_chew`, through `squeezeJoinUp`).
public func _chew(_ n: Int, _ i: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    if n == 0 { return .silence }
    let whole = Time(Int64(n))
    let parts = i.map { k -> Pattern<ControlMap> in
        let x = Time(Int64(hmod(k, n)))
        return zoomArc(Arc(x / whole, (x + 1) / whole), p)
    }
    let pq = parts.query
    let up = Pattern<ControlMap> { st in
        pq(st).flatMap { o -> [Event<ControlMap>] in
            guard let w = o.whole else { return [] }
            let faster = numericOp(.mul, .left, o.value, control("speed", .pure(.double((w.stop - w.start).reciprocal.double))))
            return compressArc(w.cycleArc, faster).query(o.part).compactMap { e in
                guard let iw = e.whole, let w2 = w.subArc(iw), let p2 = o.part.subArc(e.part) else { return nil }
                return Event(context: e.context + o.context, whole: w2, part: p2, value: e.value)
            }
        }
    }
    return numericOp(.div, .left, up, control("speed", .pure(.double(Double(n)))))
}

/// Tidal's `chew`.
public func chew(_ n: Pattern<Int>, _ i: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> {
    innerJoin(n.map { _chew($0, i, p) })
}

/// Cycle 0, every cycle (Tidal's `loopFirst`).
public func loopFirst<T>(_ p: Pattern<T>) -> Pattern<T> {
    let q = p.query
    return Pattern<T> { st in
        let sam = st.start.sam
        return q(Arc(st.start - sam, st.stop - sam)).map { e in
            Event(context: e.context, whole: e.whole.map { $0.withTime { $0 + sam } }, part: e.part.withTime { $0 + sam }, value: e.value)
        }
    }.splitQueries()
}

/// The first `n` cycles, again and again (Tidal's `timeLoop`: `outside n loopFirst`).
public func timeLoop<T: Sendable>(_ n: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { outside(n, loopFirst, p) }

/// `f` applied to `[s, e)` of each cycle zoomed out to a whole cycle, then put back (Tidal's
/// `within'`).
public func withinZoomed<T>(_ s: Time, _ e: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    let inside: @Sendable (Time) -> Bool = { t in let c = t.cyclePos; return c >= s && c < e }
    return stack([compress(s, e, f(zoom(s, e, p))).filterWhen(inside), p.filterWhen { !inside($0) }])
}
