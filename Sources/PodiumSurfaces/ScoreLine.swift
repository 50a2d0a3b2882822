import PodiumEngine
import PodiumRealtime

/// A line of score a performer typed or a script holds, as the host understands it.
public enum ScoreLine: Equatable, Sendable {
    /// `i` with plain numbers: becomes a real-time `Command` (applied on an exact k-cycle).
    case event(instrument: Instrument, fields: [Double])
    /// Anything else Csound reads (f-tables, strings, carries, several statements):
    /// handed to Csound's own score reader.
    case text(String)

    public enum Instrument: Equatable, Sendable {
        case number(Double)
        case name(String)
    }

    /// Parses one line. Returns nil for blank lines and comments.
    public static func parse(_ line: String) -> ScoreLine? {
        var body = Substring(line)
        if let c = body.firstIndex(of: ";") { body = body[..<c] }
        let trimmed = body.trimmingWhitespace()
        guard !trimmed.isEmpty else { return nil }
        guard trimmed.first == "i" else { return .text(String(trimmed)) }
        var rest = trimmed.dropFirst().trimmingWhitespace()
        let instrument: Instrument
        if rest.first == "\"" {
            let afterQuote = rest.dropFirst()
            guard let close = afterQuote.firstIndex(of: "\"") else { return .text(String(trimmed)) }
            instrument = .name(String(afterQuote[..<close]))
            rest = afterQuote[afterQuote.index(after: close)...]
        } else {
            let token = rest.prefix { !$0.isWhitespace }
            guard let n = Double(token) else { return .text(String(trimmed)) }
            instrument = .number(n)
            rest = rest.dropFirst(token.count)
        }
        var fields: [Double] = []
        for token in rest.split(whereSeparator: \.isWhitespace) {
            // Numbers, or note names (`a4` → 440 Hz, `ma4` → MIDI 69); anything else
            // (., +, <, strings, expressions) is Csound's to read.
            guard let v = Music.pfield(token) else { return .text(String(trimmed)) }
            fields.append(v)
        }
        guard fields.count >= 2, fields.count + 1 <= 16 else { return .text(String(trimmed)) }
        return .event(instrument: instrument, fields: fields)
    }
}

extension ScoreLine.Instrument {
    /// How the performer wrote it: `7`, `"bass"`.
    public var text: String {
        switch self {
        case let .number(n): return InstrumentTable.format(n)
        case let .name(s): return "\"\(s)\""
        }
    }
}

extension JackDriver {
    /// The p1 for an instrument a surface named: a number the orchestra defines, or the number
    /// Csound gave a named one. nil: unknown (every surface reports it to its sender).
    public func p1(for instrument: ScoreLine.Instrument) -> Double? {
        switch instrument {
        case let .number(n): return engine.instruments.defines(number: n) ? n : nil
        case let .name(name): return instrumentNumber(named: name)
        }
    }
}

extension Substring {
    func trimmingWhitespace() -> Substring {
        var s = self
        while let f = s.first, f.isWhitespace { s.removeFirst() }
        while let l = s.last, l.isWhitespace { s.removeLast() }
        return s
    }
}
