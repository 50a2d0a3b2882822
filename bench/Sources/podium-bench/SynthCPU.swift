// The `synth-cpu` section's Podium half: the CPU each SuperDirt synth's voice costs in Podium's
// engine (Csound, the performance's own: the sampler's effects and orbits, SDdirtout), offline:
// N voices of each synth held for S seconds of k-cycles, against none, on this thread's CPU
// clock. bench/synth_cpu.py renders SuperDirt's own SynthDefs with scsynth the same way and
// prints both.
import Foundation
import Glibc
import PodiumEngine
import PodiumPatterns
import PodiumSurfaces

/// CPU seconds of `seconds` of k-cycles with `voices` notes of `synth` started at once (n 0,
/// sustain the whole time), in a fresh performance engine; the best of `repeats`. `synth` ""
/// and `mixed`: the voices go to every synth in turn.
// Thread: bench main
func engineCPU(synth: String, voices: Int, seconds: Double, repeats: Int = 3, mixed: Bool = false) throws -> Double {
    var best = Double.infinity
    for _ in 0..<repeats {
        var options = EngineOptions(seed: 7)
        options.sampler = true
        let engine = try Engine.forPerformance(source: .text(orchestra: "nchnls = 2\n0dbfs = 1\n", score: nil, name: "cpu.orc"),
                                               options: options, sampleRate: 48000, ksmps: 64)
        let layouts = PatternNotes.declarations(in: engine.orchestraTexts)
        for i in 0..<voices {
            let name = mixed ? DirtSynths.names[i % DirtSynths.names.count] : synth
            guard let layout = layouts[name] else { throw BenchError(description: "no synth \(name)") }
            let controls: ControlMap = ["s": .string(name), "n": .double(0), "sustain": .double(seconds)]
            var fields: [Double] = []
            _ = PatternNotes.fields(controls, length: seconds, cycle: 0, delta: seconds, cps: 1, layout: layout, into: &fields)
            try engine.scoreEvent(instrument: name, start: 0, duration: fields[1], Array(fields.dropFirst(2)))
        }
        let start = threadCPUSeconds()
        for _ in 0..<Int(seconds * 48000 / 64) { _ = engine.performKsmps() }
        best = min(best, threadCPUSeconds() - start)
    }
    return best
}

/// One line per synth: its name and the CPU of one voice, in % of one core; with `mixed` voices,
/// one line `mixed N`: the whole engine's CPU with N voices of every synth in turn, in % of one core.
// Thread: bench main
func synthCPUPodium(voices: Int, seconds: Double, only: [String], mixed: Int) throws {
    let base = try engineCPU(synth: "", voices: 0, seconds: seconds)
    if mixed > 0 {
        let all = try engineCPU(synth: "", voices: mixed, seconds: seconds, mixed: true)
        print(String(format: "mixed%d %.4f %.4f", mixed, 100 * all / seconds, 100 * base / seconds))
        return
    }
    for name in only.isEmpty ? DirtSynths.names : only {
        let busy = try engineCPU(synth: name, voices: voices, seconds: seconds)
        print(String(format: "%@ %.4f", name, 100 * (busy - base) / Double(voices) / seconds))
    }
}
