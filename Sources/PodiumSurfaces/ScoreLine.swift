import PodiumEngine
import PodiumHost
import PodiumRealtime

/// A score statement as Podium reads it. Score text from every surface (REPL, scripts, OSC,
/// the csound port) is read here, checked, and becomes commands; Csound's own score reader
/// never sees it (malformed text there can stall or crash the audio thread, and `e` ends the
/// performance).
///
/// Accepted: `i` (instrument number or "name"; numbers, note names `a4`/`ma4`, `.` to repeat
/// the previous i statement's p-field, `+` for p2 = previous p2 + p3) and `f` (a function table
/// with a GEN routine that takes numbers; see `TableStatement`), `chord`/`scale` lines, comments
/// after `;`. Everything else is refused with the line and column.
public enum ScoreLine: Equatable, Sendable {
    /// `i`: fields are p2, p3, p4…
    case event(instrument: Instrument, fields: [Double])
    /// `f`: fields are p1 (table number), p2, p3 (size), p4 (GEN), arguments…
    case table(fields: [Double])

    public enum Instrument: Equatable, Sendable {
        case number(Double)
        case name(String)
    }

    /// The most statements one piece of score text may hold (a longer one is refused whole).
    public static let maximumStatements = 512

    /// Parses one line (nil for blank lines and comments). `previous` is the last i statement
    /// before it, for `.` and `+`.
    public static func parse(_ line: String, previous: ScoreLine? = nil) throws(ScoreError) -> ScoreLine? {
        var reader = StatementReader(line: Substring(line), number: 1)
        return try reader.statement(previous: previous)
    }

    /// Parses score text: one statement a line, `chord`/`scale` lines expanded. Throws for the
    /// first line it cannot accept, naming its line and column; nothing is played then.
    public static func parse(text: String) throws(ScoreError) -> [ScoreLine] {
        var statements: [ScoreLine] = []
        var previous: ScoreLine?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.hasSuffix("\r") ? raw.dropLast() : raw
            let expanded: [String]
            do { expanded = try Music.expand(String(line)) ?? [String(line)] } catch {
                throw ScoreError(line: index + 1, column: 1, message: "\(error)")
            }
            for text in expanded {
                var reader = StatementReader(line: Substring(text), number: index + 1)
                guard let s = try reader.statement(previous: previous) else { continue }
                if case .event = s { previous = s }
                statements.append(s)
                if statements.count > maximumStatements {
                    throw ScoreError(line: index + 1, column: 1,
                                     message: "more than \(maximumStatements) statements in one piece of score: send it in parts")
                }
            }
        }
        return statements
    }
}

/// Why score text was refused, and where.
public struct ScoreError: Error, CustomStringConvertible, Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var message: String
    /// Position 0: the problem is not in one line (an instrument unknown, a full ring).
    public var description: String { line > 0 ? "line \(line), column \(column): \(message)" : message }
}

/// Reads one statement, tracking columns for errors.
struct StatementReader {
    let line: Substring
    let number: Int
    var position: Substring.Index

    init(line: Substring, number: Int) {
        // A comment runs from `;` to the end of the line.
        self.line = line.firstIndex(of: ";").map { line[..<$0] } ?? line
        self.number = number
        position = self.line.startIndex
    }

    func error(_ message: String, at index: Substring.Index? = nil) -> ScoreError {
        ScoreError(line: number, column: line.distance(from: line.startIndex, to: index ?? position) + 1, message: message)
    }

    mutating func skipSpace() {
        while position < line.endIndex, line[position].isWhitespace { position = line.index(after: position) }
    }

    /// The next token: a quoted string (with its quotes) or a run of non-space characters.
    mutating func token() throws(ScoreError) -> (text: Substring, at: Substring.Index)? {
        skipSpace()
        guard position < line.endIndex else { return nil }
        let start = position
        if line[position] == "\"" {
            guard let close = line[line.index(after: position)...].firstIndex(of: "\"") else {
                throw error("a string that does not end (no closing \")", at: start)
            }
            position = line.index(after: close)
            return (line[start..<position], start)
        }
        while position < line.endIndex, !line[position].isWhitespace { position = line.index(after: position) }
        return (line[start..<position], start)
    }

