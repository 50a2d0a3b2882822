import Foundation
import Glibc
import PodiumEngine
import PodiumPatterns
import PodiumSurfaces
import Testing

@Suite("scratch") struct ScratchTests {
    func cpu() -> Double { var t = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
    @Test("scratch") func scratch() throws {
        let variants: [(String, String)] = [
            ("bare", "instr v ; podium: amp +effects\n asnd poscil 1, 440\n outs asnd*p4, asnd*p4\nendin\n"),
            ("pan2", "instr v ; podium: amp +effects\n asnd poscil 1, 440\n aL, aR SDpan2 asnd, 1, 0.5, p3\n outs aL*p4, aR*p4\nendin\n"),
            ("dirtout", "instr v ; podium: amp +effects\n asnd poscil 1, 440\n SDdirtout asnd, asnd, p4, p(17), p77\nendin\n"),
            ("both", "instr v ; podium: amp +effects\n asnd poscil 1, 440\n aL, aR SDpan2 asnd, 1, 0.5, p3\n SDdirtout aL, aR, p4, p(17), p77\nendin\n"),
        ]
        for (name, code) in variants {
            var best = 1e9
            for _ in 0..<3 {
                var options = EngineOptions(seed: 7)
                options.sampler = true
                let engine = try Engine.forPerformance(source: .text(orchestra: "nchnls = 2\n0dbfs = 1\n", score: nil, name: "o.orc"), options: options, sampleRate: 48000, ksmps: 64)
                _ = try engine.compileOrchestra(code, source: "v")
                let layout = try #require(PatternNotes.declarations(in: engine.orchestraTexts)["v"])
                var fields: [Double] = []
                _ = PatternNotes.fields(["s": .string("v"), "amp": .double(0.01)], length: 4, cycle: 0, delta: 4, cps: 1, layout: layout, into: &fields)
                for _ in 0..<64 { try engine.scoreEvent(instrument: "v", start: 0, duration: 4, Array(fields.dropFirst(2))) }
                let t0 = cpu()
                for _ in 0..<3000 { _ = engine.performKsmps() }
                best = min(best, cpu() - t0)
            }
            print(String(format: "%@: %.4f %% of a core per voice", name, 100 * best / 64 / 4))
        }
    }
}
