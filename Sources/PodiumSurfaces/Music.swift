import Foundation

/// Music helpers for score input: note names, chords, scales, and naming a chord from its notes.
///
///   - `c4`, `eb3`, `f#5`, `Bb-1` in a p-field: the note's frequency in Hz (A4 = 440, equal
///     temperament); with an `m` in front (`mc4`, `mf#5`): its MIDI number (C4 = 60).
///   - `chord C4 maj7 START DUR [INSTR] [hz|midi]`: one event per note (p4 the note).
///   - `scale D4 dorian START STEP [INSTR] [hz|midi]`: the scale up one octave, a note per STEP.
///   With a negative DUR the notes are held, each on its own fractional instrument number
///   (`INSTR.MIDI`, e.g. `1.060`), so `i-1.060 0 0` releases one of them.
public enum Music {
    /// Semitones above C.
    static let letters: [Character: Int] = ["c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11]
    public static let names = ["C", "C#", "D", "Eb", "E", "F", "F#", "G", "Ab", "A", "Bb", "B"]

    /// MIDI number of a note name (`c4` 60, `a4` 69, `eb3` 51, `f#5` 78, `c-1` 0), nil if not one.
    public static func midi(_ token: Substring) -> Int? {
        var s = token[...]
        guard let first = s.first, let base = letters[Character(first.lowercased())] else { return nil }
        s = s.dropFirst()
        var semitone = base
        while let c = s.first, c == "#" || c == "b" || c == "s" {
            // "b" after the letter is a flat; "s" (as in "cs4") a sharp.
            semitone += c == "b" ? -1 : 1
            s = s.dropFirst()
        }
        guard !s.isEmpty, let octave = Int(s), (-1...9).contains(octave) else { return nil }
        let n = (octave + 1) * 12 + semitone
        return (0...127).contains(n) ? n : nil
    }

    public static func frequency(midi n: Int) -> Double { 440 * pow(2, Double(n - 69) / 12) }

    /// A p-field: a number, a note name (Hz) or `m` + note name (MIDI number).
    public static func pfield(_ token: Substring) -> Double? {
        if let v = Double(token) { return v }
        if token.first == "m", let n = midi(token.dropFirst()) { return Double(n) }
        if let n = midi(token) { return frequency(midi: n) }
        return nil
    }

    /// Chord formulas, in semitones above the root.
    public static let chords: [(name: String, intervals: [Int])] = [
        ("maj", [0, 4, 7]), ("min", [0, 3, 7]), ("dim", [0, 3, 6]), ("aug", [0, 4, 8]),
        ("sus2", [0, 2, 7]), ("sus4", [0, 5, 7]), ("maj7", [0, 4, 7, 11]), ("m7", [0, 3, 7, 10]),
        ("7", [0, 4, 7, 10]), ("dim7", [0, 3, 6, 9]), ("m7b5", [0, 3, 6, 10]),
    ]
    static let chordAliases = ["major": "maj", "": "maj", "m": "min", "minor": "min", "dom7": "7", "min7": "m7", "ø": "m7b5", "o": "dim", "+": "aug"]

    /// Scale formulas (one octave, without the octave).
    public static let scales: [String: [Int]] = [
        "major": [0, 2, 4, 5, 7, 9, 11], "minor": [0, 2, 3, 5, 7, 8, 10],
        "ionian": [0, 2, 4, 5, 7, 9, 11], "dorian": [0, 2, 3, 5, 7, 9, 10], "phrygian": [0, 1, 3, 5, 7, 8, 10],
        "lydian": [0, 2, 4, 6, 7, 9, 11], "mixolydian": [0, 2, 4, 5, 7, 9, 10], "aeolian": [0, 2, 3, 5, 7, 8, 10],
        "locrian": [0, 1, 3, 5, 6, 8, 10], "pentatonic": [0, 2, 4, 7, 9], "majorpentatonic": [0, 2, 4, 7, 9],
        "minorpentatonic": [0, 3, 5, 7, 10], "blues": [0, 3, 5, 6, 7, 10], "chromatic": Array(0..<12),
    ]

    public static func chord(root: Int, quality: String) -> [Int]? {
        let q = chordAliases[quality] ?? quality
        return chords.first { $0.name == q }.map { $0.intervals.map { root + $0 } }
    }

    /// The scale up one octave, the octave included.
    public static func scale(root: Int, mode: String) -> [Int]? {
        scales[mode.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "")]
            .map { $0.map { root + $0 } + [root + 12] }
    }

