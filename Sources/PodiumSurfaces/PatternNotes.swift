import Foundation
import PodiumEngine
import PodiumPatterns

/// How a pattern's event becomes a Csound note.
///
///   - `s` names the instrument (`s "bass"`: `instr bass`; `s "20"`: `instr 20`; `bd:3` is the
///     name `bd`, index 3, for sample banks).
///   - p2 is the event's onset, stamped with its beat (the audio thread starts it on its frame);
///     p3 its length in beats: the event's whole × `legato` (default 1), or `sustain` seconds.
///   - p4 onwards are the instrument's parameters, by name. An instrument declares them in a
///     comment on its `instr` line: `instr bass ; podium: freq amp cutoff` (p4 freq, p5 amp, p6
///     cutoff). Undeclared, an instrument gets `freq amp` (as far as it reads p-fields).
///   - Names with a meaning: `freq` (Hz, from `note`/`n` as SuperDirt reads them: note 0 is
///     c5, MIDI 60, `octave` moves it), `midi` (that MIDI number), `note` (the raw note value),
///     `amp` (SuperDirt's: `amp` (0.4) × `gain`⁴), `cps`, `cycle` (the onset's cycle),
///     `delta` (the event's length in seconds); any other name is that control's value (`gain`
///     1, `pan` 0.5, `speed` 1 when missing; 0 otherwise).
public enum PatternNotes {
    /// Controls that shape the note itself (instrument, pitch, length, level): never reported
    /// as undeclared.
    static let consumed: Set<String> = ["s", "n", "note", "octave", "legato", "sustain", "gain", "amp", "cps", "cycle", "delta", "orbit"]
    static let defaults: [String: Double] = ["gain": 1, "pan": 0.5, "speed": 1, "amp": 0.4, "legato": 1]
    public static let undeclaredLayout = ["freq", "amp"]

    /// The instrument an event's `s` names, and the index after a colon (`bd:3`).
    // Thread: any
    public static func sound(_ value: Value?) -> (name: String, index: Int)? {
        guard let text = value?.string, !text.isEmpty else { return nil }
        if let colon = text.firstIndex(of: ":"), let i = Int(text[text.index(after: colon)...]) {
            return (String(text[..<colon]), i)
        }
        return (text, 0)
    }