    mutating func statement(previous: ScoreLine?) throws(ScoreError) -> ScoreLine? {
        skipSpace()
        guard position < line.endIndex else { return nil }
        let opcode = line[position]
        let at = position
        position = line.index(after: position)
        switch opcode {
        case "i": return try note(previous: previous)
        case "f": return try table()
        case "e", "s", "x":
            throw error("\"\(opcode)\" would end the performance or a section: not taken from score text (:quit ends a performance)", at: at)
        case "t":
            throw error("tempo statements (t) are not taken from score text", at: at)
        case "a", "b", "v", "q", "m", "n", "r", "y", "d", "{", "}", "#", "$", "<", ">", "[", "@", "&":
            throw error("\"\(opcode)\" statements are not taken from score text: i and f are", at: at)
        default:
            throw error("not a score statement: \(line[at...].prefix(20)) (i and f statements are)", at: at)
        }
    }

    mutating func note(previous: ScoreLine?) throws(ScoreError) -> ScoreLine {
        guard let (first, at) = try token() else { throw error("an i statement needs an instrument: i1 0 1 (or i \"name\" 0 1)") }
        let instrument: ScoreLine.Instrument
        if first.first == "\"" {
            let name = first.dropFirst().dropLast()
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw error("instrument name \(first): letters, digits and _ only", at: at)
            }
            instrument = .name(String(name))
        } else {
            guard let n = Double(first) else { throw error("instrument \(first): a number or a \"name\"", at: at) }
            do { try InputCheck.instrument(n) } catch { throw self.error(error.description, at: at) }
            instrument = .number(n)
        }
        var previousFields: [Double] = []
        if case let .event(_, fields)? = previous { previousFields = fields }
        var fields: [Double] = []
        while let (word, at) = try token() {
            let index = fields.count + 2  // the p-field number
            var value: Double
            if word == "." {
                guard fields.count < previousFields.count else { throw error("p\(index) \".\": no earlier i statement has a p\(index)", at: at) }
                value = previousFields[fields.count]
            } else if word == "+" && index == 2 {
                guard previousFields.count >= 2 else { throw error("p2 \"+\": no earlier i statement to follow", at: at) }
                value = previousFields[0] + previousFields[1]
            } else if word.first == "\"" {
                throw error("p\(index) is a string: string p-fields are not taken from score text (set a string channel instead)", at: at)
            } else if let v = Music.pfield(word) {
                value = v
            } else {
                throw error("p\(index) \(word.prefix(24)): not a number or a note name", at: at)
            }
            do {
                switch index {
                case 2: try InputCheck.start(value)
                case 3: try InputCheck.number(value, "p3 (duration)", limit: InputCheck.maximumDuration)
                default: try InputCheck.number(value, "p\(index)")
                }
            } catch { throw self.error(error.description, at: at) }
            fields.append(value)
            if fields.count + 1 > Command.maxPFields { throw error("more than \(Command.maxPFields) p-fields", at: at) }
        }
        guard fields.count >= 2 else { throw error("an i statement needs a start and a duration: i1 0 1") }
        return .event(instrument: instrument, fields: fields)
    }

    mutating func table() throws(ScoreError) -> ScoreLine {
        var fields: [Double] = []
        var columns: [Substring.Index] = []
        while let (word, at) = try token() {
            guard let v = Double(word) else {
                throw error("p\(fields.count + 1) of the f statement \(word.prefix(24)): only numbers (GEN routines that read files or take strings are not available from score text)", at: at)
            }
            fields.append(v)
            columns.append(at)
            if fields.count > Command.maxPFields { throw error("more than \(Command.maxPFields) fields in an f statement", at: at) }
        }
        // The limits of a table built off the audio thread; played at a time, or by a GEN that
        // must run in the engine, the audio thread's (`ScoreInput`, `CommandProducer.table`).
        do { try TableStatement.check(fields, staged: true) } catch { throw self.error(error.description, at: columns.first) }
        return .table(fields: fields)
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
        case let .number(n): return engine.defines(number: n) ? n : nil
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
