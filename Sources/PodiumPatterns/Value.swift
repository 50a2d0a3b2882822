/// A control's value (Tidal's `Value`: `VS`, `VF`, `VN`, `VI`, `VR`, `VB`).
public enum Value: Hashable, Sendable, CustomStringConvertible {
    case string(String)
    case double(Double)
    /// A note, in semitones from c5 (Tidal's `Note`).
    case note(Double)
    case int(Int)
    case rational(Time)
    case bool(Bool)

    // Thread: any (all of this file)

    /// The value as a number (strings and booleans are not numbers).
    public var number: Double? {
        switch self {
        case let .double(d), let .note(d): return d
        case let .int(i): return Double(i)
        case let .rational(r): return r.double
        case .string, .bool: return nil
        }
    }

    public var string: String? { if case let .string(s) = self { return s }; return nil }

    /// As `podium pattern` prints it: a string as it is, a number with no trailing zeros.
    public var description: String {
        switch self {
        case let .string(s): return s
        case let .double(d), let .note(d): return Value.format(d)
        case let .int(i): return "\(i)"
        case let .rational(r): return r.description
        case let .bool(b): return b ? "true" : "false"
        }
    }

    public static func format(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    /// Tidal's `fNum2`: arithmetic across kinds (ints stay ints; a note with a float is a note).
    public static func numeric(_ a: Value, _ b: Value, int fi: (Int, Int) -> Int, double fd: (Double, Double) -> Double) -> Value {
        switch (a, b) {
        case let (.int(x), .int(y)): return .int(fi(x, y))
        case let (.double(x), .double(y)): return .double(fd(x, y))
        case let (.note(x), .note(y)), let (.double(x), .note(y)), let (.note(x), .double(y)): return .note(fd(x, y))
        case let (.int(x), .double(y)): return .double(fd(Double(x), y))
        case let (.double(x), .int(y)): return .double(fd(x, Double(y)))
        default: return a
        }
    }
}

/// A control pattern's value: control names to values (Tidal's `ValueMap`).
public typealias ControlMap = [String: Value]
