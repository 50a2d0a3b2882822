import Foundation
import Testing
@testable import PodiumPatterns

/// The mini-notation (MiniNotation.swift, MiniParser.swift, Euclid.swift) against Tidal 1.7.10
/// itself: every case is parsed by us and by `ghci` (one batch), and the onsets of its first
/// cycles must be the same events. Controls match the kind: `s` for strings, `n` for notes,
/// `speed` for doubles, `cut` for ints; times and booleans go through a `Map.singleton`.
@Suite("Mini-notation against Tidal")
struct MiniNotationTests {
    /// (kind, cycles, text). The last ones come from a random grammar-driven generator.
    static let cases: [(MiniKind, Int, String)] = [
        (.string, 2, "bd"), (.string, 2, "bd sn"), (.string, 2, "bd*2 [~ sn]"), (.string, 2, "~ bd"), (.string, 2, "~bd"),
        (.string, 2, "bd~ sn"), (.string, 2, "bd [sn [hh cp]]"), (.string, 2, "[bd sn] hh"), (.string, 2, "bd:3 sn:1 hh.2"),
        (.string, 2, "bd sn:3 ~ ~ hh27"), (.string, 2, "  bd   sn  "), (.string, 2, ""), (.string, 2, "~"), (.string, 2, "[]"),
        (.string, 2, "bd [] sn"), (.string, 2, "bd [~ ~] sn"), (.string, 2, "808 909:2"), (.string, 2, "bd.sn bd-x sd_2"),
        (.string, 4, "bd*2"), (.string, 4, "bd/2"), (.string, 4, "[bd sn]/3"), (.string, 4, "bd*1.5 sn"),
        (.string, 4, "bd*<2 3>"), (.string, 4, "bd*[2 3]"), (.string, 4, "bd/<2 1>"), (.string, 4, "[bd sn]*<1 2 3>"),
        (.string, 4, "bd*{2 3}%4"), (.string, 4, "bd*<2 [3 4]>"), (.string, 4, "bd*-1 sn"), (.string, 4, "[bd sn hh]*0"),
        (.string, 4, "bd*2 e"), (.string, 4, "bd*3q"), (.string, 4, "bd*1%3"), (.string, 4, "[bd sn]/1.5"),
        (.string, 4, "bd*2 sn*3 hh/2"), (.string, 4, "bd*<2 3>?"), (.string, 4, "bd*[2|3]"), (.string, 2, "bd@3 sn"),
        (.string, 2, "bd _ _ sn"), (.string, 2, "bd@1.5 sn"), (.string, 2, "bd@3 sn@2 hh"), (.string, 2, "bd _ sn@2 _"),
        (.string, 2, "bd!3 sn"), (.string, 2, "bd ! ! sn"), (.string, 2, "bd!2 sn!3"), (.string, 2, "bd! sn"),
        (.string, 2, "[bd sn]!2 hh"), (.string, 2, "bd!0 sn"), (.string, 2, "<bd sn>!2 hh"), (.string, 2, "bd@0.5 sn"),
        (.string, 2, "bd@e sn"), (.string, 2, "bd __ sn"), (.string, 2, "bd@ sn"), (.string, 2, "bd . sn sn . hh hh hh"),
        (.string, 2, "bd sn . hh"), (.string, 2, ". bd"), (.string, 2, "bd . . sn"), (.string, 2, "bd . sn ."),
        (.string, 2, "[bd . sn sn] hh"), (.string, 2, "bd*2 . [sn cp] . hh? hh"), (.string, 8, "[bd, sn sn]"),
        (.string, 8, "[bd sn, hh hh hh]"), (.string, 8, "[bd | sn | hh]"), (.string, 8, "[bd sn | hh*3 | cp ~]"),
        (.string, 8, "bd [sn | cp] [hh | oh]"), (.string, 8, "[bd | sn] [bd | sn]?"), (.string, 8, "[bd,]"),
        (.string, 8, "[bd | ~]"), (.string, 8, "[bd|sn|hh|cp]*4"), (.string, 8, "bd? [a|b] c?0.3 [d|e]"),
        (.string, 8, "<bd sn>"), (.string, 8, "<bd sn hh>"), (.string, 8, "bd <sn cp>"), (.string, 8, "<bd <sn cp>>"),
        (.string, 8, "<bd [sn sn]> hh"), (.string, 8, "<bd sn, hh cp oh>"), (.string, 8, "<bd*2 sn/2>"),
        (.string, 8, "<bd sn>*2"), (.string, 8, "<bd sn>/2"), (.string, 8, "<bd@3 sn>"), (.string, 8, "<bd! sn>"),
        (.string, 8, "<[bd sn] <hh [cp cp]>>"), (.string, 8, "<bd ~ sn>"), (.string, 8, "<bd <sn <cp hh>>>*3"),
        (.string, 4, "{bd sn, hh hh hh}"), (.string, 4, "{bd sn hh}%4"), (.string, 4, "{bd sn}%<2 4>"),
        (.string, 4, "{bd sn, a b c d e}%3"), (.string, 4, "{bd*2 sn, hh}"), (.string, 4, "{bd sn}"),
        (.string, 4, "{bd sn, hh hh hh}*2"), (.string, 4, "{bd sn hh}%[4 8]"), (.string, 4, "{bd sn}%4?"),
        (.string, 4, "{bd@2 sn, a b c}"), (.string, 4, "{~ bd, sn sn sn}%2"), (.string, 4, "{bd sn}%1.5"),
        (.string, 4, "bd(3,8)"), (.string, 4, "bd(3,8,2)"), (.string, 4, "bd(<3 5>,8)"), (.string, 4, "bd(3,8,<0 2>)"),
        (.string, 4, "bd(3 5,8)"), (.string, 4, "bd([3 5],[8 16])"), (.string, 4, "bd(5,8) sn"), (.string, 4, "bd(-3,8)"),
        (.string, 4, "bd(3,-8)"), (.string, 4, "bd(10,8)"), (.string, 4, "bd(3,0)"), (.string, 4, "bd(0,8)"),
        (.string, 4, "[bd sn](3,8)"), (.string, 4, "bd(3,8)?"), (.string, 4, "<bd sn>(3,8)"), (.string, 4, "bd( 3 , 8 , 1 )"),
        (.string, 4, "bd(3,8,-1)"), (.string, 4, "bd(<3 2>,<8 4>,<0 1 2>)"), (.string, 4, "{bd sn}(3,8)"),
        (.string, 4, "bd(c,e)"), (.string, 4, "bd(3,8)!2 sn"), (.bool, 4, "t(3,8)"), (.bool, 4, "t f t t"), (.bool, 4, "1 0 1"),
        (.bool, 4, "t(3,8,2)"), (.bool, 4, "[t f](3,8)"), (.bool, 4, "f(3,8)"), (.bool, 4, "t*2 ~ f"), (.bool, 4, "<t f>(5,8)"),
        (.bool, 4, "t(<3 5>,8)"), (.bool, 4, "t? f? t t"), (.string, 16, "bd?"), (.string, 16, "bd*8?"),
        (.string, 16, "bd? sn? hh? cp?"), (.string, 16, "bd?0.3 sn?0.9"), (.string, 16, "bd*16?0.25"), (.string, 16, "[bd sn]?"),
        (.string, 16, "bd sn ?"), (.string, 16, "bd?? sn"), (.string, 16, "[bd? sn?]*4"), (.string, 16, "<bd? sn?> hh?"),
        (.string, 16, "bd(5,8)?"), (.string, 16, "bd? [sn|cp] hh? [oh|lt|mt]"), (.string, 16, "bd?0.5 sn?0.5"),
        (.string, 16, "{bd? sn, hh? hh hh}%4"), (.string, 16, "[bd | sn | hh]?"), (.string, 16, "bd?1e-1"),
        (.string, 16, "bd*4?0.75"), (.note, 2, "0 .. 3"), (.note, 2, "3 .. 0"), (.note, 2, "0 .. 7"), (.note, 2, "c e g"),
        (.note, 2, "a5 c6 cs2"), (.note, 2, "c d e f g a b"), (.note, 2, "cs df en ff bs"), (.note, 2, "c4 c5 c6 c7"),
        (.note, 2, "-1 -2.5 +3"), (.note, 2, "0.5 1.25"), (.note, 2, "1e3 2e-1"), (.note, 2, "1 --2"), (.note, 2, "c'maj e'min"),
        (.note, 2, "c'maj'5"), (.note, 2, "e'min'ii"), (.note, 2, "c'maj'o"), (.note, 2, "c'major7'ii'o"), (.note, 2, "'maj"),
        (.note, 2, "0'dom7"), (.note, 2, "a'dim7'8"), (.note, 2, "c'maj'10 ~"), (.note, 2, "0 .. c"), (.note, 2, "<0 2> .. 4"),
        (.note, 2, "[0 .. 3]*2"), (.note, 2, "q w h"), (.note, 2, "-1 .. 2"), (.note, 2, "0 .. 2.5"), (.note, 2, "1.5 .. 4"),
        (.note, 2, "f . a"), (.note, 2, "c? e? g?"), (.note, 2, "0x10 0o10"), (.note, 2, "c'maj*2 e'min/2"), (.note, 2, "c'foo"),
        (.note, 2, "c'maj'3i"), (.note, 2, "c'six'-1"), (.double, 2, "1 2 3"), (.double, 2, "0.5 1.5"), (.double, 2, "e5 q"),
        (.double, 2, "e f s t x h w q"), (.double, 2, "1%4 3%8"), (.double, 2, "-1 -0.5"), (.double, 2, "c e g a"),
        (.double, 2, "1e-2"), (.double, 2, "2q 3e"), (.double, 2, "c'maj"), (.double, 2, "0 .. 3"), (.double, 2, "0.5 .. 2"),
        (.double, 2, "-q"), (.double, 2, "1 .. -2"), (.double, 2, "es fs"), (.double, 2, "1 [2 3]*2 <4 5>"), (.int, 2, "1 2 3"),
        (.int, 2, "1 .. 4"), (.int, 2, "4 .. 1"), (.int, 2, "0 -1 +2"), (.int, 2, "1 2 .. 5"), (.int, 2, "c e g"),
        (.int, 2, "1e3"), (.int, 2, "c'maj"), (.int, 2, "1'min'ii"), (.int, 2, "<1 2>*2 3!"), (.int, 2, "0 .. 3?"),
        (.time, 2, "1%3 0.25 q 3e"), (.time, 2, "1 2 3"), (.time, 2, "1 .. 3"), (.time, 2, "0.5 .. 2"), (.time, 2, "1%4 .. 2"),
        (.time, 2, "w h q e s t f x"), (.time, 2, "2q 1 e"), (.time, 2, "-1%2"), (.time, 2, "1 e"), (.time, 2, "3 .. 1"),
        (.string, 8, "bd*2 [~ sn] <hh [hh hh]>"), (.string, 8, "[bd(3,8), hh*8?, <~ sn>]"),
        (.string, 8, "bd . [sn|cp] sn . <hh oh>*2"), (.string, 8, "<bd sn>(3,8,<0 2>)"),
        (.string, 8, "{bd [sn sn], hh hh hh}%<4 8>"), (.string, 8, "[bd sn]!2 . hh@3 oh"),
        (.string, 8, "bd*<1 2 [3 4]> sn/<1 2>"), (.string, 8, "<bd!2 sn@2>"), (.string, 8, "[bd sn]@2 [hh|oh|cp]?"),
        (.string, 8, "bd <sn [sn sn]>? hh*<4 8>?0.3"), (.string, 8, "[bd, ~ sn, ~ ~ hh ~]"), (.string, 8, "bd:<1 2>"),
        (.string, 8, "bd [sn . hh hh]"), (.string, 8, "[[bd sn] [hh [cp cp]]]*<1 2>"), (.string, 8, "bd(3,8,<0 1 2 3>)?0.2"),
        (.string, 8, "<[bd|sn] [hh|oh]>*4"), (.string, 8, "bd sn:2? hh:<1 3>*2"), (.string, 2, "sn"),
        (.int, 2, "-1(<8 [5 8]>,5,<-1 5>) . -1/3 _ _"),
        (.int, 2, "{7, {{1 .. 1, c}%1%2?0.8 _ _ 0?0.3, 0*1%2 <c/2(3,2)>! -1?0.3}%4(8,[[3 5] -1],5)}%1.5 _"), (.bool, 8, "f 0"),
        (.int, 2, "[[<~?0.8 ~!3, 7(8,[5 5],2)>*4 ~]]"), (.bool, 8, "0"),
        (.bool, 2, "[0*[{1%2 q}%3 1.5] [~, [~/[3 1.5] 0 ~ | 0?0.8 1 ~*[3 1.5]]/2]] 1"),
        (.string, 8, "[<<hh:2 a*4 cp/[4 {2 1.5}%3]>/1.5 . [~ | a]> cp cp*q]*{q q}%3? ~"),
        (.double, 4, "{-2 .. 1, q 1/1.5 q 0.5}?0.8"), (.double, 2, "1 .. 1 1?0.3"), (.time, 2, "2?0.8"),
        (.double, 8, "q*1.5@1.5 q ~ c?0.3"), (.bool, 2, "1?0.8 f/<[2 1%2] [1%2 4]> 0(8,<0 2>)"), (.time, 4, "~ 2*2"),
        (.note, 2, "e5*4"), (.bool, 2, "1*1.5([8 8],<<0 2> 5>)?0.3 1*q ! t(8,0,0)"), (.string, 2, "bd bd bd/3 ~!3"),
        (.note, 4, "[0'maj(-1,8,-1)?0.8 ! -2 ! ~] . 0'maj(5,<[5 5] 0>) <[0], c .. -2 e'min'ii -2>?0.3@2"),
        (.double, 8, "<e <e@1.5>?0.8 <[c e q 1%3@2 | q*1.5] e c>?0.8>?!3"), (.note, 8, "~ _ _"), (.bool, 2, "~/1%2"),
        (.note, 8, "3 .. 0"), (.bool, 8, "f"), (.note, 2, "0'maj"), (.note, 4, "<<-2*1.5?0.3>> . c*{[2 1.5] 4}%3"),
        (.bool, 4, "~*4 f f"),
        (.time, 4, "<~, 2 ! 3> <[[0.5(2,<-1 3>)? q 3, 2 .. 1]*2 [0.5 .. 0.5 q 1%3] . q*2]*<1%2 <q 3>>> 1%3"),
        (.int, 4, "{7*1%2@2 1 _ _, [c?0.3!3 7](5,5) <{c c 7 ~, ~@1.5 3 ~? 1/3 _ _}> ~} 0"), (.double, 4, "<c(3,2)>"),
        (.time, 4, "1%3*{1%2 4}%3(3,<-1 5>,-1) 3/{[1.5 1%2] 1.5}%3?0.3 ~!3"), (.int, 8, "c"), (.time, 2, "1 0.5 q*{2 2}%3 _ _"),
        (.int, 8, "3? <[[1 | -1*1.5?0.8 -1?0.8@2]!3]> 3 0?0.8@2"), (.string, 4, "cp"),
        (.bool, 8, "<[t?0.3]([-1 0],2), <<f> _ [f] {f, 0 1}%4 t, [t ~] f> t?>"), (.double, 2, "~"),
        (.bool, 8, "<~(0,2,8)>?0.8 1"), (.bool, 8, "t(-1,0)"),
        (.int, 2, "-1 .. 3 c <3 .. 1 <[0 c 7 0 | c?0.8] . [~ | -1*2 c ~ 1]>*1%2!>/3"), (.int, 4, "-1?0.3"), (.int, 2, "c"),
        (.int, 4, "1 <c> [<<~> [1*<q 1%2>] -1 3*[<4 1%2> [3 2]]?0.8> | 0]/{[1.5 3] {1%2 4}%3}%3"),
        (.int, 8, "0? [-1 c 7(<-1 0>,<[8 -1] 2>,[<8 3> <2 8>])](0,<0 5>) <0?>"), (.bool, 4, "0"), (.string, 8, "hh:2(2,5)"),
        (.int, 4, "-1 .. 0"), (.bool, 2, "0"),
        (.string, 2, "hh:2(2,[2 [5 5]]) a*1.5 [hh:2? [[cp sn, sn a bd _] _ _ [a bd(3,-1) | sn ~ a ~]]?0.8]"),
        (.int, 4, "3(0,<<5 -1> 8>,<[2 5] 5>)?"), (.double, 4, "[~*2] 0.5?"), (.time, 4, "1%3 .. 0.5 1%3/1.5"),
        (.string, 8, "a(3,[<2 -1> 0])"), (.string, 4, "cp*1%2!"), (.bool, 4, "f 1*q . 1"), (.int, 2, "3"), (.int, 8, "c"),
        (.bool, 8, "0*{1.5 {1.5 q}%3}%3 <1 f*<1.5 2> t>*1%2"), (.bool, 2, "~? _ f 0 ~"), (.string, 4, "[cp !] _ _ . bd"),
        (.double, 4, "<1/2?0.8 q*[2 <4 3>]?0.3 1, -2?0.3 0.5 <q .. -2>?0.8 c>*q@2 [c ~ 1%3]*[3 {4 4}%3]"),
        // Chords, ranges, feet and weights where Parsec's lexer eats spaces ("_ 3" is a weight of 3).
        (.note, 2, "c'maj'5o"), (.note, 2, "c'maj'io"), (.note, 2, "e5'min c'dom7'ii"), (.note, 2, "c'maj'8iii"),
        (.double, 2, "c'maj e'min'o"), (.int, 2, "0'maj'4 c'min'i"), (.bool, 2, "t . f f"), (.bool, 2, "t .. f"),
        (.string, 2, "a .. c"), (.note, 2, "c .. e"), (.note, 2, "0 .. <2 4>"), (.note, 4, "<0 2> .. <4 6>"),
        (.string, 2, "bd(<3 5>!,8)"), (.string, 2, "^foo bd"), (.string, 2, "bd:3?"), (.double, 2, "0.25 .. 2"),
        (.time, 2, "1%2 .. 3"), (.int, 2, "-3 .. -1"), (.note, 2, "cf5 bs4 en"), (.note, 2, "1 2 . 3"),
        (.string, 4, "bd(3,8,2)!2 sn(<5 3>,8)"), (.string, 4, "[bd sn]@2 . hh?"), (.string, 8, "bd?0.25*4"),
        (.string, 8, "[bd|sn|hh]*2 [bd|sn]"), (.string, 4, "bd . [sn|hh] . <a b>?"), (.int, 2, "1 2 _ 3"), (.note, 2, "0 _ _ 1"),
        (.string, 2, "bd _ _ 3"), (.note, 4, "{0 2 4}%<2 3>"), (.int, 4, "<1 .. 4>"), (.string, 4, "bd*<2 3 . 4>"),
        (.string, 4, "bd [~ sn]/2"), (.note, 2, "-c"), (.double, 2, "-c 1.5e1"), (.note, 2, "0x1F 0o17"),
        (.string, 4, "bd? bd? bd? bd?"), (.string, 4, "[bd bd bd bd]?"), (.bool, 4, "t(<3 5>,8,<0 2>) f(3,8)"),
        (.bool, 4, "[t f](3,8)"), (.bool, 4, "<t f>(5,8,2)"), (.string, 4, "bd*2?0.1"), (.note, 2, "0 .. 3?"),
    ]

