/// SuperDirt's synths (`superpiano`, `supersaw`, …) as Csound instruments, in every live
/// performance and its replay, by SuperDirt's names: `d1 $ n "c e g" # s "superpiano"` from
/// Podium's patterns, the same from Tidal through `--dirt`, `i "supersaw" 0 1 …` from a score.
///
/// Each instrument declares its p-fields by SuperDirt's parameter names, with SuperDirt's
/// defaults (`; podium: freq amp pan accelerate speed:1 voice:0.5 …`), so the event maths that
/// plays an orchestra's declared instruments plays them too: `freq` from `n`/`note` and
/// `octave`, `amp` as SuperDirt's amp × gain⁴, p3 the event's sustain (SuperDirt's `sustain`, or
/// its length × `legato`). Each ends with dirt_gate's 1 ms fade at p3 and pans as SuperDirt
/// does (Pan2, or Balance2 for the stereo ones). An orchestra's own instrument of the same name
/// wins: that synth is not compiled (the performance says so once).
///
/// The families are in files of their own (`DirtSynthsAnalog`, `DirtSynthsKeys`,
/// `DirtSynthsStruck`, `DirtSynthsDrums`, `DirtSynthsTones`, `DirtSynthsFM`, `DirtSynthsNoise`,
/// `DirtSynthsMesh`, `DirtSynthsSpaces`, `DirtSynthsGVerb`), with the tables and opcodes they share in `DirtSynthsShared`.
public enum DirtSynths {
    /// Every synth, by SuperDirt's name.
    public static var all: [(name: String, code: String)] { analog + keys + struck + drums + tones + fm + noise + mesh + spaces }

    /// The synths' names.
    public static var names: [String] { all.map(\.name) }

    /// Compiles the shared code and every synth the engine does not define already; returns the
    /// names the orchestra's own instruments keep, or nil when the synths were left out: Csound
    /// numbers named instruments after the highest number, and a performance takes numbers up to
    /// `OrchestraCheck.maximumInstrumentNumber` (an orchestra with `instr 9990` leaves no room).
    // Thread: NRT (owner), before the performance starts
    static func compile(into engine: Engine) throws -> [String]? {
        let own = names.filter { engine.defines(name: $0) }
        let highest = engine.instruments.numbers.max() ?? 0
        guard highest + all.count - own.count <= OrchestraCheck.maximumInstrumentNumber else { return nil }
        // Their tail (DirtSynthsOutput): the sampler's effects and orbits when it is compiled.
        let sampler = engine.samplerInstrument != nil
        try engine.compileOrchestra([shared, drumsShared, tonesShared, fmShared, noiseShared, meshShared, gverbShared, spacesShared, output(sampler: sampler)].joined(separator: "\n"),
                                    source: "podium SuperDirt synths")
        var text = all.filter { !own.contains($0.name) }.map(\.code).joined(separator: "\n\n")
        // Without the sampler, no effect p-fields: the declarations say so (an effect is then
        // named once as a control the synth does not take).
        if !sampler { text = text.replacingOccurrences(of: " +effects\n", with: "\n") }
        try engine.compileOrchestra(text, source: "podium SuperDirt synths")
        // Voices made now, not on the audio thread at a synth's first notes (Csound allocates
        // an instance when none is free): 8 of each, 8.7 MB and 14 ms for the first 29 (measured);
        // the 36 make podium's start 276 MB instead of 258 (superprimes' nine GVerbs a voice).
        let voices = all.filter { !own.contains($0.name) }.map { "prealloc \"\($0.name)\", \(preallocated)" }
        try engine.compileOrchestra(voices.joined(separator: "\n") + "\n", source: "podium SuperDirt synths")
        return own
    }

    /// Voices of each synth made when the engine starts.
    public static let preallocated = 8
}
