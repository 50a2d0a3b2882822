/// Tidal 1.7.10's functions that put a pattern inside the events of another or fit it to its
/// own span (`Sound.Tidal.UI`): `substruct` (`substruct'` is beside `stripe`, which uses it),
/// `stretch`; and `soak`, a function applied again each cycle.

// Thread: any (all of this file)

/// Each true event of `s` replaced by the whole of `p` squeezed into it (Tidal's `substruct`).
/// Tidal returns what falls in each event's whole span whatever the query; here only what falls
/// in the query (the same for whole-cycle queries), as `substruct'` (Randomness.swift), so that
/// a scheduler querying a cycle in slices posts each event once.
public func substruct<T>(_ s: Pattern<Bool>, _ p: Pattern<T>) -> Pattern<T> {
    let q = s.query
    return Pattern { st in
        q(st).filter(\.value).flatMap { e -> [Event<T>] in
            let a = e.wholeOrPart
            return compressArc(a.cycleArc, p).query(a).compactMap { x in
                guard let part = x.part.subArc(st) else { return nil }
                if part.start == part.stop, x.part.start != x.part.stop { return nil }
                var c = x
                c.part = part
                return c
            }
        }
    }
}

/// Each cycle zoomed to the span its events take, so that they fill the cycle (Tidal's `stretch`).
public func stretch<T>(_ p: Pattern<T>) -> Pattern<T> {
    let q = p.query
    return Pattern<T> { st in
        let s = st.start
        let arcs = q(Arc(s.sam, s.nextSam)).map(\.wholeOrPart)
        let enclosing = Arc(arcs.map(\.start).min() ?? 0, arcs.map(\.stop).max() ?? 1)
        return zoomArc(enclosing.cycleArc, p).query(st)
    }.splitQueries()
}

/// The pattern, then `f` of it, then `f` of that, … one a cycle, `depth` of them (Tidal's `soak`).
public func soak<T>(_ depth: Int, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    guard depth > 0 else { return .silence }
    var ps = [p]
    for _ in 1..<min(depth, 256) { ps.append(f(ps[ps.count - 1])) }
    return slowcat(ps)
}
