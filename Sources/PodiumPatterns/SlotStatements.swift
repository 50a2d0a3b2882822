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
        for t in ["xfade", "xfadeIn", "clutch", "clutchIn", "jump", "jumpIn", "jumpIn'", "jumpMod", "interpolate",
                  "interpolateIn", "anticipate", "anticipateIn", "wash", "wait", "waitT", "mortal", "histpan", "transition"] {
            m[t] = "transitions are not in Podium yet; " + swap
        }
        m["let"] = "`let` bindings are not in Podium's language yet: write the pattern in place"
        m["do"] = "`do` blocks are not in Podium's language yet: type each statement on its own line"
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
}
