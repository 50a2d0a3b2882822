/// Tidal 1.7.10's pattern transformations (`Sound.Tidal.Core`, `Sound.Tidal.UI`,
/// `Sound.Tidal.Control`), ported function by function. A name with a leading underscore takes
/// plain values; the one without takes patterns and goes through `tParam`/`innerJoin` exactly
/// as Tidal does, so patterned arguments change where Tidal's change.

// Thread: any (all of this file)

/// Haskell's `mod` on integers: the remainder with the divisor's sign (0 for a divisor of 0).
@inline(__always)
func hmod(_ a: Int, _ n: Int) -> Int {
    // (n = ±1: every remainder is 0; Int.min % -1 would trap)
    if n == 0 || n == 1 || n == -1 { return 0 }
    let r = a % n
    return (r != 0 && (r < 0) != (n < 0)) ? r + n : r
}

/// Tidal's monadic bind (`>>=`): each value becomes a pattern, wholes intersected (`unwrap`).
public func bind<A, T>(_ pa: Pattern<A>, _ f: @escaping @Sendable (A) -> Pattern<T>) -> Pattern<T> {
    Pattern<Pattern<T>>.unwrap(pa.map(f))
}

// MARK: shifting

/// Shifts earlier by a patterned number of cycles (Tidal's `<~`).
public func rotL<T>(_ t: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam({ $1.rotL($0) }, t, p) }

/// Shifts later by a patterned number of cycles (Tidal's `~>`).
public func rotR<T>(_ t: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam({ $1.rotR($0) }, t, p) }

// MARK: conditionals

/// `f` applied every `n`th cycle, from cycle 0 (Tidal's `_every`; 0 leaves the pattern alone).
public func _every<T>(_ n: Int, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    if n == 0 { return p }
    return when({ hmod(Int($0), n) == 0 }, f, p)
}

/// `f` applied every `n`th cycle, `n` patterned (Tidal's `every`).
public func every<T>(_ n: Pattern<Int>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(n.map { _every($0, f, p) })
}

/// `f` applied in the cycles whose number mod `n` is `o` (Tidal's `_every'`; `n` 0: unchanged).
public func _everyOffset<T>(_ n: Int, _ o: Int, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    if n == 0 { return p }
    return when({ hmod(Int($0), n) == o }, f, p)
}

/// Tidal's `every'`: `f` every `n`th cycle starting at cycle `o` (bound, not inner-joined, as 1.7.10).
public func everyOffset<T>(_ n: Pattern<Int>, _ o: Pattern<Int>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    bind(n) { n in bind(o) { o in _everyOffset(n, o, f, p) } }
}

/// `f` applied where the cycle position mod `a` is at least `b` (Tidal's `_whenmod`).
public func _whenmod<T>(_ a: Time, _ b: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    whenT({ $0.mod(a) >= b }, f, p)
}

/// Tidal's `whenmod` with patterned `a` and `b`.
public func whenmod<T>(_ a: Pattern<Time>, _ b: Pattern<Time>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(appBoth(a, b) { a, b in _whenmod(a, b, f, p) })
}

/// Tidal's `while`: `f` applied where the boolean pattern is true.
public func whilePattern<T>(_ b: Pattern<Bool>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    sew(b, f(p), p)
}

/// Tidal's `mask`: keeps the parts of `p` where `b` is true.
public func mask<T>(_ b: Pattern<Bool>, _ p: Pattern<T>) -> Pattern<T> {
    appLeft(p, b.filterValues { $0 }) { v, _ in v }
}

/// Tidal's `sew`: `a` where `b` is true, `c` where it is false.
public func sew<T>(_ b: Pattern<Bool>, _ a: Pattern<T>, _ c: Pattern<T>) -> Pattern<T> {
    mask(b, a).overlay(mask(b.map { !$0 }, c))
}

