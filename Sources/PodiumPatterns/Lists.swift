/// Tidal 1.7.10's functions that take lists (`Sound.Tidal.UI`): a function spread over values,
/// functions layered or picked, patterns picked by number, values fitted to steps. The
/// language builds the list's patterns (`spread fast [1, 2]` is `[fast 1 p, fast 2 p]`); these
/// combine them as Tidal does.

// Thread: any (all of this file)

/// Haskell's `!!!`: the list read cyclically.
@inline(__always)
func cyclic<T>(_ xs: [T], _ i: Int) -> T { xs[hmod(i, xs.count)] }

/// One each cycle, in turn (Tidal's `spread`/`slowspread`, given `map (\x -> f x p) xs`).
public func spread<T>(_ applied: [Pattern<T>]) -> Pattern<T> { slowcat(applied) }

/// All of them in each cycle (Tidal's `fastspread`).
public func fastspread<T>(_ applied: [Pattern<T>]) -> Pattern<T> { fastcat(applied) }

/// One of them at random each cycle (Tidal's `spreadChoose`/`spreadr`: `_segment 1 (choose
/// xs)` bound to the function).
public func spreadChoose<T>(_ applied: [Pattern<T>]) -> Pattern<T> {
    if applied.isEmpty { return .silence }
    return bind(_segment(1, choose(Array(applied.indices)))) { applied[$0] }
}

/// Every function of `p`, stacked (Tidal's `layer`).
public func layer<T>(_ fs: [@Sendable (Pattern<T>) -> Pattern<T>], _ p: Pattern<T>) -> Pattern<T> {
    stack(fs.map { $0(p) })
}

/// Tidal's `_select`: the pattern at `f` (0 to 1) along the list.
public func _select<T>(_ f: Double, _ ps: [Pattern<T>]) -> Pattern<T> {
    if ps.isEmpty { return .silence }
    let x = (max(0, min(1, f.isNaN ? 0 : f)) * Double(ps.count - 1)).rounded(.down)
    return ps[Int(x)]
}

/// Tidal's `select`, the position patterned.
public func select<T>(_ f: Pattern<Double>, _ ps: [Pattern<T>]) -> Pattern<T> { innerJoin(f.map { _select($0, ps) }) }

/// Tidal's `_selectF`: the function at `f` (0 to 1) along the list, applied.
public func _selectF<T>(_ f: Double, _ fs: [@Sendable (Pattern<T>) -> Pattern<T>], _ p: Pattern<T>) -> Pattern<T> {
    if fs.isEmpty { return .silence }
    let x = (max(0, min(0.999999, f.isNaN ? 0 : f)) * Double(fs.count)).rounded(.down)
    return fs[Int(x)](p)
}

/// Tidal's `selectF`.
public func selectF<T>(_ f: Pattern<Double>, _ fs: [@Sendable (Pattern<T>) -> Pattern<T>], _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(f.map { _selectF($0, fs, p) })
}

/// Tidal's `pickF`: the function numbered by the pattern (cyclically), applied.
public func pickF<T>(_ i: Pattern<Int>, _ fs: [@Sendable (Pattern<T>) -> Pattern<T>], _ p: Pattern<T>) -> Pattern<T> {
    if fs.isEmpty { return .silence }
    return innerJoin(i.map { cyclic(fs, $0)(p) })
}

/// Tidal's `squeeze`: the pattern numbered by each event, squeezed into it.
public func squeeze<T>(_ i: Pattern<Int>, _ ps: [Pattern<T>]) -> Pattern<T> {
    if ps.isEmpty { return .silence }
    return squeezeJoin(i.map { cyclic(ps, $0) })
}

/// `every` for each number, nested (Tidal's `foldEvery`: `foldr (`_every` f) p ns`).
public func foldEvery<T>(_ ns: [Int], _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    ns.reversed().reduce(p) { acc, n in _every(n, f, acc) }
}

/// Values from a list by the steps of a pattern of numbers, moved on by `perCycle` each cycle
/// (Tidal's `_fit`).
public func _fit<T: Sendable>(_ perCycle: Int, _ xs: [T], _ p: Pattern<Int>) -> Pattern<T> {
    if xs.isEmpty { return .silence }
    return p.withEvents { es in
        es.map { e in
            let cycle = Int(clamping: e.part.start.floorInt)
            let (shift, overflow) = perCycle.multipliedReportingOverflow(by: cycle)
            let (i, o2) = e.value.addingReportingOverflow(overflow ? 0 : shift)
            return e.with(value: cyclic(xs, o2 ? e.value : i))
        }
    }
}

/// Tidal's `fit`, the step per cycle patterned.
public func fit<T: Sendable>(_ perCycle: Pattern<Int>, _ xs: [T], _ p: Pattern<Int>) -> Pattern<T> {
    innerJoin(perCycle.map { _fit($0, xs, p) })
}

