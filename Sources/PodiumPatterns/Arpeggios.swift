/// Tidal 1.7.10's arpeggios (`Sound.Tidal.UI`: `arp`, `arpeggiate`): the notes that start
/// together (a chord, `n "c'maj e'min"`) played one after another within their span, in the
/// order the mode names.

// Thread: any (all of this file)

/// The events of each group that shares a whole, reordered by `order` and spread evenly over
/// the whole (Tidal's `arpWith`); a piece outside the queried part is dropped.
public func arpWith<T>(_ order: @escaping @Sendable ([Event<T>]) -> [Event<T>], _ p: Pattern<T>) -> Pattern<T> {
    p.withEvents { events in
        // Tidal's `sortOn whole` (stable; no whole first) then `groupBy` equal wholes.
        let sorted = events.enumerated().sorted { a, b in
            let x = a.element.whole, y = b.element.whole
            if x == y { return a.offset < b.offset }
            guard let x else { return true }
            guard let y else { return false }
            return x.start != y.start ? x.start < y.start : (x.stop != y.stop ? x.stop < y.stop : a.offset < b.offset)
        }.map(\.element)
        var groups: [[Event<T>]] = []
        for e in sorted {
            if let last = groups.last?.last, last.whole == e.whole { groups[groups.count - 1].append(e) } else { groups.append([e]) }
        }
        var out: [Event<T>] = []
        for group in groups {
            let notes = order(group)
            for (n, e) in notes.enumerated() {
                guard let w = e.whole else { continue }
                let d = (w.stop - w.start) / Time(Int64(notes.count))
                let start = w.start + d * Time(Int64(n))
                let piece = Arc(start, start + d)
                guard let part = piece.subArc(e.part) else { continue }
                out.append(Event(context: e.context, whole: piece, part: part, value: e.value))
            }
        }
        return out
    }
}

/// The notes of each chord one after another, lowest first (Tidal's `arpeggiate`, `arpg`).
public func arpeggiate<T>(_ p: Pattern<T>) -> Pattern<T> { arpWith({ $0 }, p) }

/// Tidal's arpeggio modes: how a chord's notes (lowest first) are ordered.
public enum ArpMode {
    // Thread: any
    static func converge<E>(_ x: [E]) -> [E] {
        var rest = ArraySlice(x), out: [E] = [], fromStart = true
        while !rest.isEmpty {
            out.append(fromStart ? rest.removeFirst() : rest.removeLast())
            fromStart.toggle()
        }
        return out
    }

    static func pinkyup<E>(_ x: [E]) -> [E] {
        guard let pinky = x.last else { return [] }
        return x.dropLast().flatMap { [$0, pinky] }
    }

    static func thumbup<E>(_ x: [E]) -> [E] {
        guard let thumb = x.first else { return [] }
        return x.dropFirst().flatMap { [thumb, $0] }
    }

    /// Haskell's `init` (an empty list stays empty here; Tidal's pattern fails there).
    static func initial<E>(_ x: [E]) -> [E] { Array(x.dropLast()) }

    /// The ordering a mode names; nil for a name Tidal does not know (which plays the chord
    /// upwards, as Tidal's `fromMaybe id`).
    static func order<E>(_ name: String) -> (@Sendable ([E]) -> [E])? {
        switch name {
        case "up": return { $0 }
        case "down": return { $0.reversed() }
        case "updown": return { initial($0) + initial($0.reversed()) }
        case "downup": return { initial($0.reversed()) + initial($0) }
        case "up&down": return { $0 + $0.reversed() }
        case "down&up": return { $0.reversed() + $0 }
        case "converge": return { converge($0) }
        case "diverge": return { converge($0).reversed() }
        case "disconverge": return { converge($0) + Array(converge($0).reversed().dropFirst()) }
        case "pinkyup": return { pinkyup($0) }
        case "pinkyupdown": return { initial(pinkyup($0)) + initial(pinkyup($0).reversed()) }
        case "thumbup": return { thumbup($0) }
        case "thumbupdown": return { initial(thumbup($0)) + initial(thumbup($0).reversed()) }
        default: return nil
        }
    }

    /// Every mode's name, as Tidal spells it.
    public static let names = ["up", "down", "updown", "downup", "up&down", "down&up", "converge", "diverge",
                               "disconverge", "pinkyup", "pinkyupdown", "thumbup", "thumbupdown"]
}

/// Each chord's notes one after another in the mode `name` names (Tidal's `arp`).
public func _arp<T>(_ name: String, _ p: Pattern<T>) -> Pattern<T> {
    let order: @Sendable ([Event<T>]) -> [Event<T>] = ArpMode.order(name) ?? { $0 }
    return arpWith(order, p)
}

public func arp<T>(_ name: Pattern<String>, _ p: Pattern<T>) -> Pattern<T> { tParam(_arp, name, p) }
