import Testing
@testable import PodiumPatterns

/// Tidal's transitions (`xfadeIn 1 8 $ …`) against Tidal 1.7.10's own `Sound.Tidal.Transition`
/// functions: the mix of a slot's last pattern and its new one, from the cycle typed at, gives
/// Tidal's events (gains, dropped events, switch points), before, during and after.
@Suite("Transitions against Tidal")
struct TransitionTests {
    @Test("xfadeIn, clutchIn, jumpIn, jumpIn', jumpMod, wait and interpolateIn give Tidal's events around the cycle they start at")
    func matchTidal() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        let language = PatternLanguage()
        let new = #"n "0 .. 7" # s "superpiano" # legato 0.5"#
        let old = #"s "bd*2 [~ sn:3] hh*2" # gain 1.2 # speed "<1 2>""#
        let newer = #"s "[bd cp]*2" # n "<0 1 2>" # speed 2"#
        let cases: [(String, Transition, String, String, String, Int)] = [
            ("xfadeIn 2 (3/2)", .xfadeIn(Time(2)), "3/2", new, old, 5),
            ("xfadeIn 4 (7/3)", .xfadeIn(Time(4)), "7/3", newer, new, 8),
            ("xfadeIn (1/2) 1", .xfadeIn(Time(1, 2)), "1", old, newer, 3),
            ("clutchIn 2 (5/4)", .clutchIn(Time(2)), "5/4", new, old, 5),
            ("clutchIn 8 0", .clutchIn(Time(8)), "0", newer, old, 9),
            ("jumpIn 2 (3/2)", .jumpIn(2), "3/2", new, old, 5),
            ("jumpIn 0 (1/3)", .jumpIn(0), "1/3", newer, old, 2),
            ("jumpIn' 1 (3/2)", .jumpIn_(1), "3/2", new, old, 5),
            ("jumpIn' 0 2", .jumpIn_(0), "2", new, old, 5),
            ("jumpMod 4 (5/2)", .jumpMod(4), "5/2", newer, new, 6),
            ("jumpMod 3 6", .jumpMod(3), "6", newer, new, 10),
            ("wait 2 (3/2)", .wait(Time(2)), "3/2", new, old, 5),
            ("interpolateIn 4 1", .interpolateIn(Time(4)), "1", #"s "bd*4" # speed 2 # n 3 # pan 0.25"#, #"s "hh*2" # speed 0.5 # n 9 # shape 0.3"#, 6),
        ]
        let expected = try TidalOracle.events(cases.map { c in
            let tidal = c.0.split(separator: " ", maxSplits: 1)
            return ("\(tidal[0]) \(tidal[1]) [\(c.3), \(c.4)]", c.5)
        })
        var mismatches: [String] = []
        for (k, c) in cases.enumerated() {
            let parts = c.2.split(separator: "/").compactMap { Int64($0) }
            let now = parts.count == 2 ? Time(parts[0], parts[1]) : Time(parts[0])
            let ours = EventLines.lines(c.1.apply(now: now, new: try language.pattern(c.3), old: try language.pattern(c.4)), cycles: c.5)
            guard let told = expected[k], !told.isEmpty else { mismatches.append("\(c.0): Tidal refused it"); continue }
            // Tidal sends the old pattern's events on with gain 0 once a crossfade is over;
            // Podium does not send them.
            let theirs = c.0.hasPrefix("xfadeIn") ? told.filter { !$0.contains("gain=0.0 ") && !$0.hasSuffix("gain=0.0") } : told
            if !TidalOracle.same(ours, theirs) {
                let a = Set(ours.map(TidalOracle.normalize)), b = Set(theirs.map(TidalOracle.normalize))
                mismatches.append("\(c.0) (\(ours.count) against \(theirs.count) events)\n  only Tidal: \(b.subtracting(a).sorted().prefix(4))\n  only Podium: \(a.subtracting(b).sorted().prefix(4))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        // Once over, a transition settles on a pattern of the same events without the old one.
        for (k, c) in cases.enumerated() {
            let parts = c.2.split(separator: "/").compactMap { Int64($0) }
            let now = parts.count == 2 ? Time(parts[0], parts[1]) : Time(parts[0])
            let newPattern = try language.pattern(c.3)
            guard let settled = c.1.settled(now: now, new: newPattern) else { continue }
            let mix = c.1.apply(now: now, new: newPattern, old: try language.pattern(c.4))
            let from = settled.at.sam + Time(1)
            let a = EventLines.lines(mix.rotL(from), cycles: 3), b = EventLines.lines(settled.pattern.rotL(from), cycles: 3)
            #expect(TidalOracle.same(a, b), "\(c.0) case \(k): settled from \(settled.at)")
        }
        // A slot that played nothing plays the new pattern as it is (Tidal's one-pattern history).
        let alone = try language.pattern(new)
        #expect(EventLines.lines(Transition.xfadeIn(Time(4)).apply(now: Time(1), new: alone, old: nil), cycles: 2) == EventLines.lines(alone, cycles: 2))
    }
}
