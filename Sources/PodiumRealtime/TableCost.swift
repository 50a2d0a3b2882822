// What the callback itself checks of its input: a MIDI message's shape before Csound reads it,
// and what an f statement costs its budget.

/// A MIDI message from the JACK MIDI port.
public enum MIDIMessage {
    /// One complete MIDI channel message: a status byte 0x80–0xEF followed by exactly its data
    /// bytes (one for program change and channel pressure, two for the others), each below 0x80.
    // Thread: RT
    @_noLocks @_noAllocation
    public static func isChannelMessage(_ bytes: UnsafePointer<UInt8>, count: Int) -> Bool {
        let status = bytes[0]
        guard status >= 0x80, status < 0xF0 else { return false }
        let kind = status & 0xF0
        guard count == (kind == 0xC0 || kind == 0xD0 ? 2 : 3) else { return false }
        for i in 1..<count where bytes[i] >= 0x80 { return false }
        return true
    }
}

/// An `f` statement's limits and the work it gives the audio thread, as the callback's budget
/// counts it (the checks before Csound sees one: `TableStatement.check`, PodiumHost).
public enum TableStatement {
    /// Table numbers a score may name (Csound's ftgen numbers its own tables from 101 up).
    public static var maximumNumber: Double { RTLimits.maximumTableNumber }
    /// The largest table a score line may build: GEN routines run on the audio thread.
    public static var maximumSize: Double { RTLimits.maximumTableSize }

    /// The work a GEN routine does, in point-steps: the size times the terms it sums per point
    /// (partials for GEN 9, 10, 19; polynomial terms for 13, 14, 15), four for GEN 21's random
    /// distributions, one otherwise. Measured on this machine for 262 144 points: GEN 10 with one
    /// partial 5.3 ms, GEN 11 7.5 ms, GEN 20 4.5 ms, GEN 21 19.6 ms.
    // Thread: RT (the callback's budget) and NRT (the check)
    @_noLocks @_noAllocation
    public static func cost(gen: Double, size: Double, arguments: Int) -> Double {
        let g = abs(gen)
        let perPoint: Double
        switch g {
        case 10: perPoint = Double(max(1, arguments))
        case 9, 19: perPoint = Double(max(1, arguments / 3))
        case 13, 14, 15: perPoint = Double(max(1, arguments - 2))
        case 21: perPoint = 4
        case 11: perPoint = 1.5
        default: perPoint = 1
        }
        return size * perPoint
    }
}
