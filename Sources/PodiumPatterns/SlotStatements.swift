/// Tidal's statements on slots (`Sound.Tidal.Transition` and the stream's controls): which
/// Podium carries out, and which it names as not yet there, so that a Tidal line never reaches
/// Csound (`mute 1` is also a Csound opcode: typed at the REPL it must mute slot 1, not an
/// instrument).
extension PatternLanguage {
    /// `mute 1`, `unmute "drums"`, `solo 2`, `unsolo 2`: a slot by Tidal's number (`1` is `d1`)
    /// or by name (`p "drums"`'s).
    public static let slotWords = ["mute", "unmute", "solo", "unsolo"]

    /// Tidal statements Podium does not carry out yet, with what to write instead.
    public static let notYetStatements: [String: String] = {
        var m: [String: String] = [:]
        let swap = "a slot typed again swaps at the next cycle: `d1 $ …`"
        for t in ["anticipate", "anticipateIn", "wash", "waitT", "mortal", "histpan", "transition", "jumpMod'"] {
            m[t] = "this transition is not in Podium yet (xfade, xfadeIn, clutch, clutchIn, jump, jumpIn, jumpIn', jumpMod, interpolate, interpolateIn and wait are); " + swap
        }
        m["only"] = "`only` is not in Podium yet: `solo` the slot, or `hush` and play it again"
        m["all"] = "`all` is not in Podium yet: apply the function in each slot"
        m["resetCycles"] = "`resetCycles` is not in Podium yet: cycles follow Podium's clock (`:link`, `:tempo`)"
        m["nudgeAll"] = "`nudgeAll` is not in Podium yet: the stream follows Podium's own clock"
        m["asap"] = "`asap` is not in Podium yet: `once $ …`"
        m["setbpm"] = "`setbpm` is not Tidal 1.7's: `setcps (BPM/60/4)` or `:tempo BPM`"
        return m
    }()

    /// The slot a `mute`/`solo` argument names: `1` is `d1` (Tidal's `p 1`), `"drums"` itself.
    // Thread: any
    static func slotArgument(_ e: Expression, word: String) throws(PatternError) -> String {
        switch e {
        case let .number(v, true, _) where slot("d\(v.description)") != nil: return "d\(v.description)"
        case let .string(s, _) where !s.isEmpty: return s
        default:
            let p = e.position
            throw PatternError("`\(word)` takes a slot: a number from 1 to 16 (`\(word) 1` is d1's) or a name in quotes (`\(word) \"drums\"`)",
                               column: p.column, line: p.line)
        }
    }

    /// The transitions Podium carries out (Tidal's `BootTidal.hs` statements over
    /// `Sound.Tidal.Transition`), each with how many numbers follow its slot: `xfade 1 $ …`,
    /// `xfadeIn 1 8 $ …`.
    public static let transitionArguments: [String: Int] = [
        "xfade": 0, "xfadeIn": 1, "clutch": 0, "clutchIn": 1, "jump": 0, "jumpIn": 1, "jumpIn'": 1,
        "jumpMod": 1, "interpolate": 0, "interpolateIn": 1, "wait": 1,
    ]

    /// The slot and the transition of `xfadeIn 1 8` (the statement's head, before `$`).
    // Thread: any
    static func transition(_ word: String, _ args: [Expression], _ ev: ExpressionEvaluator, at head: SourcePosition) throws(PatternError) -> (String, Transition) {
        let count = transitionArguments[word] ?? 0
        guard args.count == count + 1 else {
            throw PatternError("`\(word)` takes a slot\(count == 0 ? "" : " and a number of cycles") (`\(word) 1\(count == 0 ? "" : " 4") $ s \"bd*4\"`), not \(args.count) argument\(args.count == 1 ? "" : "s")",
                               column: head.column, line: head.line)
        }
        let slot = try slotArgument(args[0], word: word)
        var cycles = Time(0)
        if count == 1 {
            let p = args[1].position
            guard case let .poly(pp) = try ev.evaluate(args[1]), let x = pp.number, x.value >= .zero, x.value <= Time(10_000) else {
                throw PatternError("`\(word)` needs a number of cycles from 0 to 10000 after its slot", column: p.column, line: p.line)
            }
            cycles = x.value
            if ["jumpIn", "jumpIn'", "jumpMod"].contains(word), cycles != cycles.sam {
                throw PatternError("`\(word)` needs a whole number of cycles", column: p.column, line: p.line)
            }
            if ["xfadeIn", "clutchIn", "interpolateIn"].contains(word), cycles == .zero {
                throw PatternError("`\(word)` needs more than 0 cycles (`jump` switches at once)", column: p.column, line: p.line)
            }
        }
        let whole = Int(cycles.floorInt)
        switch word {
        case "xfade": return (slot, .xfadeIn(Time(4)))
        case "xfadeIn": return (slot, .xfadeIn(cycles))
        case "clutch": return (slot, .clutchIn(Time(2)))
        case "clutchIn": return (slot, .clutchIn(cycles))
        case "jump": return (slot, .jumpIn(0))
        case "jumpIn": return (slot, .jumpIn(whole))
        case "jumpIn'": return (slot, .jumpIn_(whole))
        case "jumpMod": return (slot, .jumpMod(max(whole, 1)))
        case "interpolate": return (slot, .interpolateIn(Time(4)))
        case "interpolateIn": return (slot, .interpolateIn(cycles))
        default: return (slot, .wait(cycles))
        }
    }
}
