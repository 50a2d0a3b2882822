/// A pattern: a function from a span of time to the events in it (Tidal's `Pattern`,
/// `Sound.Tidal.Pattern`). Everything else in this module is plain functions over this type.
/// A pattern holds no state and runs no thread: querying the same arc always gives the same
/// events, which is what makes a performance replay exactly.
public struct Pattern<Value>: Sendable {
    public let query: @Sendable (Arc) -> [Event<Value>]

    // Thread: any (all of this file)
    public init(_ query: @escaping @Sendable (Arc) -> [Event<Value>]) { self.query = query }

    /// The events in `[start, stop)` (Tidal's `queryArc`).
    public func queryArc(_ start: Time, _ stop: Time) -> [Event<Value>] { query(Arc(start, stop)) }

    /// Nothing, ever (Tidal's `silence`).
    public static var silence: Pattern { Pattern { _ in [] } }

    /// The value once per cycle (Tidal's `pure`).
    public static func pure(_ v: Value) -> Pattern where Value: Sendable {
        Pattern { a in a.wholeCycles.compactMap { w in Event(whole: w, part: a.sect(w), value: v) } }
    }

    /// Queries split at cycle boundaries (Tidal's `splitQueries`).
    public func splitQueries() -> Pattern {
        let q = query
        return Pattern { a in a.cycles.flatMap(q) }
    }

    public func withQueryArc(_ f: @escaping @Sendable (Arc) -> Arc) -> Pattern {
        let q = query
        return Pattern { a in q(f(a)) }
    }

    public func withQueryTime(_ f: @escaping @Sendable (Time) -> Time) -> Pattern {
        withQueryArc { $0.withTime(f) }
    }

    public func withResultArc(_ f: @escaping @Sendable (Arc) -> Arc) -> Pattern {
        let q = query
        return Pattern { a in
            q(a).map { e in Event(context: e.context, whole: e.whole.map(f), part: f(e.part), value: e.value) }
        }
    }

    public func withResultTime(_ f: @escaping @Sendable (Time) -> Time) -> Pattern {
        withResultArc { $0.withTime(f) }
    }

    public func withEvents<B>(_ f: @escaping @Sendable ([Event<Value>]) -> [Event<B>]) -> Pattern<B> {
        let q = query
        return Pattern<B> { a in f(q(a)) }
    }

    /// Tidal's `fmap`.
    public func map<B>(_ f: @escaping @Sendable (Value) -> B) -> Pattern<B> {
        withEvents { $0.map { $0.with(value: f($0.value)) } }
    }

    public func filterValues(_ f: @escaping @Sendable (Value) -> Bool) -> Pattern {
        withEvents { $0.filter { f($0.value) } }
    }

    public func filterEvents(_ f: @escaping @Sendable (Event<Value>) -> Bool) -> Pattern {
        withEvents { $0.filter(f) }
    }

    public func filterOnsets() -> Pattern { filterEvents { $0.hasOnset } }
    public func filterDigital() -> Pattern { filterEvents { $0.isDigital } }
    public func filterAnalog() -> Pattern { filterEvents { $0.isAnalog } }

    /// Events whose whole starts at a time `test` accepts (Tidal's `filterWhen`).
    public func filterWhen(_ test: @escaping @Sendable (Time) -> Bool) -> Pattern {
        filterEvents { test($0.wholeStart) }
    }

    /// Shifted earlier by `t` cycles (Tidal's `rotL`).
    public func rotL(_ t: Time) -> Pattern { withResultTime { $0 - t }.withQueryTime { $0 + t } }
    public func rotR(_ t: Time) -> Pattern { rotL(-t) }

    /// Every event of `self`, then every event of `other` (Tidal's `overlay`).
    public func overlay(_ other: Pattern) -> Pattern {
        let a = query, b = other.query
        return Pattern { arc in a(arc) + b(arc) }
    }

    /// Sets each event's source spans.
    public func withContext(_ f: @escaping @Sendable ([SourceSpan]) -> [SourceSpan]) -> Pattern {
        withEvents { $0.map { var e = $0; e.context = f(e.context); return e } }
    }
}

extension Pattern where Value: Sendable {
    public init(value: Value) { self = .pure(value) }
}

// MARK: structure from both sides, from the left, from the right (Tidal's <*>, <*, *>)

/// How two patterns' events combine into one: whose `whole` the result keeps.
public enum Structure: Sendable { case both, left, right }

// Thread: any
public func appBoth<A, B, C>(_ pf: Pattern<A>, _ px: Pattern<B>, _ f: @escaping @Sendable (A, B) -> C) -> Pattern<C> {
    let pfq = pf.query, pxq = px.query
    return Pattern<C> { st in
        var out: [Event<C>] = []
        func combine(_ ef: Event<A>, _ ex: Event<B>) {
            let whole: Arc?
            if let a = ef.whole, let b = ex.whole {
                guard let w = a.subArc(b) else { return }
                whole = w
            } else {
                whole = nil
            }
            guard let part = ef.part.subArc(ex.part) else { return }
            out.append(Event(context: ef.context + ex.context, whole: whole, part: part, value: f(ef.value, ex.value)))
        }
        for ef in pfq(st) {
            if let w = ef.whole {
                for ex in pxq(w) where ex.isDigital { combine(ef, ex) }
            } else {
                for ex in pxq(ef.part) { combine(ef, ex) }
            }
        }
        for ex in pxq(st) where ex.isAnalog {
            for ef in pfq(ex.part) where ef.isDigital { combine(ef, ex) }
        }
        return out
    }
}

