import Glibc

/// Tidal 1.7.10's transitions (`Sound.Tidal.Transition`): how a slot's new pattern takes over
/// from its old one, as a pattern of both and the cycle `now` the transition was typed at. Pure
/// functions, as Tidal's: the player gives them the slot's last two definitions (Tidal's
/// history: the newest first) and plays the result in the slot at once.

// Thread: any (all of this file)

/// A transition and its arguments, as a statement names it (`xfadeIn 1 8 $ …` is
/// `.xfadeIn(8)` on slot d1).
public enum Transition: Sendable, Equatable {
    /// Crossfades by `gain` over `cycles`, equal power (`xfade` is 4 cycles).
    case xfadeIn(Time)
    /// Drops the old pattern's events and adds the new one's at random over `cycles`
    /// (`clutch` is 2).
    case clutchIn(Time)
    /// Switches `cycles` cycles from now, mid-cycle if that is where it falls (`jump` is 0).
    case jumpIn(Int)
    /// Switches at the cycle boundary `cycles` after the next one.
    case jumpIn_(Int)
    /// Switches at the next cycle boundary that is a multiple of `cycles`.
    case jumpMod(Int)
    /// Silence until the cycle boundary `cycles` from now, then the new pattern.
    case wait(Time)
    /// The old pattern's values slide to the new one's over `cycles` (`interpolate` is 4).
    case interpolateIn(Time)

    /// Tidal's name for the transition with these arguments.
    public var name: String {
        switch self {
        case .xfadeIn: return "xfadeIn"
        case .clutchIn: return "clutchIn"
        case .jumpIn: return "jumpIn"
        case .jumpIn_: return "jumpIn'"
        case .jumpMod: return "jumpMod"
        case .wait: return "wait"
        case .interpolateIn: return "interpolateIn"
        }
    }

    /// The pattern the slot plays from `now`: `new` taking over from `old` (nil: the slot
    /// played nothing, and `new` plays as it is, as in Tidal).
    public func apply(now: Time, new: Pattern<ControlMap>, old: Pattern<ControlMap>?) -> Pattern<ControlMap> {
        if case let .wait(t) = self {
            let from = (now + t - Time(1)).nextSam
            return new.filterWhen { $0 >= from }
        }
        guard let old else { return new }
        switch self {
        case let .xfadeIn(t):
            let fadeIn = _slow(t, envEqR()).rotR(now).map { ["gain": Value.double($0)] as ControlMap }
            let fadeOut = _slow(t, envEq()).rotR(now).map { ["gain": Value.double($0)] as ControlMap }
            // The old pattern's events from the fade's end on have gain 0: not sent (Tidal sends them).
            let end = now + t
            return numericOp(.mul, .left, new, fadeIn).overlay(numericOp(.mul, .left, old, fadeOut).filterWhen { $0 < end })
        case let .clutchIn(t):
            let out = degradeBy(_slow(t, envL()).rotR(now), old)
            let into = degradeBy(_slow(t, envLR()).rotR(now), new)
            return out.overlay(into)
        case .jumpIn, .jumpIn_, .jumpMod:
            // The switch point is where the jump is over (`settled`).
            return wash(settled(now: now, new: new)?.at ?? now, new: new, old: old)
        case let .interpolateIn(t):
            let automation = _slow(t, envL()).rotR(now)
            // Tidal's `f <$> pat' *> pat <* automation`: the new pattern's structure, each value
            // between the old one's (at 0) and the new one's (at 1).
            let both = appRight(old, new) { (old: $0, new: $1) }
            return appLeft(both, automation) { pair, x in
                pair.new.merging(pair.old) { n, o in
                    Value.numeric(n, o, int: { Int((Double($0) * x + Double($1) * (1 - x)).rounded(.down)) },
                                  double: { $0 * x + $1 * (1 - x) })
                }
            }
        case .wait:
            return new
        }
    }

    /// Where the transition is over and the pattern it then plays, the same events from there
    /// on without the old pattern's query (nil: `interpolateIn`, whose mix keeps the old
    /// pattern's other controls for good, as Tidal's does).
    public func settled(now: Time, new: Pattern<ControlMap>) -> (at: Time, pattern: Pattern<ControlMap>)? {
        switch self {
        case let .xfadeIn(t): return (now + t, numericOp(.mul, .left, new, .pure(["gain": .double(1)])))
        case let .clutchIn(t): return (now + t, new)
        case let .jumpIn(n): return (now + Time(Int64(n)), new)
        case let .jumpIn_(n): return (now.nextSam + Time(Int64(n)), new)
        case let .jumpMod(n):
            let n = max(n, 1)
            return (now.nextSam + Time(Int64((n - 1) - Int(hmod(Int(now.floorInt), n)))), new)
        case .wait: return nil
        case .interpolateIn: return nil
        }
    }

    /// Tidal's `wash id id` with no durations: the old pattern's events before `at`, the new
    /// one's from it on.
    func wash(_ at: Time, new: Pattern<ControlMap>, old: Pattern<ControlMap>) -> Pattern<ControlMap> {
        old.filterWhen { $0 < at }.overlay(new.filterWhen { $0 >= at })
    }
}
