/// Tidal 1.7.10's scales (`Sound.Tidal.Scales`): `scale "major" "0 .. 7"` turns scale degrees
/// into semitones from the root, degree 7 an octave up (12 semitones) in a seven-note scale.
/// Steps are semitones; the maqamat have quarter tones (`bayati`'s 1.5).

// Thread: any (all of this file)

public enum Scales {
    /// Each scale's name, as Tidal spells it, and its steps in semitones (in Tidal's order:
    /// the five-note scales first).
    public static let table: [(name: String, steps: [Double])] = [
        ("minPent", [0, 3, 5, 7, 10]),
        ("majPent", [0, 2, 4, 7, 9]),
        ("ritusen", [0, 2, 5, 7, 9]),
        ("egyptian", [0, 2, 5, 7, 10]),
        ("kumai", [0, 2, 3, 7, 9]),
        ("hirajoshi", [0, 2, 3, 7, 8]),
        ("iwato", [0, 1, 5, 6, 10]),
        ("chinese", [0, 4, 6, 7, 11]),
        ("indian", [0, 4, 5, 7, 10]),
        ("pelog", [0, 1, 3, 7, 8]),
        ("prometheus", [0, 2, 4, 6, 11]),
        ("scriabin", [0, 1, 4, 7, 9]),
        ("gong", [0, 2, 4, 7, 9]),
        ("shang", [0, 2, 5, 7, 10]),
        ("jiao", [0, 3, 5, 8, 10]),
        ("zhi", [0, 2, 5, 7, 9]),
        ("yu", [0, 3, 5, 7, 10]),
        ("whole", [0, 2, 4, 6, 8, 10]),
        ("wholetone", [0, 2, 4, 6, 8, 10]),
        ("augmented", [0, 3, 4, 7, 8, 11]),
        ("augmented2", [0, 1, 4, 5, 8, 9]),
        ("hexMajor7", [0, 2, 4, 7, 9, 11]),
        ("hexDorian", [0, 2, 3, 5, 7, 10]),
        ("hexPhrygian", [0, 1, 3, 5, 8, 10]),
        ("hexSus", [0, 2, 5, 7, 9, 10]),
        ("hexMajor6", [0, 2, 4, 5, 7, 9]),
        ("hexAeolian", [0, 3, 5, 7, 8, 10]),
        ("major", [0, 2, 4, 5, 7, 9, 11]),
        ("ionian", [0, 2, 4, 5, 7, 9, 11]),
        ("dorian", [0, 2, 3, 5, 7, 9, 10]),
        ("phrygian", [0, 1, 3, 5, 7, 8, 10]),
        ("lydian", [0, 2, 4, 6, 7, 9, 11]),
        ("mixolydian", [0, 2, 4, 5, 7, 9, 10]),
        ("aeolian", [0, 2, 3, 5, 7, 8, 10]),
        ("minor", [0, 2, 3, 5, 7, 8, 10]),
        ("locrian", [0, 1, 3, 5, 6, 8, 10]),
        ("harmonicMinor", [0, 2, 3, 5, 7, 8, 11]),
        ("harmonicMajor", [0, 2, 4, 5, 7, 8, 11]),
        ("melodicMinor", [0, 2, 3, 5, 7, 9, 11]),
        ("melodicMinorDesc", [0, 2, 3, 5, 7, 8, 10]),
        ("melodicMajor", [0, 2, 4, 5, 7, 8, 10]),
        ("bartok", [0, 2, 4, 5, 7, 8, 10]),
        ("hindu", [0, 2, 4, 5, 7, 8, 10]),
        ("todi", [0, 1, 3, 6, 7, 8, 11]),
        ("purvi", [0, 1, 4, 6, 7, 8, 11]),
        ("marva", [0, 1, 4, 6, 7, 9, 11]),
        ("bhairav", [0, 1, 4, 5, 7, 8, 11]),
        ("ahirbhairav", [0, 1, 4, 5, 7, 9, 10]),
        ("superLocrian", [0, 1, 3, 4, 6, 8, 10]),
        ("romanianMinor", [0, 2, 3, 6, 7, 9, 10]),
        ("hungarianMinor", [0, 2, 3, 6, 7, 8, 11]),
        ("neapolitanMinor", [0, 1, 3, 5, 7, 8, 11]),
        ("enigmatic", [0, 1, 4, 6, 8, 10, 11]),
        ("spanish", [0, 1, 4, 5, 7, 8, 10]),
        ("leadingWhole", [0, 2, 4, 6, 8, 10, 11]),
        ("lydianMinor", [0, 2, 4, 6, 7, 8, 10]),
        ("neapolitanMajor", [0, 1, 3, 5, 7, 9, 11]),
        ("locrianMajor", [0, 2, 4, 5, 6, 8, 10]),
        ("diminished", [0, 1, 3, 4, 6, 7, 9, 10]),
        ("octatonic", [0, 1, 3, 4, 6, 7, 9, 10]),
        ("diminished2", [0, 2, 3, 5, 6, 8, 9, 11]),
        ("octatonic2", [0, 2, 3, 5, 6, 8, 9, 11]),
        ("messiaen1", [0, 2, 4, 6, 8, 10]),
        ("messiaen2", [0, 1, 3, 4, 6, 7, 9, 10]),
        ("messiaen3", [0, 2, 3, 4, 6, 7, 8, 10, 11]),
        ("messiaen4", [0, 1, 2, 5, 6, 7, 8, 11]),
        ("messiaen5", [0, 1, 5, 6, 7, 11]),
        ("messiaen6", [0, 2, 4, 5, 6, 8, 10, 11]),
        ("messiaen7", [0, 1, 2, 3, 5, 6, 7, 8, 9, 11]),
        ("chromatic", [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
        ("bayati", [0, 1.5, 3, 5, 7, 8, 10]),
        ("hijaz", [0, 1, 4, 5, 7, 8.5, 10]),
        ("sikah", [0, 1.5, 3.5, 5.5, 7, 8.5, 10.5]),
        ("rast", [0, 2, 3.5, 5, 7, 9, 10.5]),
        ("saba", [0, 1.5, 3, 4, 6, 8, 10]),
        ("iraq", [0, 1.5, 3.5, 5, 6.5, 8.5, 10.5]),
    ]

    static let byName: [String: [Double]] = Dictionary(table.map { ($0.name, $0.steps) }, uniquingKeysWith: { a, _ in a })

    /// The degree `n` of `steps` in semitones: cycling through the steps, 12 more for each
    /// time round (Tidal's `noteInScale`). An unknown scale is `[0]`, as in Tidal.
    public static func note(_ steps: [Double], _ n: Int) -> Double {
        let count = steps.count
        let octave = n >= 0 ? n / count : -((-n + count - 1) / count)
        return steps[n - octave * count] + Double(12 * octave)
    }
}

/// Scale degrees as semitones, the scale's name patterned (Tidal's `scale`): the structure
/// comes from the degrees.
public func scale(_ name: Pattern<String>, _ degrees: Pattern<Int>) -> Pattern<Double> {
    appLeft(degrees, name) { n, name in Scales.note(Scales.byName[name] ?? [0], n) }
}

/// Degrees through a list of steps, `octave` semitones more each time round (Tidal's
/// `toScale'`; `toScale` is `toScale' 12`). An empty list is silence.
public func toScale(_ octave: Int, _ steps: [Double], _ degrees: Pattern<Int>) -> Pattern<Double> {
    if steps.isEmpty { return .silence }
    let n = steps.count
    return degrees.map { x in
        // Haskell's `div` (floor), without a subtraction that could overflow near Int.min.
        var round = x / n
        if x % n != 0 && x < 0 { round -= 1 }
        return steps[hmod(x, n)] + Double(octave) * Double(round)
    }
}
