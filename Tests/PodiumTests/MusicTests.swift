import PodiumSurfaces
import Testing

@Suite("Music helpers")
struct MusicTests {
    @Test("note names: MIDI numbers and frequencies", arguments: [
        ("c4", 60), ("C4", 60), ("a4", 69), ("eb3", 51), ("f#5", 78), ("cs4", 61), ("Bb-1", 10), ("c-1", 0), ("g9", 127), ("b0", 23),
    ])
    func noteNames(_ name: String, _ midi: Int) {
        #expect(Music.midi(Substring(name)) == midi)
    }

    @Test("not note names")
    func notNotes() {
        for t in ["h4", "c", "c10", "g#9", "4", "ab", "x#1"] { #expect(Music.midi(Substring(t)) == nil, "\(t)") }
        #expect(Music.pfield("a4") == 440)
        #expect(Music.pfield("ma4") == 69)
        #expect(abs(Music.pfield("c4")! - 261.625565) < 1e-5)
        #expect(Music.pfield("0.5") == 0.5)
    }

    @Test("chords expand to their notes", arguments: [
        ("C4", "maj", [60, 64, 67]), ("A3", "min", [57, 60, 64]), ("B3", "dim", [59, 62, 65]), ("C4", "aug", [60, 64, 68]),
        ("D4", "sus2", [62, 64, 69]), ("D4", "sus4", [62, 67, 69]), ("C4", "maj7", [60, 64, 67, 71]), ("D4", "m7", [62, 65, 69, 72]),
        ("G3", "7", [55, 59, 62, 65]), ("B3", "dim7", [59, 62, 65, 68]), ("B3", "m7b5", [59, 62, 65, 69]),
    ])
    func chords(_ root: String, _ quality: String, _ notes: [Int]) throws {
        #expect(Music.chord(root: Music.midi(Substring(root))!, quality: quality) == notes)
        let lines = try #require(try Music.expand("chord \(root) \(quality) 0 2 3 midi"))
        #expect(lines == notes.map { "i3 0 2 \($0)" })
    }

    @Test("scales go up one octave, a note per step", arguments: [
        ("major", [0, 2, 4, 5, 7, 9, 11, 12]), ("minor", [0, 2, 3, 5, 7, 8, 10, 12]), ("dorian", [0, 2, 3, 5, 7, 9, 10, 12]),
        ("phrygian", [0, 1, 3, 5, 7, 8, 10, 12]), ("lydian", [0, 2, 4, 6, 7, 9, 11, 12]), ("mixolydian", [0, 2, 4, 5, 7, 9, 10, 12]),
        ("locrian", [0, 1, 3, 5, 6, 8, 10, 12]), ("pentatonic", [0, 2, 4, 7, 9, 12]), ("minor-pentatonic", [0, 3, 5, 7, 10, 12]),
        ("blues", [0, 3, 5, 6, 7, 10, 12]), ("chromatic", Array(0...12)),
    ])
    func scales(_ mode: String, _ steps: [Int]) throws {
        #expect(Music.scale(root: 62, mode: mode) == steps.map { 62 + $0 })
        let lines = try #require(try Music.expand("scale D4 \(mode) 1 0.25 2 midi"))
        #expect(lines.count == steps.count)
        #expect(lines.first == "i2 1 0.25 62")
        let last = try #require(lines.last).split(separator: " ")
        #expect(Double(last[1]) == 1 + Double(steps.count - 1) * 0.25 && last[3] == "\(62 + steps.last!)")
    }

    @Test("held chords get one fractional instrument per key; frequencies by default")
    func heldChord() throws {
        let lines = try #require(try Music.expand("chord C4 maj 0 -1 1 midi"))
        #expect(lines == ["i1.060 0 -1 60", "i1.064 0 -1 64", "i1.067 0 -1 67"])
        let hz = try #require(try Music.expand("chord A4 min 0 1"))
        #expect(hz.first == "i1 0 1 440.000000")
        #expect(throws: MusicError.self) { try Music.expand("chord H4 maj 0 1") }
        #expect(throws: MusicError.self) { try Music.expand("chord C4 maj9 0 1") }
        #expect(throws: MusicError.self) { try Music.expand("scale C4 klingon 0 1") }
        #expect(try Music.expand("i1 0 1") == nil)
    }

    @Test("chords are named from their notes, inversions included", arguments: [
        ([60, 64, 67], "C"), ([64, 67, 72], "C/E"), ([67, 72, 76], "C/G"), ([57, 60, 64], "Am"), ([60, 64, 69], "Am/C"),
        ([60, 64, 67, 71], "Cmaj7"), ([55, 59, 62, 65], "G7"), ([59, 62, 65, 69], "Bm7b5"), ([62, 65, 69, 72], "Dm7"),
        ([62, 67, 69], "Dsus4"), ([59, 62, 65, 68], "Bdim7"), ([60, 64, 68], "Caug"), ([48, 60, 64, 67, 72], "C"),
    ])
    func identify(_ notes: [Int], _ name: String) {
        #expect(Music.identify(notes) == name)
    }

    @Test("no chord in a cluster or a single note")
    func noChord() {
        #expect(Music.identify([60, 61, 62]) == nil)
        #expect(Music.identify([]) == nil)
    }
}
