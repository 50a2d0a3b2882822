import Foundation
/// The instruments the compiled orchestras define, as Csound parsed them (`CompiledOrchestra`:
/// included files too). Csound 6.18's API cannot list instruments, and `csoundScoreEvent`
/// returns success even for an undefined one (the event is dropped with a console line): the
/// host checks here. `declared(in:)` reads text's own `instr` lines, for checks before a compile.
public struct InstrumentTable: Sendable, Equatable {
    public private(set) var numbers: Set<Int> = []
    public private(set) var names: [String] = []

    public init() {}

    /// Whether an instrument number (fractional instances and negative turn-offs included)
    /// names a defined instrument. Total: NaN, infinities and huge numbers are simply not defined.
    public func defines(number: Double) -> Bool {
        let m = number.magnitude
        guard m.isFinite, m >= 1, m < 2_147_483_648 else { return false }
        return numbers.contains(Int(m))
    }
    public func defines(name: String) -> Bool { names.contains(name) }

    /// Adds what a compiled orchestra defines.
    public mutating func add(_ orchestra: CompiledOrchestra) {
        numbers.formUnion(orchestra.numbers)
        for name in orchestra.names where !names.contains(name) { names.append(name) }
    }

    /// Adds the instruments declared in orchestra text (`instr 1, 2, bass`, `instr +name`).
    public mutating func add(declarationsIn orchestra: String) {
        // Only lines with "instr" in them can declare one: the others are passed over as bytes
        // (the synths' 4,400 lines took a third of a performance engine's start in words).
        for rawLine in TextLines.containing("instr", in: orchestra) {
            var line = rawLine
            if let c = line.firstIndex(of: ";") { line = line[..<c] }
            if let c = line.range(of: "//") { line = line[..<c.lowerBound] }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.first == "instr" else { continue }
            let list = line.drop { $0 == " " || $0 == "\t" }.dropFirst("instr".count)
            for item in list.split(separator: ",") {
                var token = item.trimmingCharacters(in: .whitespaces)
                if token.hasPrefix("+") { token.removeFirst() }
                guard !token.isEmpty else { continue }
                if let n = Int(token) { numbers.insert(n) } else if !names.contains(token) { names.append(token) }
            }
        }
    }

    /// The instruments declared in one piece of orchestra text.
    public static func declared(in orchestra: String) -> InstrumentTable {
        var t = InstrumentTable()
        t.add(declarationsIn: orchestra)
        return t
    }

    /// A p-field as Csound prints it (no trailing ".0").
    public static func format(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(v)
    }
}
