import Foundation
/// Errors from the engine layer. Each names the Csound call that failed.
public enum EngineError: Error, Equatable, CustomStringConvertible {
    /// A csound* call returned an error code.
    case call(String, code: Int32)
    /// Csound refused orchestra code; `diagnostics` are Csound's own error lines.
    case compile(CompileFailure)
    /// An option Csound rejected (e.g. a ksmps that does not divide sr).
    case badOption(String, reason: String)
    /// An instrument the orchestra does not define.
    case unknownInstrument(String)
    /// A channel the orchestra does not declare (or of another type).
    case unknownChannel(String)
    /// A channel of the other kind: a control channel given text, or a string channel a number.
    case wrongKind(channel: String, isControl: Bool)
    /// A file could not be read.
    case unreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case let .call(name, code): return "\(name) failed (Csound error \(code))"
        case let .compile(failure): return failure.description
        case let .badOption(option, reason): return "invalid \(option): \(reason)"
        case let .unknownInstrument(name): return "unknown instrument \(name): the orchestra does not define it"
        case let .unknownChannel(name): return "unknown channel \"\(name)\": the orchestra does not declare it (chn_k / chn_S)"
        case let .wrongKind(name, isControl):
            return isControl ? "\(name) is a control channel: it takes a number, not text" : "\(name) is a string channel: it takes text, not a number"
        case let .unreadable(path, reason): return "cannot read \(path): \(reason)"
        }
    }
}

/// Csound's verdict on orchestra code that did not compile.
public struct CompileFailure: Equatable, Sendable, CustomStringConvertible {
    /// Where the code came from (a file path, "<repl>", "<osc>").
    public var source: String
    /// The error lines Csound printed while compiling, ANSI colour codes removed.
    public var diagnostics: [String]
    /// Line numbers Csound named, in the order it named them.
    public var lines: [Int]

    public init(source: String, diagnostics: [String]) {
        self.source = source
        self.diagnostics = diagnostics
        self.lines = CompileFailure.lineNumbers(in: diagnostics)
    }

    /// `FILE:LINE: message`, the form editors jump to.
    public var description: String {
        let where_ = lines.first.map { "\(source):\($0)" } ?? source
        // Csound's own verdict first (an INIT ERROR, an "error:" line), then any line that mentions one.
        let message = diagnostics.first { $0.contains("INIT ERROR") || $0.lowercased().hasPrefix("error") }
            ?? diagnostics.first { $0.lowercased().contains("error") } ?? diagnostics.first ?? "compile failed"
        var text = "\(where_): \(message)"
        let rest = diagnostics.filter { $0 != message }
        if !rest.isEmpty { text += "\n" + rest.map { "  " + $0 }.joined(separator: "\n") }
        return text
    }

    /// Csound writes `line 12:` (parser) or `Line: 12` (semantic errors).
    static func lineNumbers(in diagnostics: [String]) -> [Int] {
        var found: [Int] = []
        for text in diagnostics {
            var rest = Substring(text)
            while let range = rest.range(of: "line", options: .caseInsensitive) {
                var tail = rest[range.upperBound...].drop { $0 == ":" || $0 == " " }
                let digits = tail.prefix { $0.isNumber }
                if let n = Int(digits) { found.append(n) }
                tail = tail.dropFirst(digits.count)
                rest = tail
            }
        }
        return found
    }
}