/// Tidal's `fit'`: the pattern (`cyc` times faster) cut into `n` parts by `from`'s steps (part
/// i: where `from` is i), each part stretched to a cycle, then played in the order `to` gives,
/// moved on by `n` each cycle (`squeezeJoin $ _fit n masks to`).
public func fitParts<T: Sendable>(_ cyc: Pattern<Time>, _ n: Int, _ from: Pattern<Int>, _ to: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> {
    guard n > 0 else { return .silence }
    let fastP = fast(cyc, p), fastFrom = fast(cyc, from)
    let masks = (0..<min(n, 4096)).map { i in stretch(mask(fastFrom.filterValues { $0 == i }.map { _ in true }, fastP)) }
    return squeezeJoin(_fit(n, masks, to))
}

/// One of `xs` at random, each by its weight (Tidal's `wchooseBy`).
public func wchooseBy<T: Sendable>(_ f: Pattern<Double>, _ pairs: [(T, Double)]) -> Pattern<T> {
    if pairs.isEmpty { return .silence }
    var sums: [Double] = []
    var total = 0.0
    for (_, w) in pairs { total += w; sums.append(total) }
    let values = pairs.map(\.0)
    let last = values[values.count - 1]
    let cumulative = sums, whole = total
    return f.map { r in
        let x = r * whole
        // Haskell's `head (findIndices (> r * total) cweights)`; past the end (never, for r < 1) the last.
        if let i = cumulative.firstIndex(where: { $0 > x }) { return values[i] }
        return last
    }
}

/// Tidal's `wchoose`.
public func wchoose<T: Sendable>(_ pairs: [(T, Double)]) -> Pattern<T> { wchooseBy(rand(), pairs) }

/// One pattern each cycle, at random by weight (Tidal's `wrandcat`: `unwrap $ wchooseBy
/// (segment 1 rand)`).
public func wrandcat<T>(_ pairs: [(Pattern<T>, Double)]) -> Pattern<T> {
    if pairs.isEmpty { return .silence }
    let indexed = pairs.enumerated().map { ($0.offset, $0.element.1) }
    let ps = pairs.map(\.0)
    return bind(wchooseBy(_segment(1, rand()), indexed)) { ps[$0] }
}

/// One of `xs` at random, a new one each cycle (Tidal's `cycleChoose`).
public func cycleChoose<T: Sendable>(_ xs: [T]) -> Pattern<T> { _segment(1, choose(xs)) }

/// The pattern with `f` of it, of `f` of that … `n` layers, arpeggiated (Tidal's `_plyWith`).
public func _plyWith<T>(_ n: Double, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    // Tidal recurses n times; more than 1,024 layers is refused as silence (it would never end).
    guard n <= 1024 else { return .silence }
    var compound = p
    var k = n
    while k > 1 { compound = p.overlay(f(compound)); k -= 1 }
    return arpeggiate(compound)
}

/// Tidal's `plyWith`.
public func plyWith<T>(_ n: Pattern<Double>, _ f: @escaping @Sendable (Pattern<T>) -> Pattern<T>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(n.map { _plyWith($0, f, p) })
}

/// Each value looked up by its name in `pairs`; one that is not there is dropped (Tidal's `swap`).
public func swap<T: Sendable>(_ pairs: [(String, T)], _ p: Pattern<String>) -> Pattern<T> {
    Pattern { a in
        p.query(a).compactMap { e in
            pairs.first { $0.0 == e.value }.map { Event(context: e.context, whole: e.whole, part: e.part, value: $0.1) }
        }
    }
}

/// The list's values, `steps` steps a cycle, in proportions chosen by the pattern (sampled once
/// a cycle, 0 to 1) among every way of sharing the steps out, the most even first (Tidal's
/// `permstep`). Over 100,000 ways, or a choice outside them, is silence (Tidal stops).
public func permstep<T: Sendable>(_ steps: Int, _ things: [T], _ p: Pattern<Double>) -> Pattern<T> {
    let n = things.count
    guard n > 0, steps >= n else { return .silence }
    // The ways of writing `steps` as n parts of at least 1: C(steps − 1, n − 1) of them.
    var ways = 1.0
    for k in 0..<(n - 1) { ways = ways * Double(steps - 1 - k) / Double(k + 1) }
    guard ways <= 100_000 else { return .silence }
    func perms(_ n: Int, _ total: Int) -> [[Int]] {
        if n == 0 { return [] }
        if n == 1 { return [[total]] }
        guard total - (n - 1) >= 1 else { return [] }
        return (1...(total - (n - 1))).flatMap { x in perms(n - 1, total - x).map { [x] + $0 } }
    }
    let average = Double(steps) / Double(n)
    func deviance(_ xs: [Int]) -> Double { xs.reduce(0) { $0 + abs(average - Double($1)) } }
    // Haskell's sortOn is stable: ties keep their order.
    let ps = perms(n, steps).enumerated().sorted { (deviance($0.element), $0.offset) < (deviance($1.element), $1.offset) }.map(\.element)
    guard !ps.isEmpty else { return .silence }
    return Pattern<Pattern<T>>.unwrap(_segment(1, p).map { x -> Pattern<T> in
        let i = (x * Double(ps.count - 1)).rounded(.down)
        guard i.isFinite, i >= 0, i < Double(ps.count) else { return .silence }
        let counts = ps[Int(i)]
        return fastcat(zip(counts, things).flatMap { c, thing in [Pattern<T>](repeating: .pure(thing), count: c) })
    })
}
