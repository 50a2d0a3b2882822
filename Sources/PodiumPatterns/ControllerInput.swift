import Synchronization

/// Values set from outside the patterns, read when a pattern is queried: Tidal's controller input
/// (`cF 0 "cut"`, `cI`, `cS` …; Sound.Tidal.Core's `_cX`). Tidal keeps them in its stream's state
/// (set by `/ctrl` OSC messages); Podium keeps one store a performance, set by `/ctrl` on its
/// OSC port and by the stage page's widgets, and `_cps` by the clock (`sec`, `msec`). The pattern
/// engine only reads it: a query sees the values of the moment it runs.
public final class ControllerValues: Sendable {
    private let values = Mutex<[String: Value]>([:])

    public init() {}

    // Thread: any
    public func set(_ name: String, _ value: Value) { values.withLock { $0[name] = value } }
    // Thread: any
    public func value(_ name: String) -> Value? { values.withLock { $0[name] } }
    /// Every name set so far, sorted.
    // Thread: any
    public var names: [String] { values.withLock { $0.keys.sorted() } }
}

extension Builtins {
    /// Tidal's `getF`, `getI`, `getN`, `getR`, `getS`, `getB`: a controller's value as a kind
    /// (nil: it cannot be).
    // Thread: any
    static func controllerValue(_ v: Value, as k: PatternKind) -> Value? {
        switch (k, v) {
        case (.string, .string), (.bool, .bool): return v
        case (.string, _), (.bool, _), (_, .string), (_, .bool): return nil
        case (.int, _): return .int(int(v))
        case (.time, _): return .rational(time(v))
        default: return v.number.flatMap { number($0, k) }
        }
    }

    /// `_cX d f name`: the controller's value (as kind `k`), `fallback` when it is not set or not
    /// of that kind; nil `fallback` (`cF_`): silence then.
    // Thread: any
    static func controller(_ store: ControllerValues?, _ name: String, _ k: PatternKind, fallback: Value?) -> Pattern<ControlMap> {
        Pattern { arc in
            let v = store?.value(name).flatMap { controllerValue($0, as: k) } ?? fallback
            guard let v else { return [] }
            return Pattern<ControlMap>.pure([plainValueKey: v]).query(arc)
        }
    }

    /// `cF`, `cI`, `cN`, `cR`, `cT`, `cS`, `cB` with a default; their `_` forms (silence when not
    /// set) and `0` forms (0, or False); `sec` and `msec` (a time in cycles at the current cps).
    static func addControllerInput(_ t: inout [String: Builtin]) {
        let numeric: [(String, PatternKind?)] = [("cF", nil), ("cN", nil), ("cI", .int), ("cR", .time), ("cT", .time)]
        for (name, fixed) in numeric {
            let result: Builtin.Result = fixed.map { .fixed($0) } ?? .numeric
            t[name] = Builtin([.number, .text], result) { a, k in
                let kind = fixed ?? k
                return controller(a.controllers, a.text(1), kind, fallback: controllerValue(.rational(a.number(0)), as: kind))
            }
            t[name + "_"] = Builtin([.text], result) { a, k in controller(a.controllers, a.text(0), fixed ?? k, fallback: nil) }
            t[name + "0"] = Builtin([.text], result) { a, k in
                let kind = fixed ?? k
                return controller(a.controllers, a.text(0), kind, fallback: controllerValue(.int(0), as: kind))
            }
        }
        t["cS"] = Builtin([.text, .text], .fixed(.string)) { a, _ in controller(a.controllers, a.text(1), .string, fallback: .string(a.text(0))) }
        t["cS_"] = Builtin([.text], .fixed(.string)) { a, _ in controller(a.controllers, a.text(0), .string, fallback: nil) }
        t["cS0"] = Builtin([.text], .fixed(.string)) { a, _ in controller(a.controllers, a.text(0), .string, fallback: .string("")) }
        // `cB True "name"`: the default a pattern of booleans (Haskell's True and False).
        t["cB"] = Builtin([.pattern(.bool), .text], .fixed(.bool)) { a, _ in
            let store = a.controllers, name = a.text(1), fallback = a.p(0)
            return Pattern { arc in
                guard let v = store?.value(name).flatMap({ controllerValue($0, as: .bool) }) else { return fallback.query(arc) }
                return Pattern<ControlMap>.pure([plainValueKey: v]).query(arc)
            }
        }
        t["cB_"] = Builtin([.text], .fixed(.bool)) { a, _ in controller(a.controllers, a.text(0), .bool, fallback: nil) }
        t["cB0"] = Builtin([.text], .fixed(.bool)) { a, _ in controller(a.controllers, a.text(0), .bool, fallback: .bool(false)) }
        // `sec p = (realToFrac <$> cF 1 "_cps") *| p`; `msec` the same over 1000.
        for (name, scale) in [("sec", 1.0), ("msec", 0.001)] {
            t[name] = Builtin([.same], .numeric) { a, k throws(PatternError) in
                let cps = controller(a.controllers, "_cps", .double, fallback: .double(1)).map { m -> ControlMap in
                    [plainValueKey: number((m[plainValueKey]?.number ?? 1) * scale, k) ?? .double(scale)]
                }
                return try combine("*|", .mul, .right, k, cps, a.p(0), a.position)
            }
        }
    }
}
