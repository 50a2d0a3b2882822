/// How dense a pattern is, found without querying a whole cycle: a performer's typo
/// (`s "bd*99999999"`, `fast 1e9`) would otherwise make one query build millions of events.
public enum Density {
    /// Events a cycle, estimated at a few places of the first `cycles` cycles: the events in
    /// `[s, s + 2w)` less those in `[s, s + w)` are the events that begin in `[s + w, s + 2w)`
    /// (the ones sounding across both count once in each), with `w` grown sixteenfold from
    /// 2^-48 of a cycle until 32 such onsets are seen or `w` reaches 1/64 — so the probe costs
    /// at most a thousand events or so however dense the pattern, and layers stacked on one
    /// onset do not count.
    // Thread: any
    /// `probes`: places probed in each cycle (1: its start only, the cheap check a player
    /// repeats at every cycle; 3: also a third and five sevenths in).
    public static func estimate<T>(_ p: Pattern<T>, firstCycle: Int64 = 0, cycles: Int = 8, probes: Int = 3) -> Int {
        estimateWork(p, firstCycle: firstCycle, cycles: cycles, probes: probes).events
    }

    /// `estimate`, each probe's query limited to `QueryBudget.stepsPerCycle` steps:
    /// `exceeded` when one walked more (`s "x" # n (segment 1e7 saw)`: one event a cycle, ten
    /// million steps to find it), and the estimate stops there.
    // Thread: any
    public static func estimateWork<T>(_ p: Pattern<T>, firstCycle: Int64 = 0, cycles: Int = 8, probes: Int = 3) -> (events: Int, exceeded: Bool) {
        var most = 0.0
        func count(_ s: Time, _ e: Time) -> Int? {
            let (events, exceeded) = QueryBudget.limited(to: QueryBudget.stepsPerCycle) { p.queryArc(s, e) }
            return exceeded ? nil : events.count
        }
        for c in firstCycle..<(firstCycle + Int64(max(1, cycles))) {
            for offset in [Time.zero, Time(1, 3), Time(5, 7)].prefix(max(1, probes)) {
                let s = Time(c) + offset
                var w = Time(1, 1 << 48)
                while true {
                    guard let a = count(s, s + w), let b = count(s, s + w + w) else { return (Int(min(most, 1e15)), true) }
                    let begun = Double(max(0, b - a))
                    if begun >= 32 || Time(1, 64) <= w {
                        most = max(most, begun / w.double)
                        break
                    }
                    w = w * 16
                }
            }
        }
        return (most > 1e15 ? Int(1e15) : Int(most), false)
    }
}
