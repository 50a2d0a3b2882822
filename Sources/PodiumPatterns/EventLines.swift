/// Events as `podium pattern` prints them: `START STOP key=value …`, one an onset, START and
/// STOP exact fractions of a cycle, sorted by start (then by text, so that events at the same
/// time come in one order whatever the pattern's structure).
public enum EventLines {
    // Thread: any
    public static func onsets(_ pattern: Pattern<ControlMap>, cycles: Int) -> [Event<ControlMap>] {
        pattern.queryArc(0, Time(Int64(max(0, cycles)))).filter(\.hasOnset)
    }

    // Thread: any
    public static func line(_ e: Event<ControlMap>) -> String {
        let w = e.wholeOrPart
        var s = "\(w.start) \(w.stop)"
        for key in e.value.keys.sorted() { s += " \(key)=\(e.value[key]!)" }
        return s
    }

    // Thread: any
    public static func lines(_ pattern: Pattern<ControlMap>, cycles: Int) -> [String] {
        onsets(pattern, cycles: cycles)
            .map { ($0.wholeStart, line($0)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map(\.1)
    }
}
