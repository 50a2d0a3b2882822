/// The language as its reference and `:help` show it: each function's signature in Tidal's
/// notation, made from the built-in's own parameter list (`BuiltinsTable.swift`), and each
/// control's kind (`Controls`): generated from the tables the language runs on, so they cannot
/// drift from it.
public enum PatternReference {
    // Thread: any (all of this enum)

    /// Every function name the language takes, sorted.
    public static var functionNames: [String] { Builtins.table.keys.sorted() }

    /// Names Tidal has that the language refuses by name ("… is not supported yet").
    public static var unsupportedNames: [String] { Builtins.unsupported.sorted() }

    /// `every :: Pattern Int -> (Pattern a -> Pattern a) -> Pattern a -> Pattern a`; nil for a
    /// name that is not a function.
    public static func signature(_ name: String) -> String? {
        guard let b = Builtins.table[name] else { return nil }
        let result: String
        switch b.result {
        case .same: result = "Pattern a"
        case let .fixed(k): result = pattern(k)
        case .numeric: result = "Pattern n"
        }
        let display = name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "'" || $0 == "_" }) ? name : "(\(name))"
        return "\(display) :: " + (b.parameters.map(parameter) + [result]).joined(separator: " -> ")
    }

    /// `speed`: "a number (Tidal's pF)"; nil for a name that is not a control.
    public static func control(_ name: String) -> String? {
        guard let kind = Controls.kind(name) else { return nil }
        switch kind {
        case .string: return "a string control (Tidal's pS \"\(name)\")"
        case .double: return "a number control (Tidal's pF \"\(name)\")"
        case .note: return "a note control (Tidal's pN \"\(name)\": a number, or a note name such as c5 or e)"
        case .int: return "a whole-number control (Tidal's pI \"\(name)\")"
        }
    }

    static func pattern(_ k: PatternKind) -> String {
        switch k {
        case .control: return "ControlPattern"
        case .string: return "Pattern String"
        case .double: return "Pattern Double"
        case .note: return "Pattern Note"
        case .int: return "Pattern Int"
        case .time: return "Pattern Time"
        case .bool: return "Pattern Bool"
        }
    }

    static func parameter(_ p: Parameter) -> String {
        switch p {
        case let .pattern(k): return pattern(k)
        case .same: return "Pattern a"
        case .function: return "(Pattern a -> Pattern a)"
        case .list: return "[Pattern a]"
        case .weightedList: return "[(Time, Pattern a)]"
        case .text: return "String"
        case .number: return "Time"
        case .pair: return "(Time, Time)"
        }
    }
}
