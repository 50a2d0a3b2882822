import Foundation
import PodiumEngine
import PodiumPatterns

/// How an event whose `s` names a sample becomes a note of the sampler (`SamplerOrchestra`),
/// as SuperDirt reads the same controls:
///   - `n` (or the `:3` of `bd:3`) picks the file; `note` (and `octave`, 5 by default)
///     transposes it: the rate is `speed` × 2^((note + 12·octave − 60)/12).
///   - It lasts the sample's own length (its `begin`…`end` at that rate, `accelerate` moving
///     the rate in a line), cut short by `sustain` seconds or, if given, the event's length ×
///     `legato`. `unit "c"`: `speed` counts plays a cycle (the rate fits the sample to the cycle).
///   - Level is SuperDirt's `amp` (0.4) × `gain`⁴ (gain at most 2; × `velocity`); the rest are the
///     sampler's p-fields by name, with SuperDirt's defaults.
public enum SampleNotes {
    /// The controls the sampler reads (others are named once, as unknown).
    public static let known: Set<String> = [
        "s", "n", "note", "octave", "speed", "unit", "begin", "end", "gain", "amp", "velocity", "pan",
        "legato", "sustain", "cut", "accelerate", "cutoff", "resonance", "hcutoff", "hresonance",
        "crush", "coarse", "shape", "orbit", "room", "size", "delay", "delaytime", "delayfeedback",
        "cps", "cycle", "delta", "bank", "_id_",
        "vowel", "tremolorate", "tremolodepth", "djf", "bandf", "bandq", "attack", "hold", "release", "ring",
        "ringf", "ringdf", "distort", "triode", "krush", "kcutoff", "octer", "octersub", "octersubsub", "lock",
        "fshift", "fshiftnote", "fshiftphase", "phaserrate", "phaserdepth", "squiz", "waveloss", "freq",
        "xsdelay", "tsdelay", "freeze", "comb", "smear", "scram", "binshift", "hbrick", "lbrick", "real", "imag", "enhance",
        "psrate", "psdisp", "tilt", "plat", "leslie", "lrate", "lsize",
    ]
    /// `vowel`'s letters as the sampler's numbers (p27); anything else is no vowel, as in SuperDirt.
    static let vowels: [String: Double] = ["a": 1, "e": 2, "i": 3, "o": 4, "u": 5]
    /// SuperDirt's values for controls an event leaves out.
    static let defaults: [String: Double] = [
        "speed": 1, "begin": 0, "end": 1, "pan": 0.5, "size": 0.1, "delaytime": 0.25, "delayfeedback": 0.5,
    ]
    /// Effects whose 0 means something, sent as value + 1 so that a p-field of 0 (not given,
    /// or a note from elsewhere with fewer p-fields) is off.
    static let shifted: Set<String> = ["djf", "attack", "release", "xsdelay", "tsdelay", "freeze", "comb", "smear", "scram",
                                       "binshift", "hbrick", "lbrick", "real", "imag", "enhance", "psrate", "tilt",
                                       "leslie", "lrate", "lsize"]

    /// p3 (seconds) and p4 onwards for one event, into `fields` (p1 and p2 left to the caller,
    /// as 0); the controls the sampler does not read are returned (said once by the caller).
    /// `delta`: the event's length in seconds; `cps`: cycles a second.
    // Thread: any
    public static func fields(_ c: ControlMap, sample: (tables: [Int32], frames: Int, sampleRate: Double, id: Int),
                              delta: Double, cps: Double, into fields: inout [Double]) -> [String] {
        func number(_ key: String) -> Double? { c[key]?.number }
        let note = (number("note") ?? 0) + ((number("octave") ?? 5) - 5) * 12
        var rate = (number("speed") ?? 1) * pow(2, note / 12)
        let begin = min(max(number("begin") ?? 0, 0), 1), end = min(max(number("end") ?? 1, 0), 1)
        let length = Double(sample.frames) / sample.sampleRate * max(end - begin, 0)
        if c["unit"]?.string == "c", length > 0 { rate = rate * cps * Double(sample.frames) / sample.sampleRate }
        // As SuperDirt: the speed moves in a line to speed × (1 + accelerate) over the sound,
        // which lasts its length at the average speed, cut by sustain (or delta × legato).
        let endRate = rate * (1 + (number("accelerate") ?? 0))
        let average = (abs(rate) + abs(endRate)) / 2
        var seconds = average == 0 ? 0 : length / average
        if let sustain = number("sustain") { seconds = min(seconds, sustain) }
        else if let legato = number("legato") { seconds = min(seconds, delta * legato) }
        let amp = (number("amp") ?? 0.4) * pow(min(max(number("gain") ?? 1, 0), 2), 4) * (number("velocity") ?? 1)
        fields.removeAll(keepingCapacity: true)
        fields.append(0)
        fields.append(seconds.isFinite ? max(seconds, 0) : 0)
        for name in SamplerOrchestra.fields {
            let v: Double
            switch name {
            case "table": v = Double(sample.tables[0])
            case "table2": v = Double(sample.tables.count > 1 ? sample.tables[1] : sample.tables[0])
            case "speed": v = rate
            case "begin": v = begin
            case "end": v = end
            case "amp": v = amp
            default: v = effectValue(name, c, note: note, sample: sample.id, cps: cps)
            }
            fields.append(v.isFinite ? v : 0)
        }
        return c.keys.filter { !known.contains($0) }.sorted()
    }

    /// The sampler's p-field `name` (an effect, the orbit, the sample's identity) from an
    /// event's controls (`cps` the tempo, for `lock`); `note` in semitones from c5 (`note` + 12 × (`octave` − 5)). The same
    /// values reach SuperDirt's synths' effects (p17 on: `PatternNotes.effectsMarker`).
    // Thread: any
    public static func effectValue(_ name: String, _ c: ControlMap, note: Double, sample: Int, cps: Double) -> Double {
        func number(_ key: String) -> Double? { c[key]?.number }
        switch name {
        case "sample": return Double(sample)
        // `lock 1`: the delay time counts cycles (SuperDirt's dirt_delay: delaytime / cps).
        case "delaytime":
            let t = number("delaytime") ?? defaults["delaytime"]!
            return (number("lock") ?? 0) != 0 && cps > 0 ? t / cps : t
        case "vowel": return c["vowel"]?.string.flatMap { vowels[$0] } ?? 0
        // (a negative value is SuperDirt's 0: the module is on, at its least)
        case _ where shifted.contains(name): return number(name).map { max($0, 0) + 1 } ?? 0
        // The note's frequency, as SuperDirt's (midinote 60 + note, octave 5), for fshiftnote.
        case "freq": return number("freq") ?? 440 * pow(2, (note + 60 - 69) / 12)
        default: return number(name) ?? defaults[name] ?? 0
        }
    }
}
