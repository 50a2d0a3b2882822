import Glibc
import PodiumEngine
import PodiumHost
import Synchronization
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

    @Test("a pattern whose query walks millions of cycles to make a few events is refused quickly, with its reason; dense sets pass")
    func queryWork() throws {
        let language = PatternLanguage()
        for text in [#"s "beep" # freq (segment 1e7 $ range 200 800 sine)"#, #"s "bd" # n (fast 1e8 $ irand 8)"#,
                     #"s "bd*2" # pan (segment 5e6 $ rand) # speed (segment 1e7 saw)"#] {
            let pattern = try language.pattern(text)
            let cpu = PatternPartsTests.threadCPU()
            #expect(throws: InputError.self, "\(text)") { try PatternPlayer.checkDensity(pattern) }
            let spent = PatternPartsTests.threadCPU() - cpu
            #expect(spent < 3, "\(text): refused after \(spent) s of CPU")
            do { try PatternPlayer.checkDensity(pattern) } catch { #expect(error.description.contains("steps to work out"), "\(error)") }
        }
        for text in [#"s "bd*16 [~ sn]*4" # n (segment 16 $ irand 8) # pan sine"#, #"fast 16 $ s "hh*64" # gain (segment 512 $ range 0.8 1 rand)"#,
                     #"s "bd*8" # n (segment 8 $ irand 8) # pan (slow 4 $ segment 32 sine)"#,
                     #"slow 4 $ s "ccstab*128" # n "[1 0 2 3]/12" # begin (segment 128 saw)"#] {
            let pattern = try language.pattern(text)
            try PatternPlayer.checkDensity(pattern)
            let (events, exceeded) = QueryBudget.limited(to: QueryBudget.stepsPerCycle) { pattern.queryArc(0, 1) }
            #expect(!exceeded && !events.isEmpty, "\(text)")
        }
        // A walk stops where its budget ends; outside a limit it is not metered and completes
        // (`# n` keeps the left's one event, in a fragment for each of the right's 3,000).
        let walk = try language.pattern(#"s "x" # n (segment 3000 saw)"#)
        #expect(QueryBudget.limited(to: 1000) { walk.queryArc(0, 1) }.exceeded)
        #expect(walk.queryArc(0, 1).count == 3000 && walk.queryArc(0, 1).filter(\.hasOnset).count == 1)
    }

    /// This thread's CPU time in seconds.
    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
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
        // A declared default: what an event without the control gets (SuperDirt's synth defaults).
        let pad = PatternNotes.declarations(in: ["instr pad ; podium: freq amp voice:0.5 p8=semitone:12"])["pad"]
        #expect(pad == ["freq", "amp", "voice:0.5", "", "semitone:12"], "\(pad ?? [])")
        var fields: [Double] = []
        let unused = PatternNotes.fields(["n": .double(0), "voice": .double(0.25), "cutoff": .double(3)], length: 1, cycle: 0, delta: 1, cps: 1,
                                         layout: pad ?? [], into: &fields)
        #expect(fields.count == 7 && fields[4] == 0.25 && fields[5] == 0 && fields[6] == 12 && unused == ["cutoff"], "\(fields) \(unused)")
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

    @Test("mute, solo and their undoing name a slot by Tidal's number or by name; a Tidal statement Podium does not carry out yet is refused by name, at its column")
    func slotStatements() throws {
        let language = PatternLanguage()
        func slot(_ text: String) throws -> String {
            switch try language.statement(text) {
            case let .mute(s): return "mute " + s
            case let .unmute(s): return "unmute " + s
            case let .solo(s): return "solo " + s
            case let .unsolo(s): return "unsolo " + s
            case .unmuteAll: return "unmuteAll"
            case .unsoloAll: return "unsoloAll"
            default: return "other"
            }
        }
        let said = try ["mute 1", "unmute 16", #"solo "drums""#, "unsolo $ 3", "unmuteAll", "unsoloAll"].map(slot)
        #expect(said == ["mute d1", "unmute d16", "solo drums", "unsolo d3", "unmuteAll", "unsoloAll"])
        for (text, column, words) in [("mute 17", 6, "from 1 to 16"), ("solo x", 6, "takes a slot"), ("mute", 1, "needs a slot"),
                                      ("unmuteAll 1", 1, "takes nothing"),
                                      ("anticipate 1 $ s \"bd*4\"", 1, "this transition is not in Podium yet"),
                                      ("xfadeIn 1 $ s \"bd*4\"", 1, "takes a slot and a number of cycles"),
                                      ("jumpIn 1 1.5 $ s \"bd*4\"", 10, "a whole number of cycles"),
                                      ("xfadeIn 1 0 $ s \"bd*4\"", 11, "more than 0 cycles"),
                                      ("clutch 17 $ s \"bd*4\"", 8, "from 1 to 16"),
                                      ("  mortal 1 2 1 $ s \"bd\"", 3, "transition"),
                                      ("let f x = fast x y", 18, "unknown name `y`"), ("let pat", 8, "needs `=`"),
                                      ("let d1 = s \"bd\"", 5, "one of Tidal's statements"), ("let pat = \"bd [sn\"", 15, "unclosed"),
                                      ("let pat = s \"bd\" # nosuch 3", 20, "unknown name `nosuch`"),
                                      ("do d1 $ s \"bd\"\nd2 $ s \"sn\"", 1, "indented further"), ("do", 1, "needs statements")] {
            do {
                _ = try language.statement(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.column == column && error.message.contains(words), "\(text): \(error.column) \(error.message)")
            }
        }
    }

    @Test("the REPL knows a pattern statement from Csound code and score")
    func replSeesPatterns() {
        for line in [#"d1 $ s "bd""#, "d16 silence", "hush", "setcps 0.5", #"p "x" $ s "bd""#, "once $ s \"bd\""] {
            #expect(ReplInterpreter.isPatternStatement(line), "\(line)")
        }
        for line in ["d1 = 3", "d17 $ x", "i1 0 1", "kx = 3", "hushed", "setcps", "gkd1 init 0"] {
            #expect(!ReplInterpreter.isPatternStatement(line), "\(line)")
        }
        // Tidal's other statements are the pattern language's too, never Csound's (`mute 1` is
        // also Csound's mute opcode, which muted the orchestra's instrument 1).
        for line in ["mute 1", "unmute 1", "solo \"drums\"", "unsolo 2", "unmuteAll", "unsoloAll", "xfadeIn 1 8 $ s \"bd*4\"",
                     "jumpIn' 2 4 $ s \"hh*8\"", "let pat = \"bd sn\"", "do d1 $ s \"bd\"", "clutch 3 $ s \"cp\"", "only $ d1 $ s \"bd\"", "solo"] {
            #expect(ReplInterpreter.isPatternStatement(line), "\(line)")
            var repl = ReplInterpreter()
            #expect(repl.feed(line) == .pattern(line, firstLine: 1), "\(line)")
        }
        for line in ["mute \"lead\", 0", "mute 2, 1", "mute = 1"] {
            #expect(!ReplInterpreter.isPatternStatement(line), "\(line): Csound's")
        }
        var repl = ReplInterpreter()
        #expect(repl.feed(":{") == .incomplete)
        #expect(repl.feed(#"d1 $ s "bd""#) == .incomplete)
        #expect(repl.feed("  # n 3") == .incomplete)
        #expect(repl.feed(":}") == .pattern("d1 $ s \"bd\"\n  # n 3", firstLine: 2))
    }
}

/// The scheduler's stall: a tick that finds the music past what it posted.
@Suite("pattern scheduler stalls")
struct PatternStallTests {
    @Test("a scheduler not run for longer than the lookahead skips to the horizon and says how long it stalled, once in 10 s, counting every stall")
    func stallSaid() throws {
        let driver = JackDriver(source: .text(orchestra: "instr 1\nendin", score: nil, name: "stall.orc"), options: EngineOptions(), jack: JackOptions(serverName: "unused"))
        let player = PatternPlayer(driver: driver)
        let said = Mutex<[String]>([])
        player.onProblem = { p in said.withLock { $0.append(p) } }
        player.slots["d1"] = PatternPlayer.Slot(pattern: Pattern<ControlMap>.pure(["s": .string("bd")]), text: "s \"bd\"")
        // At 120 BPM, 4 beats a cycle: a cycle is 2 s. A new slot posts from the first horizon.
        #expect(player.plan(now: Time(0), horizon: Time(1, 20), relocated: false, tempo: 120, quantum: 4) == nil)
        #expect(try #require(player.plan(now: Time(1, 40), horizon: Time(1, 10), relocated: false, tempo: 120, quantum: 4)).from == Time(1, 20))
        #expect(player.stalls == 0)
        // The next tick comes 0.2 cycles (400 ms) later: posted until 0.1, now 0.3.
        _ = player.plan(now: Time(3, 10), horizon: Time(7, 20), relocated: false, tempo: 120, quantum: 4)
        #expect(player.stalls == 1)
        // Posting starts again at that horizon: the span in between was skipped.
        #expect(try #require(player.plan(now: Time(13, 40), horizon: Time(2, 5), relocated: false, tempo: 120, quantum: 4)).from == Time(7, 20))
        // A second stall within 10 s is counted, not said again.
        _ = player.plan(now: Time(1), horizon: Time(21, 20), relocated: false, tempo: 120, quantum: 4)
        #expect(player.stalls == 2)
        let messages = said.withLock { $0 }
        #expect(messages.count == 1 && messages[0].contains("passed what the scheduler had sent by 400 ms") && messages[0].contains("skipped (1 such stall so far)"), "\(messages)")
        // A relocation is not a stall.
        _ = player.plan(now: Time(0), horizon: Time(1, 20), relocated: true, tempo: 120, quantum: 4)
        #expect(player.stalls == 2)
    }
}