/// Tidal's `struct`: `p` sampled at `b`'s true events.
public func structure<T>(_ b: Pattern<Bool>, _ p: Pattern<T>) -> Pattern<T> {
    appLeft(b, p) { ($0, $1) }.filterValues { $0.0 }.map { $0.1 }
}

/// `f` applied to the events starting in `[s, e)` of each cycle (Tidal's `within`).
public func within<T>(_ s: Time, _ e: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    let inside: @Sendable (Time) -> Bool = { t in let c = t.cyclePos; return c >= s && c < e }
    return stack([f(p).filterWhen(inside), p.filterWhen { !inside($0) }])
}

// MARK: layering

/// The pattern with `f` of it on top (Tidal's `superimpose`).
public func superimpose<T>(_ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    stack([p, f(p)])
}

/// `f` of the pattern shifted `t` later, on top (Tidal's `_off`).
public func _off<T>(_ t: Time, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    superimpose({ f($0.rotR(t)) }, p)
}

/// Tidal's `off` with a patterned shift.
public func off<T>(_ t: Pattern<Time>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(t.map { _off($0, f, p) })
}

// MARK: rearranging cycles

/// Each cycle starts `1/n` later into the pattern than the last (Tidal's `_iter`).
public func _iter<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    slowcat(n <= 0 ? [] : (0..<n).map { p.rotL(Time(Int64($0), Int64(n))) })
}

/// Tidal's `iter`.
public func iter<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_iter, n, p) }

/// Like `_iter`, the other way (Tidal's `_iter'`).
public func _iterBack<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    slowcat(n <= 0 ? [] : (0..<n).map { p.rotR(Time(Int64($0), Int64(n))) })
}

/// Tidal's `iter'`.
public func iterBack<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_iterBack, n, p) }

/// Every other cycle backwards (Tidal's `palindrome`).
public func palindrome<T>(_ p: Pattern<T>) -> Pattern<T> { slowcat([p, rev(p)]) }

/// Every other cycle squashed into its first half and shifted a quarter later (Tidal's `brak`).
public func brak<T>(_ p: Pattern<T>) -> Pattern<T> {
    when({ hmod(Int($0), 2) == 1 }, { fastcat([$0, .silence]).rotR(Time(1, 4)) }, p)
}

/// Each event repeated `n` times within itself (Tidal's `_ply`).
public func _ply<T: Sendable>(_ n: Time, _ p: Pattern<T>) -> Pattern<T> {
    squeezeJoin(p.map { _fast(n, .pure($0)) })
}

/// Tidal's `ply`.
public func ply<T: Sendable>(_ n: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_ply, n, p) }

/// `f` applied to one `n`th of each cycle in turn (Tidal's `_chunk`).
/// Worked out per cycle as `slowcat` of Tidal's list would play it (cycle c plays part c mod n
/// of cycle ⌊c/n⌋), so that a large `n` (`runWith 1e12`) costs nothing until queried.
public func _chunk<T>(_ n: Int, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    if n <= 0 { return .silence }
    let k = Int64(n)
    return Pattern<T> { st in
        st.cycles.flatMap { a -> [Event<T>] in
            let cyc = a.start.floorInt
            let i = ((cyc % k) + k) % k
            let offset = Time(cyc - (cyc - i) / k)
            let part = within(Time(i, k), Time(i + 1, k), f, p)
            return part.query(Arc(a.start - offset, a.stop - offset)).map { e in
                Event(context: e.context, whole: e.whole.map { $0.withTime { $0 + offset } },
                      part: e.part.withTime { $0 + offset }, value: e.value)
            }
        }
    }
}

/// Tidal's `chunk`.
public func chunk<T>(_ n: Pattern<Int>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(n.map { _chunk($0, f, p) })
}

/// `_chunk` running backwards through the cycle (Tidal's `_chunk'`).
public func _chunkBack<T>(_ n: Int, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    // (`run n` is built as a list: more than 65,536 parts is silence rather than that list)
    guard n > 0, n <= 1 << 16 else { return .silence }
    let nt = Time(Int64(n))
    let order = _slow(nt, rev(_run(n)))
    return bind(order) { i in within(Time(Int64(i), Int64(n)), Time(Int64(i + 1), Int64(n)), f, p) }
}