    /// The declared parameter names of each instrument in these orchestra texts (the last
    /// definition wins), keyed by name or number as typed after `instr`.
    // Thread: any
    public static func declarations(in orchestras: [String]) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for text in orchestras {
            for raw in text.split(whereSeparator: \.isNewline) {
                let line = raw.drop(while: { $0 == " " || $0 == "\t" })
                guard line.hasPrefix("instr") else { continue }
                let semicolon = line.firstIndex(of: ";") ?? line.endIndex
                let code = line[..<semicolon].split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                guard code.first == "instr" else { continue }
                let comment = line[semicolon...].drop(while: { $0 == " " || $0 == ";" })
                // A definition without a declaration drops an earlier one's.
                let names = comment.hasPrefix("podium:") ? layout(comment.dropFirst("podium:".count)) : nil
                for instrument in code.dropFirst() { found[String(instrument.drop(while: { $0 == "+" }))] = names }
            }
        }
        return found
    }

    /// Every instrument's layout in these orchestra texts: declared ones by name or number, and
    /// undeclared ones under "undeclared:KEY" (`freq amp`, as far as the instrument reads p-fields).
    // Thread: any
    public static func layouts(in texts: [String]) -> [String: [String]] {
        var fresh = declarations(in: texts)
        var keys: Set<String> = []
        for t in texts {
            for raw in t.split(whereSeparator: \.isNewline) {
                let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                guard words.first == "instr" else { continue }
                for w in words.dropFirst() {
                    if w.hasPrefix(";") { break }
                    keys.insert(String(w.drop(while: { $0 == "+" })))
                }
            }
        }
        for key in keys where fresh[key] == nil {
            let instrument: ScoreLine.Instrument = Double(key).map { .number($0) } ?? .name(key)
            let used = PFields.used(by: instrument, in: texts) ?? 5
            fresh["undeclared:" + key] = Array(undeclaredLayout.prefix(max(0, used - 3)))
        }
        return fresh
    }

    /// The layout of the instrument named `key` in `layouts`.
    // Thread: any
    public static func layout(_ key: String, in layouts: [String: [String]]) -> [String] {
        layouts[key] ?? layouts["undeclared:" + key] ?? undeclaredLayout
    }

    /// `freq amp cutoff` or `p4=freq p6=cutoff` (a gap reads 0): the names of p4, p5, ….
    /// A name may carry the value an event that lacks it gets, after a colon (`voice:0.5`; the
    /// entry keeps it: `parameter(_:)` splits it).
    // Thread: any
    static func layout(_ text: Substring) -> [String] {
        var names: [String] = []
        var effects = false
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }) {
            if let colon = word.firstIndex(of: ":"), let value = Double(word[word.index(after: colon)...]), value.isFinite,
               !word[..<colon].isEmpty, word[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
                names.append(String(word))
                continue
            }
            if let eq = word.firstIndex(of: "="), word.first == "p", let n = Int(word[word.index(after: word.startIndex)..<eq]), n >= 4, n <= 16 {
                while names.count < n - 4 { names.append("") }
                let name = String(word[word.index(after: eq)...])
                if names.count == n - 4 { names.append(name) } else { names[n - 4] = name }
            } else if word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }) {
                names.append(String(word))
            } else if word == effectsMarker {
                effects = true
            }
        }
        return Array(names.prefix(13)) + (effects ? [effectsMarker] : [])
    }

    /// The declaration's word for SuperDirt's per-event effects and orbit after the instrument's
    /// own p-fields: p17 onwards are the sampler's effect p-fields (`SamplerOrchestra.fields`
    /// from `cutoff` on), which SuperDirt's synths hand to `SDdirtout` (DirtSynthsOutput).
    public static let effectsMarker = "+effects"

    /// p3 onwards for one event: its length in beats, then the layout's values. Also the
    /// event's controls that the layout does not take (reported once by the caller).
    // Thread: any
    public static func fields(_ e: Event<ControlMap>, layout: [String], tempo: Double, quantum: Double,
                              into fields: inout [Double]) -> [String] {
        let c = e.value
        let whole = e.wholeOrPart
        let cycles = (whole.stop - whole.start).double
        let secondsPerCycle = 60 * quantum / tempo
        let beats: Double
        if let sustain = c["sustain"]?.number { beats = sustain * tempo / 60 }
        else { beats = cycles * quantum * (c["legato"]?.number ?? 1) }
        return self.fields(c, length: beats, cycle: whole.start.double, delta: cycles * secondsPerCycle, cps: 1 / secondsPerCycle,
                           layout: layout, into: &fields)
    }

    /// p3 onwards from an event's controls (a pattern's, or a SuperDirt message's): p3 is
    /// `length` (beats or seconds, as the caller posts it), then the layout's values, with the
    /// event's onset `cycle`, its length `delta` in seconds and the tempo `cps`.
    // Thread: any
    public static func fields(_ c: ControlMap, length: Double, cycle: Double, delta: Double, cps: Double,
                              layout: [String], into fields: inout [Double]) -> [String] {
        func number(_ key: String) -> Double? { c[key]?.number }
        fields.removeAll(keepingCapacity: true)
        fields.append(0)
        fields.append(max(length, 0))
        let note = number("note") ?? number("n") ?? 0
        let midi = note + (number("octave") ?? 5) * 12
        for entry in layout {
            if entry == effectsMarker {
                // p4–p16 are the instrument's own; the effects start at p17.
                while fields.count < 2 + 13 { fields.append(0) }
                for name in SamplerOrchestra.fields[SamplerOrchestra.fields.firstIndex(of: "cutoff")!...] {
                    let v = SampleNotes.effectValue(name, c, note: note + ((number("octave") ?? 5) - 5) * 12, sample: 0, cps: cps)
                    fields.append(v.isFinite ? v : 0)
                }
                continue
            }
            let (name, declared) = parameter(entry)
            let v: Double
            switch name {
            case "freq": v = number("freq") ?? 440 * pow(2, (midi - 69) / 12)  // a given freq wins (SuperDirt's ~freq default is a function of midinote)
            case "midi": v = midi
            case "note": v = note
            case "amp": v = (number("amp") ?? 0.4) * pow(number("gain") ?? 1, 4)
            case "cps": v = cps
            case "cycle": v = cycle
            case "delta": v = delta
            default: v = number(name) ?? declared ?? defaults[name] ?? 0
            }
            fields.append(v.isFinite ? v : 0)
        }
        let names = Set(layout.map { parameter($0).name })
        let effects = layout.last == effectsMarker
        return c.keys.filter { !consumed.contains($0) && !names.contains($0) && !(effects && SampleNotes.known.contains($0)) }.sorted()
    }

    /// A layout entry's parameter name and the value it declared for events without it
    /// (`voice:0.5` → ("voice", 0.5); `cutoff` → ("cutoff", nil)).
    // Thread: any
    public static func parameter(_ entry: String) -> (name: String, value: Double?) {
        guard let colon = entry.firstIndex(of: ":") else { return (entry, nil) }
        return (String(entry[..<colon]), Double(entry[entry.index(after: colon)...]))
    }
}
