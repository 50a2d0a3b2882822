/// Tidal's `Sound.Tidal.Core`: the compositions everything else is built from — concatenation,
/// stacking, speed, shifting, reversing, compressing, and continuous signals. Plain functions
/// over `Pattern`, spelt as Tidal spells them (`_fast` takes a plain value, `fast` a pattern).

// Thread: any (all of this file)

public func silence<T>() -> Pattern<T> { .silence }

/// One pattern per cycle, in turn (Tidal's `cat`/`slowcat`).
public func slowcat<T>(_ ps: [Pattern<T>]) -> Pattern<T> {
    if ps.isEmpty { return .silence }
    let qs = ps.map(\.query)
    let n = Int64(ps.count)
    return Pattern { st in
        st.cycles.flatMap { a -> [Event<T>] in
            let cyc = a.start.floorInt
            let i = ((cyc % n) + n) % n
            // Haskell's `div` floors.
            let d = cyc - i
            let fl = d >= 0 ? d / n : -((-d + n - 1) / n)
            let offset = Time(cyc - fl)
            return qs[Int(i)](Arc(a.start - offset, a.stop - offset)).map { e in
                Event(context: e.context, whole: e.whole.map { $0.withTime { $0 + offset } },
                      part: e.part.withTime { $0 + offset }, value: e.value)
            }
        }
    }
}

/// All of them squeezed into one cycle (Tidal's `fastcat`).
public func fastcat<T>(_ ps: [Pattern<T>]) -> Pattern<T> { _fast(Time(Int64(ps.count)), slowcat(ps)) }

/// Each pattern in its share of the cycle, by weight (Tidal's `timeCat`).
public func timecat<T>(_ tps: [(Time, Pattern<T>)]) -> Pattern<T> {
    let total = tps.reduce(Time.zero) { $0 + $1.0 }
    var t = Time.zero
    var parts: [Pattern<T>] = []
    for (w, p) in tps {
        parts.append(compressArc(Arc(t / total, (t + w) / total), p))
        t += w
    }
    return stack(parts)
}

/// All at once (Tidal's `stack`).
public func stack<T>(_ ps: [Pattern<T>]) -> Pattern<T> {
    let qs = ps.map(\.query)
    return Pattern { a in qs.flatMap { $0(a) } }
}

public func _fast<T>(_ rate: Time, _ p: Pattern<T>) -> Pattern<T> {
    if rate == .zero { return .silence }
    if rate < .zero { return rev(_fast(-rate, p)) }
    return p.withResultTime { $0 / rate }.withQueryTime { $0 * rate }
}

public func _slow<T>(_ rate: Time, _ p: Pattern<T>) -> Pattern<T> {
    rate == .zero ? .silence : _fast(rate.reciprocal, p)
}

public func fast<T>(_ rate: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_fast, rate, p) }
public func slow<T>(_ rate: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_slow, rate, p) }

/// Each cycle played backwards (Tidal's `rev`).
public func rev<T>(_ p: Pattern<T>) -> Pattern<T> {
    let q = p.query
    return Pattern<T> { st in
        let mid = st.start.sam + Time(1, 2)
        func mirror(_ a: Arc) -> Arc { Arc(mid - (a.stop - mid), mid + (mid - a.start)) }
        return q(mirror(st)).map { e in
            var out = e
            out.part = mirror(e.part)
            if let w = e.whole {
                // Relative to the part, mirrored with it, then absolute again.
                let rs = e.part.start - w.start, re = w.stop - e.part.stop
                out.whole = Arc(out.part.start - re, out.part.stop + rs)
            }
            return out
        }
    }.splitQueries()
}

/// Squeezes each cycle into `[s, e)` of it, silent elsewhere (Tidal's `compressArc`).
public func compressArc<T>(_ arc: Arc, _ p: Pattern<T>) -> Pattern<T> {
    let s = arc.start, e = arc.stop
    if s > e || s > 1 || e > 1 || s < 0 || e < 0 { return .silence }
    return _fastGap((e - s).reciprocal, p).rotR(s)
}

/// Faster, but leaving a gap so each cycle still starts on its cycle (Tidal's `_fastGap`).
public func _fastGap<T>(_ r: Time, _ p: Pattern<T>) -> Pattern<T> {
    if r <= .zero { return .silence }
    let r2 = max(r, 1)
    let q = p.query
    @Sendable func munge(_ t: Time) -> Time { t.sam + min(1, r2 * t.cyclePos) }
    let inner = Pattern<T> { a in
        let a2 = Arc(munge(a.start), munge(a.stop))
        if a2.start == a.start.nextSam { return [] }
        return q(a2)
    }
    return inner.withResultArc { a in
        let b = a.start.sam
        return Arc(b + (a.start - b) / r2, b + (a.stop - b) / r2)
    }.splitQueries()
}

/// Tidal's `zoomArc`: plays the part `[s, e)` of each cycle over the whole cycle.
public func zoomArc<T>(_ arc: Arc, _ p: Pattern<T>) -> Pattern<T> {
    let s = arc.start, d = arc.stop - arc.start
    if d <= .zero { return .silence }
    @Sendable func mapCycle(_ a: Arc, _ f: (Time) -> Time) -> Arc { let b = a.start.sam; return Arc(b + f(a.start - b), b + f(a.stop - b)) }
    return p.withQueryArc { mapCycle($0) { $0 * d + s } }.withResultArc { mapCycle($0) { ($0 - s) / d } }.splitQueries()
}

/// A continuous signal sampled at the middle of each query (Tidal's `sig`).
public func sig<T>(_ f: @escaping @Sendable (Time) -> T) -> Pattern<T> {
    Pattern { a in
        if a.start > a.stop { return [] }
        return [Event(whole: nil, part: a, value: f(a.start + (a.stop - a.start) / 2))]
    }
}

/// Tidal's `when`: `f` applied in the cycles whose number passes `test`.
public func when<T>(_ test: @escaping @Sendable (Int64) -> Bool, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    let plain = p.query, changed = f(p).query
    return Pattern<T> { st in test(st.start.floorInt) ? changed(st) : plain(st) }.splitQueries()
}

/// Tidal's `whenT`: `f` applied where the query's start passes `test`.
public func whenT<T>(_ test: @escaping @Sendable (Time) -> Bool, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    let plain = p.query, changed = f(p).query
    return Pattern<T> { st in test(st.start) ? changed(st) : plain(st) }.splitQueries()
}