/// Tidal's `chunk'`.
public func chunkBack<T>(_ n: Pattern<Int>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(n.map { _chunkBack($0, f, p) })
}

/// `0, 1 … n-1` in one cycle (Tidal's `_run` on integers).
public func _run(_ n: Int) -> Pattern<Int> { fastcat(n <= 0 ? [] : (0..<n).map { .pure($0) }) }

/// Haskell's `[0 .. n-1]` on fractional numbers: up to `n - 1/2`.
func fractionalRange(_ n: Double) -> [Double] {
    var out: [Double] = []
    var x = 0.0
    while x <= n - 1 + 0.5, out.count < 100_000 { out.append(x); x += 1 }
    return out
}

/// Tidal's `run`: `0 .. n-1` squeezed into each cycle, `n` patterned.
public func run(_ n: Pattern<Double>) -> Pattern<Double> { bind(n) { fastcat(fractionalRange($0).map { .pure($0) }) } }

/// Tidal's `scan`: `run 1`, `run 2` … `run n`, one a cycle.
public func scan(_ n: Pattern<Double>) -> Pattern<Double> {
    bind(n) { n in slowcat(fractionalRange(n).map { k in fastcat(fractionalRange(k + 1).map { .pure($0) }) }) }
}

// MARK: time within the cycle

/// Samples `p` `n` times a cycle, `n` patterned (Tidal's `segment`).
public func segment<T>(_ n: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_segment, n, p) }

/// Repeats the first `t` of each cycle (negative: the last) to fill it (Tidal's `_linger`).
public func _linger<T>(_ t: Time, _ p: Pattern<T>) -> Pattern<T> {
    if t < .zero { return _fast(t.reciprocal, zoomArc(Arc(1 + t, 1), p)) }
    return _fast(t.reciprocal, zoomArc(Arc(0, t), p))
}

/// Tidal's `linger`.
public func linger<T>(_ t: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_linger, t, p) }

/// Plays only the first `t` of each cycle, silent after (Tidal's `_trunc`).
public func _trunc<T>(_ t: Time, _ p: Pattern<T>) -> Pattern<T> { compressArc(Arc(0, t), zoomArc(Arc(0, t), p)) }

/// Tidal's `trunc`.
public func trunc<T>(_ t: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_trunc, t, p) }

/// `f` applied with time slowed by `n` (Tidal's `_inside`).
public func _inside<A, B>(_ n: Time, _ f: @escaping @Sendable (Pattern<A>) -> Pattern<B>, _ p: Pattern<A>) -> Pattern<B> {
    _fast(n, f(_slow(n, p)))
}

/// Tidal's `inside`.
public func inside<A: Sendable, B>(_ n: Pattern<Time>, _ f: @escaping @Sendable (Pattern<A>) -> Pattern<B>, _ p: Pattern<A>) -> Pattern<B> {
    innerJoin(n.map { _inside($0, f, p) })
}

/// Tidal's `outside`: `inside` by `1/n`.
public func outside<A: Sendable, B>(_ n: Pattern<Time>, _ f: @escaping @Sendable (Pattern<A>) -> Pattern<B>, _ p: Pattern<A>) -> Pattern<B> {
    innerJoin(n.map { _inside($0.reciprocal, f, p) })
}

