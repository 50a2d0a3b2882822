/// The short names live coders type (Dirt-Samples' and drum machines': `bd`, `sn`, `hh`…), found
/// among a drum kit's instrument names. Each short name takes the first instrument (in the
/// kit's order) that the first matching rule accepts.
enum DrumNames {
    /// (short name, rules in order of preference: every word of a rule must be in the name).
    static let rules: [(String, [[String]])] = [
        ("bd", [["kick"], ["bass", "drum"], ["bd"]]),
        ("sn", [["snare", "1"], ["snare"], ["sd"]]),
        ("rim", [["rimshot"], ["rim"], ["stick"]]),
        ("cp", [["clap"]]),
        ("hh", [["hat", "closed"], ["closed", "hat"], ["hihat"], ["hat"]]),
        ("oh", [["hat", "open"], ["open", "hat"]]),
        ("ph", [["hat", "pedal"], ["pedal", "hat"]]),
        ("lt", [["tom", "low"], ["floor", "tom"], ["tom", "3"]]),
        ("mt", [["tom", "mid"], ["tom", "2"]]),
        ("ht", [["tom", "hi"], ["tom", "high"], ["tom", "1"]]),
        ("cr", [["crash"], ["cymbal"]]),
        ("rd", [["ride"]]),
        ("cb", [["cowbell"]]),
        ("sh", [["shaker"]]),
        ("cl", [["clave"]]),
    ]

    /// Short name → the instrument's own (slug) name, for the instruments of one kit.
    static func aliases(for instruments: [String]) -> [String: String] {
        let words = instruments.map { name -> Set<String> in
            // "Hat Semi-Open" is not an open hat: a hyphenated word stays one word.
            Set(name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).map(String.init))
        }
        var found: [String: String] = [:]
        var taken: Set<Int> = []
        for (short, preferences) in rules {
            search: for rule in preferences {
                for (i, w) in words.enumerated() where !taken.contains(i) && rule.allSatisfy(w.contains) {
                    found[short] = SampleBank.slug(instruments[i])
                    taken.insert(i)
                    break search
                }
            }
        }
        return found
    }
}
