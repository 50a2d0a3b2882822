/// Tidal 1.7.10's rearranging of a cycle's parts at random (`Sound.Tidal.UI`): `shuffle`
/// plays a random permutation of a cycle's `n` parts each cycle, `scramble` `n` random parts
/// (a part may come again). The same random numbers as Tidal's, from the cycle.

// Thread: any (all of this file)

/// The numbers 0 to n−1 in a random order each cycle, one per n-th of the cycle (Tidal's
/// `randrun`).
public func randrun(_ n: Int) -> Pattern<Int> {
    guard n > 0 else { return .silence }
    return Pattern<Int> { a in
        // Its n numbers are work, metered as cycles walked are (QueryBudget).
        guard QueryBudget.spend(n) else { return [] }
        let cycle = a.start.sam
        let rands = TidalRandom.timeToRands(cycle, n)
        // Tidal's `sortOn fst` (stable) of (random, index).
        let order = (0..<n).sorted { rands[$0] != rands[$1] ? rands[$0] < rands[$1] : $0 < $1 }
        var events: [Event<Int>] = []
        for k in 0..<n {
            let whole = Arc(cycle + Time(Int64(k), Int64(n)), cycle + Time(Int64(k + 1), Int64(n)))
            if let part = a.subArc(whole) { events.append(Event(whole: whole, part: part, value: order[k])) }
        }
        return events
    }.splitQueries()
}

/// Each n-th of the cycle plays the part of `p` that `index` names (Tidal's `_rearrangeWith`).
func rearrangeWith<T>(_ index: Pattern<Int>, _ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    // (its n parts are built as a list: more than 65,536 is silence rather than that list)
    guard n > 0, n <= 1 << 16 else { return .silence }
    let nT = Time(Int64(n))
    let parts = (0..<n).map { i in zoom(Time(Int64(i), Int64(n)), Time(Int64(i + 1), Int64(n)), p) }
    return innerJoin(index.map { i -> Pattern<T> in
        guard parts.indices.contains(i) else { return .silence }
        return _fast(nT, slowcat(Array(repeating: parts[i], count: n)))
    })
}

/// A random permutation of the cycle's `n` parts, each cycle (Tidal's `_shuffle`).
public func _shuffle<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> { rearrangeWith(randrun(n), n, p) }

public func shuffle<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_shuffle, n, p) }

/// `n` of the cycle's `n` parts chosen at random, a part perhaps more than once (Tidal's
/// `_scramble`).
public func _scramble<T>(_ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    rearrangeWith(_segment(Time(Int64(n)), _irand(n)).map { Int($0) }, n, p)
}

public func scramble<T>(_ n: Pattern<Int>, _ p: Pattern<T>) -> Pattern<T> { tParam(_scramble, n, p) }
