/// A span of time, `[start, stop)` (Tidal's `Arc`), and Tidal's arithmetic on spans.
public struct Arc: Hashable, Sendable, CustomStringConvertible {
    public var start: Time
    public var stop: Time

    // Thread: any (all of this file)
    public init(_ start: Time, _ stop: Time) { self.start = start; self.stop = stop }

    /// The intersection's bounds, empty or not (Tidal's `sect`).
    public func sect(_ b: Arc) -> Arc { Arc(max(start, b.start), min(stop, b.stop)) }

    /// The intersection, nil when the arcs do not meet; a zero-width arc meets a span it starts
    /// or lies inside, not one it ends (Tidal's `subArc`).
    public func subArc(_ b: Arc) -> Arc? {
        let s = sect(b)
        if s.start == s.stop {
            if s.start == stop, start < stop { return nil }
            if s.start == b.stop, b.start < b.stop { return nil }
        }
        return s.start <= s.stop ? s : nil
    }

    public func hull(_ b: Arc) -> Arc { Arc(min(start, b.start), max(stop, b.stop)) }

    public func withTime(_ f: (Time) -> Time) -> Arc { Arc(f(start), f(stop)) }

    /// The arc moved into cycle zero, keeping its length (Tidal's `cycleArc`).
    public var cycleArc: Arc { let s = start.cyclePos; return Arc(s, s + (stop - start)) }

    /// The arc split at cycle boundaries (Tidal's `arcCyclesZW`: a zero-width arc stays one).
    public var cycles: [Arc] {
        if start == stop { return [self] }
        var out: [Arc] = []
        var s = start
        while s < stop {
            let next = s.nextSam
            if stop <= next { out.append(Arc(s, stop)); break }
            out.append(Arc(s, next))
            s = next
            if out.count & (QueryBudget.run - 1) == 0, !QueryBudget.spend(QueryBudget.run) { break }
        }
        QueryBudget.spendRest(of: out.count)
        return out
    }

    /// The whole cycles the arc touches, each as `[n, n+1)` (Tidal's `cycleArcsInArc`).
    public var wholeCycles: [Arc] {
        if start > stop { return [] }
        if start == stop { return [Arc(start.sam, start.sam + 1)] }
        var out: [Arc] = []
        var c = start.floorInt
        let end = stop.ceilInt
        while c < end, out.count < 1_000_000 {
            out.append(Arc(Time(c), Time(c) + 1))
            c += 1
            if out.count & (QueryBudget.run - 1) == 0, !QueryBudget.spend(QueryBudget.run) { break }
        }
        QueryBudget.spendRest(of: out.count)
        return out
    }

    public var description: String { "(\(start)>\(stop))" }
}

/// Where in the source text an event's value came from: (column, line) pairs of each step's
/// start and end, as Tidal's `Context` (the page lights these up when the event sounds).
public struct SourceSpan: Hashable, Sendable {
    public var startColumn: Int
    public var startLine: Int
    public var endColumn: Int
    public var endLine: Int
    public init(_ sc: Int, _ sl: Int, _ ec: Int, _ el: Int) { startColumn = sc; startLine = sl; endColumn = ec; endLine = el }
}

/// One event: its value, the span it occupies (`whole`; nil for a continuous signal's sample)
/// and the fragment of it inside the query (`part`).
public struct Event<Value> {
    public var context: [SourceSpan]
    public var whole: Arc?
    public var part: Arc
    public var value: Value

    // Thread: any
    public init(context: [SourceSpan] = [], whole: Arc?, part: Arc, value: Value) {
        self.context = context; self.whole = whole; self.part = part; self.value = value
    }

    public var wholeOrPart: Arc { whole ?? part }
    public var wholeStart: Time { wholeOrPart.start }
    public var wholeStop: Time { wholeOrPart.stop }
    public var isAnalog: Bool { whole == nil }
    public var isDigital: Bool { whole != nil }
    /// The event starts inside this fragment: its onset sounds here.
    public var hasOnset: Bool { whole.map { $0.start == part.start } ?? false }

    public func with<B>(value v: B) -> Event<B> { Event<B>(context: context, whole: whole, part: part, value: v) }
}

extension Event: Sendable where Value: Sendable {}
extension Event: Equatable where Value: Equatable {}
