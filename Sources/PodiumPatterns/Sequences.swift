/// Tidal 1.7.10's functions that arrange patterns over longer spans (`Sound.Tidal.UI`,
/// `Control`): patterns at set times (`seqP`), patterns by name under a pattern of names (`ur`,
/// `inhabit`), functions woven across a pattern (`weave`), and fades.

// Thread: any (all of this file)

/// Tidal's `playFor`: only what `p` has in `[s, e)`.
public func playFor<T>(_ s: Time, _ e: Time, _ p: Pattern<T>) -> Pattern<T> {
    let q = p.query
    return Pattern { st in Arc(s, e).subArc(st).map(q) ?? [] }
}

/// Each pattern from its start to its stop cycle, started from its own cycle 0 at the cycle its
/// start is in (Tidal's `seqP`).
public func seqP<T>(_ ps: [(Time, Time, Pattern<T>)]) -> Pattern<T> {
    stack(ps.map { s, e, p in playFor(s, e, p.rotR(s.sam)) })
}

/// `seqP` played again and again from its earliest start to its latest stop (Tidal's `seqPLoop`).
public func seqPLoop<T: Sendable>(_ ps: [(Time, Time, Pattern<T>)]) -> Pattern<T> {
    guard let minT = ps.map(\.0).min(), let maxT = ps.map(\.1).max() else { return .silence }
    return timeLoop(.pure(maxT - minT), seqP(ps).rotL(minT))
}

/// The pattern each name of `names` stands for, squeezed into its event (Tidal's `inhabit`).
public func inhabit<T>(_ ps: [(String, Pattern<T>)], _ names: Pattern<String>) -> Pattern<T> {
    squeezeJoin(names.map { n in ps.first { $0.0 == n }?.1 ?? .silence })
}

/// A pattern of names (`"a b:double"`) over `t` cycles, each name playing its pattern, and a
/// name after `:` applying its function to it (Tidal's `ur`).
public func ur<T: Sendable>(_ t: Time, _ outer: Pattern<String>, _ ps: [(String, Pattern<T>)],
                  _ fs: [(String, @Sendable (Pattern<T>) -> Pattern<T>)]) -> Pattern<T> {
    let fast = ps.map { ($0.0, _fast(t, $0.1)) }
    let timed = outer.filterDigital().withEvents { es in es.map { e in e.with(value: (e.wholeOrPart, e.value)) } }
    let adjusted = timed.map { av -> Pattern<T> in
        let (a, v) = av
        let words = v.split(separator: ":")
        guard let name = words.first else { return .silence }
        let p = fast.first { $0.0 == String(name) }?.1 ?? .silence
        guard words.count > 1, a.stop > a.start else { return p }
        let identity: @Sendable (Pattern<T>) -> Pattern<T> = { $0 }
        let f = fs.first { $0.0 == String(words[1]) }?.1 ?? identity
        return inside(.pure((a.stop - a.start).reciprocal), f, p).rotR(a.start)
    }
    return _slow(t, Pattern<Pattern<T>>.unwrap(adjusted))
}

/// Each function of `p` at its own offset, the whole stretched over `t` cycles (Tidal's
/// `weaveWith`, also `weave'`).
public func weaveWith<T>(_ t: Time, _ p: Pattern<T>, _ fs: [@Sendable (Pattern<T>) -> Pattern<T>]) -> Pattern<T> {
    if fs.isEmpty { return .silence }
    let l = Int64(fs.count)
    return _slow(t, stack(fs.enumerated().map { i, f in _fast(t, f(_slow(t, p))).rotL(Time(Int64(i), l)) }))
}

/// Tidal's `weave`: the control pattern `p` applied (`#`) to each pattern at its own offset.
public func weave(_ t: Time, _ p: Pattern<ControlMap>, _ ps: [Pattern<ControlMap>]) -> Pattern<ControlMap> {
    weaveWith(t, p, ps.map { x in { sharp(x, $0) } })
}

/// Tidal's `interlace`: `weave 16 (shape (sine * 0.9))` over two patterns.
public func interlace(_ a: Pattern<ControlMap>, _ b: Pattern<ControlMap>) -> Pattern<ControlMap> {
    weave(16, control("shape", sine().map { .double($0 * 0.9) }), [a, b])
}

/// Events dropped more and more over `dur` cycles from `from` (Tidal's `fadeOutFrom`).
public func fadeOutFrom<T>(_ from: Time, _ dur: Time, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(_slow(dur, envL()).rotR(from).map { _degradeBy($0, p) })
}

/// Tidal's `fadeOut`.
public func fadeOut<T>(_ dur: Time, _ p: Pattern<T>) -> Pattern<T> { fadeOutFrom(.zero, dur, p) }

/// Events dropped less and less over `dur` cycles from `from` (Tidal's `fadeInFrom`).
public func fadeInFrom<T>(_ from: Time, _ dur: Time, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(_slow(dur, envLR()).rotR(from).map { _degradeBy($0, p) })
}

/// Tidal's `fadeIn`.
public func fadeIn<T>(_ dur: Time, _ p: Pattern<T>) -> Pattern<T> { fadeInFrom(.zero, dur, p) }

/// Two patterns woven as cloth is, `n` threads a cycle, over and under (Tidal's `tabby`): the
/// warp threads from `p`, the weft from `p2`, each a 1/n zoom of its pattern, played over n cycles.
public func tabby<T>(_ n: Int, _ p: Pattern<T>, _ p2: Pattern<T>) -> Pattern<T> {
    guard n > 0, n <= 1024 else { return .silence }
    let row = Array(0..<n)
    let weft: [[Int]] = (0..<(n / 2)).flatMap { _ in [row, Array(row.reversed())] }
    // Haskell's transpose of equal rows.
    let warp: [[Int]] = weft.isEmpty ? [] : (0..<n).map { i in weft.map { $0[i] } }
    func thread(_ xs: [[Int]], _ pp: Pattern<T>) -> Pattern<T> {
        let size = Int64(n)
        return _slow(Time(size), fastcat(xs.joined().map { i in zoomArc(Arc(Time(Int64(i), size), Time(Int64(i) + 1, size)), pp) }))
    }
    let half = Time(Int64(n), 2)
    let weftMask = every(.pure(2), rev, _fast(half, fastcat([Pattern<Bool>.silence, .pure(true)])))
    let warpMask = every(.pure(2), rev, _fast(half, fastcat([Pattern<Bool>.pure(true), .silence])))
    return stack([mask(warpMask, thread(warp, p)), mask(weftMask, thread(weft, p2))])
}
