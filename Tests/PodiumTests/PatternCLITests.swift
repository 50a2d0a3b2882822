import Foundation
import Testing

/// `podium pattern` as a performer runs it, held against Debian's Tidal 1.7.10 (ghci) on the
/// same text: the same lines, and refusals with their column.
@Suite("podium pattern against Tidal")
struct PatternCLITests {
    static let cases: [(String, Int)] = [
        (#"s "bd*2 [~ sn]" # n "<0 3>""#, 4),
        (#"d1 $ s "bd? hh*8?" # gain (range 0.8 1 rand)"#, 4),
        (#"every 3 (fast 2) $ s "bd sn [~ bd] sn" # speed "<1 2>""#, 6),
        (#"sometimesBy 0.3 (# crush 4) $ n "0 .. 7" # s "arpy""#, 4),
        (#"jux rev $ off 0.125 (|+ n 12) $ s "superpiano(3,8,<0 2>)" # n "c e g""#, 4),
        (#"whenmod 4 2 (# speed 2) $ s "{bd sn, hh hh hh}%4" # pan sine"#, 8),
        (#"chunk 4 (hurry 2) $ s "[bd | sn | hh]*4""#, 8),
        (#"ply "<1 2>" $ iter 4 $ s "bd sn:2 hh cp" # legato 0.5"#, 8),
    ]

    @Test("every case prints Tidal's events, as exact fractions sorted by start")
    func matchesTidal() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        let theirs = try TidalOracle.events(Self.cases.map { c in
            (expression: c.0.hasPrefix("d1 $ ") ? String(c.0.dropFirst(5)) : c.0, cycles: c.1)
        })
        for (i, c) in Self.cases.enumerated() {
            let r = try run(Paths.podium, ["pattern", c.0, "--cycles", "\(c.1)"])
            #expect(r.status == 0, "\(c.0): \(r.stderr)")
            let ours = r.stdout.split(separator: "\n").map(String.init)
            #expect(!ours.isEmpty, "\(c.0) printed nothing")
            let starts = ours.compactMap { $0.split(separator: " ").first.map(String.init) }
            #expect(starts == starts.sorted { fraction($0) < fraction($1) }, "sorted by start: \(c.0)")
            #expect(TidalOracle.same(ours, theirs[i] ?? []), "\(c.0)\n  Tidal: \(theirs[i] ?? [])\n  ours:  \(ours)")
        }
    }

    @Test("a refused pattern prints the line, a caret under its column and the reason, and exits 1")
    func refusals() throws {
        let r = try run(Paths.podium, ["pattern", #"s "bd*2 [sn" # n 3"#])
        #expect(r.status == 1)
        #expect(r.stderr.contains("s \"bd*2 [sn\" # n 3\n        ^ 9: unclosed"), "\(r.stderr)")
        let dense = try run(Paths.podium, ["pattern", #"s "bd*99999999""#])
        #expect(dense.status == 1 && dense.stderr.contains("events a cycle"), "\(dense.stderr)")
        let unknown = try run(Paths.podium, ["pattern", #"rolled $ s "bd""#])
        #expect(unknown.status == 1 && unknown.stderr.contains("`rolled` is not supported yet"), "\(unknown.stderr)")
    }

    // Thread: any
    func fraction(_ s: String) -> Double {
        let parts = s.split(separator: "/")
        return parts.count == 2 ? (Double(parts[0]) ?? 0) / (Double(parts[1]) ?? 1) : Double(s) ?? 0
    }
}
