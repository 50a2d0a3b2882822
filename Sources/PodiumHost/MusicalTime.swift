import PodiumEngine
import PodiumRealtime

// The driver's view of the beat clock (the callback owns it: `BeatClock`, `ClockCallback.swift`).
// Surfaces read the published snapshot and change the clock through `.clock` commands.

extension JackDriver {
    /// The clock as the callback last published it (at the first frame after its last period).
    // Thread: NRT (any)
    public var clock: ClockSnapshot { state.pointee.clockPublished.read() }

    /// The beat at JACK's current frame (an estimate between two periods).
    // Thread: NRT (any)
    public var beatNow: Double {
        let c = clock
        return c.beat(atFrame: max(c.frame, frameTime))
    }
}

extension CommandProducer {
    /// Changes the beat clock at the next k-cycle (each part that is given).
    // Thread: this producer's thread
    @discardableResult
    public func clock(tempo: Double? = nil, quantum: Double? = nil, locate beat: Double? = nil, running: Bool? = nil) throws(InputError) -> UInt64? {
        // 0 means "unchanged" inside the command: a given 0 is checked (and refused) here.
        if let tempo { try InputCheck.tempo(tempo) }
        if let quantum { try InputCheck.quantum(quantum) }
        return try post(.clock(tempo: tempo, quantum: quantum, locate: beat, running: running))
    }
}

/// Where a line starts in musical time: now, on a grid (the next beat, bar, N beats), or on
/// a given beat (a loop's iteration). p2 and p3 count beats unless it is `.now`.
public enum Quantize: Sendable, Equatable, CustomStringConvertible {
    case now
    case grid(Double)
    case beat(Double)

    /// Applies to a command: its timing and beat.
    public func time(_ c: inout Command) {
        switch self {
        case .now: c.timing = .frame
        case let .grid(g): c.timing = .grid; c.beat = g
        case let .beat(b): c.timing = .beat; c.beat = b
        }
    }

    public var description: String {
        switch self {
        case .now: return "off"
        case let .grid(g): return g == 1 ? "beat" : "\(InputCheck.describe(g)) beats"
        case let .beat(b): return "beat \(InputCheck.describe(b))"
        }
    }
}