// Thread: any
public func appLeft<A, B, C>(_ pf: Pattern<A>, _ px: Pattern<B>, _ f: @escaping @Sendable (A, B) -> C) -> Pattern<C> {
    let pfq = pf.query, pxq = px.query
    return Pattern<C> { st in
        var out: [Event<C>] = []
        for ef in pfq(st) {
            for ex in pxq(ef.wholeOrPart) {
                guard let part = ef.part.subArc(ex.part) else { continue }
                out.append(Event(context: ef.context + ex.context, whole: ef.whole, part: part, value: f(ef.value, ex.value)))
            }
        }
        return out
    }
}

// Thread: any
public func appRight<A, B, C>(_ pf: Pattern<A>, _ px: Pattern<B>, _ f: @escaping @Sendable (A, B) -> C) -> Pattern<C> {
    let pfq = pf.query, pxq = px.query
    return Pattern<C> { st in
        var out: [Event<C>] = []
        for ex in pxq(st) {
            for ef in pfq(ex.wholeOrPart) {
                guard let part = ef.part.subArc(ex.part) else { continue }
                out.append(Event(context: ef.context + ex.context, whole: ex.whole, part: part, value: f(ef.value, ex.value)))
            }
        }
        return out
    }
}

// Thread: any
public func app<A, B, C>(_ structure: Structure, _ a: Pattern<A>, _ b: Pattern<B>, _ f: @escaping @Sendable (A, B) -> C) -> Pattern<C> {
    switch structure {
    case .both: return appBoth(a, b, f)
    case .left: return appLeft(a, b, f)
    case .right: return appRight(a, b, f)
    }
}

// MARK: patterns of patterns (Tidal's unwrap, innerJoin, outerJoin, squeezeJoin)

extension Pattern {
    /// Tidal's `unwrap` (monadic bind): wholes are the intersection of outer and inner.
    // Thread: any
    public static func unwrap<T>(_ pp: Pattern<Pattern<T>>) -> Pattern<T> where Value == Pattern<T> {
        let q = pp.query
        return Pattern<T> { st in
            var out: [Event<T>] = []
            for o in q(st) {
                for i in o.value.query(o.part) {
                    let whole: Arc?
                    if let ow = o.whole, let iw = i.whole {
                        guard let w = ow.subArc(iw) else { continue }
                        whole = w
                    } else { whole = nil }
                    guard let part = o.part.subArc(i.part) else { continue }
                    out.append(Event(context: i.context + o.context, whole: whole, part: part, value: i.value))
                }
            }
            return out
        }
    }
}

// Thread: any
public func innerJoin<T>(_ pp: Pattern<Pattern<T>>) -> Pattern<T> {
    let q = pp.query
    return Pattern<T> { st in
        var out: [Event<T>] = []
        for o in q(st) {
            for i in o.value.query(o.part) {
                guard let p = st.subArc(i.part), let p2 = p.subArc(st) else { continue }
                out.append(Event(context: i.context + o.context, whole: i.whole, part: p2, value: i.value))
            }
        }
        return out
    }
}

// Thread: any
public func outerJoin<T>(_ pp: Pattern<Pattern<T>>) -> Pattern<T> {
    let q = pp.query
    return Pattern<T> { st in
        var out: [Event<T>] = []
        for o in q(st) {
            let t = o.wholeStart
            for i in o.value.query(Arc(t, t)) {
                guard let p = st.subArc(o.part) else { continue }
                out.append(Event(context: o.context + i.context, whole: o.whole, part: p, value: i.value))
            }
        }
        return out
    }
}

// Thread: any
public func squeezeJoin<T>(_ pp: Pattern<Pattern<T>>) -> Pattern<T> {
    let q = pp.query
    return Pattern<T> { st in
        var out: [Event<T>] = []
        for o in q(st) {
            let inner = compressArc(o.wholeOrPart.cycleArc, o.value)
            for i in inner.query(o.part) {
                let whole: Arc?
                if let ow = o.whole, let iw = i.whole {
                    guard let w = ow.subArc(iw) else { continue }
                    whole = w
                } else { whole = nil }
                guard let part = o.part.subArc(i.part) else { continue }
                out.append(Event(context: i.context + o.context, whole: whole, part: part, value: i.value))
            }
        }
        return out
    }
}

/// A function of a plain value applied through a pattern of values (Tidal's `tParam`).
// Thread: any
public func tParam<A: Sendable, T>(_ f: @escaping @Sendable (A, Pattern<T>) -> Pattern<T>, _ pa: Pattern<A>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(pa.map { f($0, p) })
}

// Thread: any
public func tParam2<A: Sendable, B: Sendable, T>(_ f: @escaping @Sendable (A, B, Pattern<T>) -> Pattern<T>,
                                                 _ pa: Pattern<A>, _ pb: Pattern<B>, _ p: Pattern<T>) -> Pattern<T> {
    innerJoin(appBoth(pa, pb) { a, b in f(a, b, p) })
}

// Thread: any
public func tParamSqueeze<A: Sendable, T>(_ f: @escaping @Sendable (A, Pattern<T>) -> Pattern<T>, _ pa: Pattern<A>, _ p: Pattern<T>) -> Pattern<T> {
    squeezeJoin(pa.map { f($0, p) })
}
