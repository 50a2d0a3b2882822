/// Euclidean rhythms: Tidal 1.7.10's `Sound.Tidal.Bjorklund` and the `_euclid` family of
/// `Sound.Tidal.UI`, as the mini-notation's `(k,n,r)` and the `euclid` functions use them.

/// Bjorklund's algorithm (Tidal's `bjorklund (k, n)`): `k` onsets spread over `n` steps.
/// Counts past 100000 give no steps rather than a long wait.
// Thread: any
public func bjorklund(_ k: Int, _ n: Int) -> [Bool] {
    guard k.magnitude <= 100_000, n.magnitude <= 100_000 else { return [] }
    var i = k, j = n - k
    var xs = [[Bool]](repeating: [true], count: max(0, i))
    var ys = [[Bool]](repeating: [false], count: max(0, j))
    // bjorklund': `left` when i > j, `right` otherwise, until min i j <= 1.
    while min(i, j) > 1 {
        if i > j {
            // left ((i,j),(xs,ys)) = ((j,i-j),(zipWith (++) xs' ys, xs'')) where (xs',xs'') = splitAt j xs
            let head = Array(xs.prefix(j)), rest = Array(xs.dropFirst(j))
            let zipped = zip(head, ys).map { $0 + $1 }
            (i, j) = (j, i - j)
            xs = zipped; ys = rest
        } else {
            // right ((i,j),(xs,ys)) = ((i,j-i),(zipWith (++) xs ys', ys'')) where (ys',ys'') = splitAt i ys
            let head = Array(ys.prefix(i)), rest = Array(ys.dropFirst(i))
            xs = zip(xs, head).map { $0 + $1 }
            ys = rest
            j = j - i
        }
    }
    return xs.flatMap { $0 } + ys.flatMap { $0 }
}

/// `p` on the onsets of `bjorklund(k, n)`, one step each, silent on the others (Tidal's `_euclid`).
// Thread: any
public func _euclid<T>(_ k: Int, _ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    fastcat(bjorklund(k, n).map { $0 ? p : .silence })
}

/// `p` on the steps `_euclid` leaves silent (Tidal's `_euclidInv`).
// Thread: any
public func _euclidInv<T>(_ k: Int, _ n: Int, _ p: Pattern<T>) -> Pattern<T> {
    fastcat(bjorklund(k, n).map { $0 ? .silence : p })
}

/// `_euclid` turned `rot` steps to the left (Tidal's `_euclidOff`; `n` of 0 is silence).
// Thread: any
public func _euclidOff<T>(_ k: Int, _ n: Int, _ rot: Int, _ p: Pattern<T>) -> Pattern<T> {
    if n == 0 { return .silence }
    return _euclid(k, n, p).rotL(Time(Int64(rot), Int64(n)))
}

/// The rhythm as booleans, every step an event (Tidal's `_euclidBool`).
// Thread: any
public func _euclidBool(_ k: Int, _ n: Int) -> Pattern<Bool> {
    fastcat(bjorklund(k, n).map { Pattern.pure($0) })
}

/// Tidal's `_euclidOffBool`: the rhythm's booleans where `p` is true, negated where it is false,
/// turned `rot` steps left.
// Thread: any
public func _euclidOffBool(_ k: Int, _ n: Int, _ rot: Int, _ p: Pattern<Bool>) -> Pattern<Bool> {
    if n == 0 { return .silence }
    return appBoth(_euclidBool(k, n), p) { a, b in b ? a : !a }.rotL(Time(Int64(rot), Int64(n)))
}

/// Tidal's `tParam3`: a function of three plain values applied through three patterns of them.
// Thread: any
public func tParam3<A: Sendable, B: Sendable, C: Sendable, T>(_ f: @escaping @Sendable (A, B, C, Pattern<T>) -> Pattern<T>,
                                                      _ pa: Pattern<A>, _ pb: Pattern<B>, _ pc: Pattern<C>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(appBoth(appBoth(pa, pb) { ($0, $1) }, pc) { ab, c in f(ab.0, ab.1, c, p) })
}

/// Euclidean rhythms within Euclidean rhythms (Tidal's `_distrib`): `distrib [3, 5, 8]` plays 5
/// of 8 steps (Bjorklund), and 3 of those 5; the pattern's events where the result is true.
public func distrib<T>(_ xs: [Int], _ p: Pattern<T>) -> Pattern<T> {
    guard let last = xs.last, last > 0, xs.allSatisfy({ $0 >= 0 }) else { return .silence }
    // Tidal's distrib': the layer's onsets pick, in order, from what the next layer kept.
    func spread(_ layer: [Bool], _ kept: [Bool]) -> [Bool] {
        var out: [Bool] = [], k = kept[...]
        for onset in layer {
            if onset, let first = k.first { out.append(first); k = k.dropFirst() } else { out.append(false) }
        }
        return out
    }
    let layers = zip(xs, xs.dropFirst()).map { bjorklund($0, $1) }
    var bools = [Bool](repeating: true, count: last)
    for layer in layers { bools = spread(layer, bools) }
    let gate = fastcat(bools.map { Pattern<Bool>.pure($0) }).filterValues { $0 }
    return appBoth(gate, p) { _, v in v }
}
