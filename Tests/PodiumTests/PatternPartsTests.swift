import Testing
@testable import PodiumPatterns
@testable import PodiumSurfaces

/// The parts around the pattern engine that Tidal has no say in: exact time that never traps,
/// the density probe, how an event becomes a note's p-fields, and how a patterns file splits.
@Suite("pattern parts")
struct PatternPartsTests {
    @Test("rational time stays exact, and a result past 64 bits becomes a near fraction instead of trapping")
    func time() {
        #expect(Time(1, 3) + Time(1, 3) + Time(1, 3) == 1)
        #expect(Time(-5, 4).sam == -2 && Time(-5, 4).cyclePos == Time(3, 4))
        #expect((Time(7, 12) * 12).description == "7")
        #expect(Time(1, 8).description == "1/8")
        let huge = Time(Int64.max / 3, 7) * Time(Int64.max / 5, 11)
        #expect(huge.denominator > 0 && huge.double.isFinite)
        let tiny = Time(1, Int64.max / 2) + Time(1, Int64.max / 3)
        #expect(tiny.double >= 0 && tiny.double < 1e-17)
        #expect(Time(0.1).description == "1/10" && Time(.nan) == 0)
        #expect(Time(3, 2).mod(1) == Time(1, 2) && Time(-1, 2).mod(1) == Time(1, 2))
    }

    @Test("the density probe finds a typo's millions of events cheaply, and passes what performers play")
    func density() throws {
        let language = PatternLanguage()
        func estimate(_ text: String) throws -> Int { Density.estimate(try language.pattern(text)) }
        #expect(try estimate(#"s "bd*99999999""#) > 10_000_000)
        #expect(try estimate(#"fast 1e9 $ s "bd""#) > 100_000_000)
        #expect(try estimate(#"s "<bd bd*9999999>""#) > 1_000_000, "a dense cycle that is not the first")
        #expect(try estimate(#"s "bd*64""#) <= 5_000)
        #expect(try estimate(#"stack [s "bd*16", s "hh*16", s "sn*16", s "cp*16", s "lt*16", s "mt*16", s "ht*16", s "oh*16"]"#) <= 10_000,
                "layers on one onset do not count as density")
        #expect(try estimate(#"s "bd" # n sine"#) <= 1_000)
    }

    @Test("an event becomes p3 in beats and the declared p-fields, SuperDirt's way for freq and amp")
    func notes() throws {
        let e = try #require(EventLines.onsets(try PatternLanguage(extraControls: ["drive"]).pattern(
            #"s "bass" # n 12 # gain 0.5 # legato 0.5 # drive 0.3 # speed 2"#), cycles: 1).first)
        var fields: [Double] = []
        let unused = PatternNotes.fields(e, layout: ["freq", "amp", "drive", "midi", "pan", "cutoff"], tempo: 120, quantum: 4, into: &fields)
        #expect(fields.count == 8)
        #expect(fields[0] == 0 && fields[1] == 2, "p2 0 (stamped with its beat), p3 a whole bar × legato 0.5 = 2 beats")
        #expect(abs(fields[2] - 523.2511306011972) < 1e-9, "n 12 is c6: 523.25 Hz (note 0 is c5, MIDI 60)")
        #expect(abs(fields[3] - 0.4 * 0.0625) < 1e-12, "amp 0.4 × gain⁴")
        #expect(fields[4] == 0.3 && fields[5] == 72 && fields[6] == 0.5 && fields[7] == 0, "drive, midi, pan's default, cutoff missing")
        #expect(unused == ["speed"], "the one control the layout does not take")
        let sustained = try #require(EventLines.onsets(try PatternLanguage().pattern(#"s "x" # sustain 0.25"#), cycles: 1).first)
        _ = PatternNotes.fields(sustained, layout: [], tempo: 120, quantum: 4, into: &fields)
        #expect(fields == [0, 0.5], "sustain 0.25 s at 120 BPM is half a beat")
    }

    @Test("instruments declare their p-fields on the instr line; bd:3 is a name and an index")
    func declarations() {
        let orchestra = """
        instr bass, 7 ; podium: freq amp cutoff
        endin
        instr +lead ;podium: p4=freq p6=drive
        endin
        instr quiet ; a comment, not a declaration
        endin
        """
        let d = PatternNotes.declarations(in: [orchestra])
        #expect(d["bass"] == ["freq", "amp", "cutoff"] && d["7"] == ["freq", "amp", "cutoff"])
        #expect(d["lead"] == ["freq", "", "drive"])
        #expect(d["quiet"] == nil)
        // Redefined without a declaration: the earlier one no longer holds.
        #expect(PatternNotes.declarations(in: [orchestra, "instr bass\nendin"])["bass"] == nil)
        #expect(PatternNotes.sound(.string("bd:3"))! == ("bd", 3))
        #expect(PatternNotes.sound(.string("bass"))! == ("bass", 0))
        #expect(PatternNotes.sound(nil) == nil)
    }

    @Test("a patterns file: statements at the margin, indented lines continue them, comments and blank lines between")
    func patternsFile() {
        let text = """
        -- the set
        setcps 0.6

        d1 $ s "bd*2"
          # n 3
        d2 $ every 2 (fast 2)
           $ s "hh*4"
        # gain 0.8
        hush
        """
        let s = PatternFile.statements(in: text)
        #expect(s.map(\.firstLine) == [2, 4, 6, 9])
        #expect(s[1].text == "d1 $ s \"bd*2\"\n  # n 3")
        #expect(s[2].text.hasSuffix("# gain 0.8"))
        #expect(s[3].text == "hush")
        #expect(PatternFile.slot(of: "d1 $ s \"bd") == "d1" && PatternFile.slot(of: "d12$ s") == "d12")
        #expect(PatternFile.slot(of: "p \"drums\" $ s \"bd") == "drums" && PatternFile.slot(of: "p 3 $ x") == "d3")
        #expect(PatternFile.slot(of: "setcps 0.5") == nil)
        #expect(PatternPlayer.isSilence("d1 silence") && PatternPlayer.isSilence("d2 $ silence") && PatternPlayer.isSilence("p \"x\" $ silence"))
        #expect(!PatternPlayer.isSilence("d1 $ s \"silence\"") && !PatternPlayer.isSilence("d1 $ fast 2 silence"))
    }

    @Test("the REPL knows a pattern statement from Csound code and score")
    func replSeesPatterns() {
        for line in [#"d1 $ s "bd""#, "d16 silence", "hush", "setcps 0.5", #"p "x" $ s "bd""#, "once $ s \"bd\""] {
            #expect(ReplInterpreter.isPatternStatement(line), "\(line)")
        }
        for line in ["d1 = 3", "d17 $ x", "i1 0 1", "kx = 3", "hushed", "setcps", "gkd1 init 0"] {
            #expect(!ReplInterpreter.isPatternStatement(line), "\(line)")
        }
        var repl = ReplInterpreter()
        #expect(repl.feed(":{") == .incomplete)
        #expect(repl.feed(#"d1 $ s "bd""#) == .incomplete)
        #expect(repl.feed("  # n 3") == .incomplete)
        #expect(repl.feed(":}") == .pattern("d1 $ s \"bd\"\n  # n 3", firstLine: 2))
    }
}