    /// Names the chord the notes make (`Cmaj7`, `Am/C` for an inversion), nil if none matches.
    public static func identify(_ notes: [Int]) -> String? {
        guard let bass = notes.min() else { return nil }
        let classes = Set(notes.map { (($0 % 12) + 12) % 12 })
        // Roots tried bass first, so a chord in root position is named from its bass.
        let roots = [bass % 12] + classes.sorted().filter { $0 != bass % 12 }
        for root in roots {
            let intervals = Set(classes.map { ($0 - root + 12) % 12 })
            if let match = chords.first(where: { Set($0.intervals) == intervals }) {
                let name = names[root] + (match.name == "maj" ? "" : match.name == "min" ? "m" : match.name)
                return root == bass % 12 ? name : name + "/" + names[bass % 12]
            }
        }
        return nil
    }

    /// Whether a line is a `chord …` or `scale …` line.
    public static func isExpansion(_ line: String) -> Bool {
        let first = line.split(whereSeparator: \.isWhitespace).first
        return first == "chord" || first == "scale"
    }

    /// Expands a `chord …` or `scale …` line into score lines; nil if the line is neither.
    /// Throws with the reason when it is one but malformed.
    public static func expand(_ line: String) throws -> [String]? {
        let words = line.split(whereSeparator: \.isWhitespace)
        guard let kind = words.first, kind == "chord" || kind == "scale" else { return nil }
        let usage = kind == "chord" ? "chord ROOT QUALITY START DUR [INSTR] [hz|midi]" : "scale ROOT MODE START STEP [INSTR] [hz|midi]"
        guard words.count >= 5, words.count <= 7 else { throw MusicError("usage: \(usage)") }
        guard let root = midi(words[1]) else { throw MusicError("not a note name: \(words[1]) (e.g. C4, eb3, f#5)") }
        guard let start = Double(words[3]), let length = Double(words[4]) else { throw MusicError("usage: \(usage)") }
        var instr = "1", unit = "hz"
        for w in words.dropFirst(5) {
            if w == "hz" || w == "midi" { unit = String(w) } else { instr = String(w) }
        }
        func value(_ n: Int) -> String { unit == "midi" ? "\(n)" : String(format: "%.6f", frequency(midi: n)) }
        func p1(_ n: Int) -> String {
            // Held notes: one fractional instance per key, so each can be released alone.
            guard length < 0, Double(instr) != nil else { return instr }
            return "\(instr).\(String(format: "%03d", n))"
        }
        if kind == "chord" {
            guard let notes = chord(root: root, quality: String(words[2])) else {
                throw MusicError("unknown chord \(words[2]) (known: \(chords.map(\.name).joined(separator: ", ")))")
            }
            return notes.map { "i\(p1($0)) \(words[3]) \(words[4]) \(value($0))" }
        }
        guard let notes = scale(root: root, mode: String(words[2])) else {
            throw MusicError("unknown scale \(words[2]) (known: \(scales.keys.sorted().joined(separator: ", ")))")
        }
        return notes.enumerated().map { i, n in
            "i\(p1(n)) \(InstrumentFormat.number(start + Double(i) * abs(length))) \(words[4]) \(value(n))"
        }
    }
}

public struct MusicError: Error, CustomStringConvertible, Equatable {
    public var description: String
    init(_ d: String) { description = d }
}

enum InstrumentFormat {
    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : String(v)
    }
}