    // Thread: any
    static func key(_ kind: MiniKind) -> String {
        switch kind {
        case .string: return "s"
        case .note: return "n"
        case .double: return "speed"
        case .int: return "cut"
        case .time, .bool: return "x"
        }
    }

    /// The Haskell expression giving Tidal's events for a case.
    // Thread: any
    static func expression(_ kind: MiniKind, _ text: String) -> String {
        let literal = "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        switch kind {
        // `s` itself would split "bd:3" into s and n (the control's work, not the parser's).
        case .string: return "fmap (\\v -> Map.singleton \"s\" (VS v)) (\(literal) :: Pattern String)"
        case .note, .double, .int: return "\(key(kind)) \(literal)"
        case .time: return "fmap (\\v -> Map.singleton \"x\" (VR v)) (\(literal) :: Pattern Rational)"
        case .bool: return "fmap (\\v -> Map.singleton \"x\" (VB v)) (\(literal) :: Pattern Bool)"
        }
    }

    // Thread: any
    static func ours(_ kind: MiniKind, _ text: String, cycles: Int) throws(PatternError) -> [String] {
        let key = key(kind)
        return EventLines.lines(try MiniNotation.parse(text, kind: kind).map { [key: $0] }, cycles: cycles)
    }

    @Test("every case gives Tidal's events")
    func matchesTidal() throws {
        try #require(TidalOracle.available, "needs ghci with Debian's Tidal 1.7.10 (scripts/setup installs ghc and libghc-tidal-dev)")
        let tidal = try TidalOracle.events(Self.cases.map { (expression: Self.expression($0.0, $0.2), cycles: $0.1) })
        var failures: [String] = []
        for (i, c) in Self.cases.enumerated() {
            do {
                let mine = try Self.ours(c.0, c.2, cycles: c.1)
                guard let theirs = tidal[i], !(theirs.isEmpty && !mine.isEmpty) else {
                    failures.append("\"\(c.2)\" (\(c.0)): Tidal gave nothing, we gave \(mine.prefix(4))")
                    continue
                }
                if !TidalOracle.same(mine, theirs) {
                    failures.append("\"\(c.2)\" (\(c.0), \(c.1) cycles):\n  Tidal: \(theirs.prefix(8))\n  ours:  \(mine.prefix(8))")
                }
            } catch {
                failures.append("\"\(c.2)\" (\(c.0)): we refused it: \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.cases.count) cases differ from Tidal; the first:\n\(failures.first ?? "")")
    }

    /// Bad strings: each refused, naming the column of the character at fault.
    @Test("refusals name the column at fault")
    func errors() {
        let bad: [(MiniKind, String, Int, String)] = [
            (.string, "bd ]", 4, "unexpected \"]\""), (.string, "[bd sn", 1, "unclosed \"[\""),
            (.string, "bd sn ??", 8, "\"?\" needs a step before it"), (.string, "*2 bd", 1, "\"*\" needs a step before it"),
            (.string, "bd*", 3, "\"*\" needs a number after it"), (.string, "bd(3", 3, "unclosed \"(\""),
            (.string, "bd(3)", 5, "expected \",\""), (.string, "<bd sn", 1, "unclosed \"<\""),
            (.string, "{bd sn", 1, "unclosed \"{\""), (.string, "[bd sn>", 7, "unexpected \">\""),
            (.string, "bd?1", 5, "\"?\" takes a decimal"), (.string, "bd . ", 4, "\".\" must stand between steps"),
            (.string, "bd!20000", 3, "copies"), (.string, "bd(3,20000)", 6, "Euclid"),
            (.string, "bd sn, hh", 6, "unexpected \",\""), (.string, "bd | sn", 4, "unexpected \"|\""),
            (.string, "@3 bd", 1, "\"@\" needs a step before it"), (.int, "1.5", 1, "not an integer"),
            (.note, "-x", 2, "expected a number"), (.string, "bd%4", 3, "\"%\""),
            (.string, String(repeating: "[", count: 150) + "bd" + String(repeating: "]", count: 150), 101, "nested"),
            (.string, "bd*<2 ~>", 7, "unexpected \"~\""), (.string, "a ..", 3, "\"..\" needs a step after it"),
            (.time, "1%0", 3, "denominator 0"), (.note, "c'maj' e", 7, "chord"), (.string, "bd sn)", 6, "unexpected \")\""),
            (.string, "bd(3,8", 3, "unclosed \"(\""), (.string, "bd*y", 4, "\"*\" needs a number after it"),
            (.string, "bd [sn, hh", 4, "unclosed \"[\""), (.string, "bd } sn", 4, "unexpected \"}\""),
            (.string, "bd /", 4, "\"/\" needs a step before it"), (.string, "bd?0.", 6, "\"?\" takes a decimal"),
            (.bool, "t x", 3, "unexpected \"x\""), (.string, "-bd", 1, "unexpected \"-\""), (.note, "c'", 3, "chord name"),
            (.string, "bd(3 8)", 7, "expected \",\""), (.double, "1%", 3, "denominator"), (.string, "bd _ _ !", 8, "\"!\""),
        ]
        for (kind, text, column, message) in bad {
            do {
                _ = try MiniNotation.parse(text, kind: kind)
                Issue.record("\"\(text)\" was accepted")
            } catch {
                #expect(error.column == column && error.line == 1, "\"\(text)\": \(error)")
                #expect(error.message.contains(message), "\"\(text)\": \(error)")
            }
        }
    }

    @Test("columns and lines are the performer's")
    func coordinates() throws {
        do {
            _ = try MiniNotation.parse("bd ]", kind: .string, column: 5, line: 2)
            Issue.record("accepted")
        } catch {
            #expect(error.column == 8 && error.line == 2)
        }
        do {
            _ = try MiniNotation.parse("bd\n  ] sn", kind: .string, column: 10, line: 3)
            Issue.record("accepted")
        } catch {
            #expect(error.column == 3 && error.line == 4)
        }
        // Each event carries its step's span (as Tidal's TPat_Atom), then its `*` argument's.
        let p = try MiniNotation.parse("bd sn*2", kind: .string, column: 11, line: 4)
        let events = p.queryArc(0, 1).filter(\.hasOnset).sorted { $0.wholeStart < $1.wholeStart }
        #expect(events.map(\.context) == [[SourceSpan(11, 4, 13, 4)],
                                          [SourceSpan(14, 4, 16, 4), SourceSpan(17, 4, 18, 4)],
                                          [SourceSpan(14, 4, 16, 4), SourceSpan(17, 4, 18, 4)]])
        // A number's span runs to the next step, as Parsec's lexeme leaves it.
        let n = try MiniNotation.parse("0 1.5", kind: .note)
        #expect(n.queryArc(0, 1).map(\.context) == [[SourceSpan(1, 1, 3, 1)], [SourceSpan(3, 1, 6, 1)]])
    }

    @Test("Bjorklund and the Euclid functions")
    func euclid() {
        let x = true, o = false
        #expect(bjorklund(3, 8) == [x, o, o, x, o, o, x, o])
        #expect(bjorklund(5, 8) == [x, o, x, x, o, x, x, o])
        #expect(bjorklund(2, 5) == [x, o, x, o, o])
        #expect(bjorklund(0, 4) == [o, o, o, o])
        #expect(bjorklund(5, 3) == [x, x, x, x, x])
        let bd = Pattern<String>.pure("bd")
        #expect(_euclid(3, 8, bd).queryArc(0, 1).map(\.wholeStart) == [0, Time(3, 8), Time(6, 8)])
        #expect(_euclidOff(3, 8, 2, bd).queryArc(0, 1).filter(\.hasOnset).map(\.wholeStart).sorted() == [Time(1, 8), Time(4, 8), Time(6, 8)])
        #expect(_euclidOff(3, 0, 2, bd).queryArc(0, 1).isEmpty)
        #expect(_euclidBool(3, 8).queryArc(0, 1).map(\.value) == [x, o, o, x, o, o, x, o])
    }

    @Test("pathological strings end quickly")
    func bounded() throws {
        // Lazy: a huge speed costs nothing until a query asks for its events.
        _ = try MiniNotation.parse("bd*99999999999", kind: .string).queryArc(0, Time(1, 1_000_000_000_000))
        for text in ["bd!9999", String(repeating: "bd ", count: 5000), "bd(9999,10000)", "0 .. 99999999",
                     String(repeating: "<", count: 99) + "bd" + String(repeating: ">", count: 99), String(repeating: "bd?", count: 1000),
                     "bd(99999999999,8)", "bd@1e300 sn", "[bd|sn]!9999"] {
            let kind: MiniKind = text.hasPrefix("0") ? .int : .string
            let p = try MiniNotation.parse(text, kind: kind)
            _ = p.queryArc(0, Time(1, 8))
        }
    }
}