/// The second half of each `1/n` shifted `x` later (Tidal's `swingBy`).
public func swingBy<T: Sendable>(_ x: Pattern<Time>, _ n: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> {
    inside(n, { within(Time(1, 2), 1, { rotR(x, $0) }, $0) }, p)
}

/// Tidal's `swing`: `swingBy (1/3)`.
public func swing<T: Sendable>(_ n: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { swingBy(.pure(Time(1, 3)), n, p) }

/// Tidal's `fastGap` with a patterned factor.
public func fastGap<T>(_ r: Pattern<Time>, _ p: Pattern<T>) -> Pattern<T> { tParam(_fastGap, r, p) }

/// Each cycle squeezed into `[s, e)` of it (Tidal's `compress`).
public func compress<T>(_ s: Time, _ e: Time, _ p: Pattern<T>) -> Pattern<T> { compressArc(Arc(s, e), p) }

/// `[s, e)` of each cycle stretched over the cycle (Tidal's `zoom`).
public func zoom<T>(_ s: Time, _ e: Time, _ p: Pattern<T>) -> Pattern<T> { zoomArc(Arc(s, e), p) }

// MARK: euclidean rhythms (the plain-valued `_euclid`, `_euclidInv`, `_euclidOff`, `bjorklund`
// and `tParam3` are in Euclid.swift)

/// Tidal's `euclid`: `k` steps with `n` onsets of `p`, both patterned.
public func euclid<T>(_ n: Pattern<Int>, _ k: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam2(_euclid, n, k, p) }

/// Tidal's `euclidInv`.
public func euclidInv<T>(_ n: Pattern<Int>, _ k: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam2(_euclidInv, n, k, p) }

/// `p` on the onsets and `q` on the rests (Tidal's `euclidFull`).
public func euclidFull<T>(_ n: Pattern<Int>, _ k: Pattern<Int>, _ p: Pattern<T>, _ q: Pattern<T>) -> Pattern<T> {
    stack([euclid(n, k, p), euclidInv(n, k, q)])
}

/// Tidal's `euclidOff` (`eoff`): `euclid` rotated left by `s` steps.
public func euclidOff<T>(_ n: Pattern<Int>, _ k: Pattern<Int>, _ s: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> {
    tParam3(_euclidOff, n, k, s, p)
}

// MARK: rotating values

/// Values moved `i` events along within each cycle, structure kept (Tidal's `_rot`); `less`
/// orders events with equal spans as Tidal's `Ord` on values does.
public func _rot<T>(_ i: Int, _ p: Pattern<T>, by less: @escaping @Sendable (T, T) -> Bool) -> Pattern<T> {
    let q = p.query
    return Pattern<T> { st in
        var es = q(Arc(st.start.sam, st.start.nextSam))
        es.sort { a, b in
            let wa = a.whole, wb = b.whole
            if wa != wb {
                guard let x = wa else { return true }
                guard let y = wb else { return false }
                return x.start != y.start ? x.start < y.start : x.stop < y.stop
            }
            if a.part != b.part { return a.part.start != b.part.start ? a.part.start < b.part.start : a.part.stop < b.part.stop }
            return less(a.value, b.value)
        }
        let n = es.count
        if n == 0 { return [] }
        let values = es.map(\.value)
        // `drop (length es - abs i)` of the cycled values: a drop past the start drops nothing.
        let shift = i >= 0 ? i % n : max(0, n - abs(i)) % n
        var out: [Event<T>] = []
        for (k, e) in es.enumerated() {
            guard let part = e.part.subArc(st) else { continue }
            out.append(Event(context: e.context, whole: e.whole, part: part, value: values[(k + shift) % n]))
        }
        return out
    }.splitQueries()
}

/// Tidal's `rot` with a patterned amount.
public func rot<T: Sendable>(_ i: Pattern<Int>, _ p: Pattern<T>, by less: @escaping @Sendable (T, T) -> Bool) -> Pattern<T> {
    tParam({ _rot($0, $1, by: less) }, i, p)
}

/// Tidal's `rot` on control patterns (maps ordered as Haskell's `Map`).
public func rot(_ i: Pattern<Int>, _ p: Pattern<ControlMap>) -> Pattern<ControlMap> { rot(i, p, by: controlMapLess) }

/// Tidal's `rot` on patterns of values (ordered as Tidal's `Ord Value`).
public func rot(_ i: Pattern<Int>, _ p: Pattern<Value>) -> Pattern<Value> { rot(i, p, by: { compareValues($0, $1) < 0 }) }
