import Testing
@testable import PodiumPatterns

/// Tidal's controller input (`cF`, `cI`, `cS` …, `sec`): a pattern reads the performance's
/// controller values each time it is queried. Their defaults are checked against Tidal itself
/// (PatternExpressionTidalTests); what a value set from outside does is checked here.
@Suite("Controller input (cF, cI, cS, sec)")
struct ControllerInputTests {
    // Thread: any
    func lines(_ text: String, _ values: ControllerValues) throws -> [String] {
        EventLines.lines(try PatternLanguage(controllers: values).pattern(text), cycles: 1)
    }

    @Test("a value set after the pattern was made is read at its next query; unset, the default; a value of the wrong kind, the default; the _ forms are silent until set")
    func valuesAreReadWhenQueried() throws {
        let values = ControllerValues()
        let pattern = try PatternLanguage(controllers: values).pattern(#"s "bd*2" # lpf (cF 1000 "cut") # n (cI 0 "shift") # vowel (cS "a" "v")"#)
        func first() -> ControlMap? { pattern.queryArc(.zero, Time(1)).first?.value }
        #expect(first()?["cutoff"] == .double(1000) && first()?["n"] == .note(0) && first()?["vowel"] == .string("a"), "\(String(describing: first()))")
        values.set("cut", .double(250))
        values.set("shift", .double(3.7))   // Tidal's getI floors a float
        values.set("v", .string("o"))
        #expect(first()?["cutoff"] == .double(250) && first()?["n"] == .note(3) && first()?["vowel"] == .string("o"), "\(String(describing: first()))")
        values.set("cut", .string("high"))  // not a number: the default, as Tidal's getF gives Nothing
        #expect(first()?["cutoff"] == .double(1000))
        #expect(try lines(#"s "bd*2" # speed (cF_ "nothing")"#, values).isEmpty, "cF_ unset: silence")
        values.set("nothing", .int(2))
        #expect(try lines(#"s "bd*2" # speed (cF_ "nothing")"#, values).count == 2)
    }

    @Test("sec and msec scale by the clock's cycles a second (_cps); 1 when no clock set it")
    func secondsFollowTheClock() throws {
        let values = ControllerValues()
        let pattern = try PatternLanguage(controllers: values).pattern(#"s "bd" # delaytime (sec 0.25) # legato (msec 500)"#)
        #expect(pattern.queryArc(.zero, Time(1)).first?.value["delaytime"] == .double(0.25))
        values.set("_cps", .double(0.5))
        let e = pattern.queryArc(.zero, Time(1)).first?.value
        #expect(e?["delaytime"] == .double(0.125) && e?["legato"] == .double(0.25), "\(String(describing: e))")
    }
}
