import Foundation

/// One line of a session's `events.log`: something the audio thread applied, with the
/// absolute k-cycle it took effect in. Plain text, one record per line:
///
///     <cycle> event <p1> <p2> <p3> …        p-fields as applied (p2 includes the frame offset)
///     <cycle> table <p1> <p2> <p3> <p4> …   an f statement as applied (a function table)
///     <cycle> set <channel> <value>
///     <cycle> momentary <channel> <value>    (back to 0 after that k-cycle)
///     <cycle> string <channel> "<text>"
///     <cycle> compile <hash> "<source>"      (text in orchestras/<hash>.orc)
///     <cycle> compile <hash> "<source>" staged   the same text, its big tables' lines left out
///                                            (`TableStaging.remainder`): they were built off
///                                            the audio thread and copied in by `stage` lines
///     <cycle> stage <hash> <i> <table> <offset> <count>   a slice of the i-th table
///                                            `TableStaging.compute` makes of that text's global
///                                            code, copied into table <table> at <offset>
///     <cycle> eval "<code>"                  (host questions: global code, not orchestra)
///     <cycle> score "<text>"
///     <cycle> midi 90 3c 64                  a MIDI message from the JACK MIDI port (hex bytes)
///     <cycle> clock <tempo> <quantum> <beat> <running> [<rate>]   the beat clock from this k-cycle on
///                                                     (rate: Ableton Link's trim, when not 1)
///                                            (tempo, beats per bar, beat at the k-cycle, 1/0)
///     <cycle> sync                           events.log is complete through this k-cycle
///                                            (written about once a second; repair and replay
///                                            after a crash trust the audio only that far)
///     <cycles> engine <ksmps>                an engine starts (first line; again when the period
///                                            forces a rebuild: <cycles> is how many k-cycles the
///                                            previous engine performed; counting starts at 0 again)
///
/// Async compiles and score text are stamped with the k-cycle whose `csoundPerformKsmps`
/// took them in; replay submits them just before that k-cycle. Numbers are written so they
/// read back to the same bits; strings are JSON string literals.
public enum JournalLine: Equatable, Sendable {
    case event(cycle: Int64, pfields: [Double])
    case table(cycle: Int64, pfields: [Double])
    case set(cycle: Int64, channel: String, value: Double)
    case momentary(cycle: Int64, channel: String, value: Double)
    case string(cycle: Int64, channel: String, text: String)
    case compile(cycle: Int64, hash: String, source: String, staged: Bool = false)
    case stage(cycle: Int64, hash: String, index: Int, table: Int32, offset: Int, count: Int)
    case eval(cycle: Int64, code: String)
    case score(cycle: Int64, text: String)
    case engine(cycle: Int64, ksmps: Int)
    case sync(cycle: Int64)
    case midi(cycle: Int64, bytes: [UInt8])
    case clock(cycle: Int64, state: ClockState)

    public var cycle: Int64 {
        switch self {
        case let .event(c, _), let .table(c, _), let .set(c, _, _), let .momentary(c, _, _), let .string(c, _, _),
             let .compile(c, _, _, _), let .stage(c, _, _, _, _, _), let .eval(c, _), let .score(c, _), let .engine(c, _), let .sync(c), let .midi(c, _), let .clock(c, _): return c
        }
    }

    public var text: String {
        switch self {
        case let .event(c, p): return "\(c) event " + p.map { "\($0)" }.joined(separator: " ")
        case let .table(c, p): return "\(c) table " + p.map { "\($0)" }.joined(separator: " ")
        case let .set(c, ch, v): return "\(c) set \(ch) \(v)"
        case let .momentary(c, ch, v): return "\(c) momentary \(ch) \(v)"
        case let .string(c, ch, t): return "\(c) string \(ch) \(JournalLine.quote(t))"
        case let .compile(c, h, src, staged): return "\(c) compile \(h) \(JournalLine.quote(src))" + (staged ? " staged" : "")
        case let .stage(c, h, i, t, o, n): return "\(c) stage \(h) \(i) \(t) \(o) \(n)"
        case let .eval(c, code): return "\(c) eval \(JournalLine.quote(code))"
        case let .score(c, t): return "\(c) score \(JournalLine.quote(t))"
        case let .engine(c, k): return "\(c) engine \(k)"
        case let .sync(c): return "\(c) sync"
        case let .midi(c, b): return "\(c) midi " + b.map { String(format: "%02x", $0) }.joined(separator: " ")
        case let .clock(c, st): return "\(c) clock \(st.tempo) \(st.quantum) \(st.beat) \(st.running ? 1 : 0)" + (st.rate == 1 ? "" : " \(st.rate)")
        }
    }

    /// Reads one line back (nil for comments and blank lines). Throws on a malformed line.
    public static func parse(_ line: Substring) throws -> JournalLine? {
        let trimmed = line.drop { $0 == " " }
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return nil }
        var rest = trimmed[...]
        func word() -> Substring {
            let w = rest.prefix { $0 != " " }
            rest = rest.dropFirst(w.count).drop { $0 == " " }
            return w
        }
        func number() throws -> Double {
            let w = word()
            guard let d = Double(w) else { throw JournalError.malformed(String(line), "not a number: \(w)") }
            return d
        }
        func string() throws -> String {
            guard let (s, after) = unquote(rest) else { throw JournalError.malformed(String(line), "not a quoted string") }
            rest = after.drop { $0 == " " }
            return s
        }
        guard let cycle = Int64(word()) else { throw JournalError.malformed(String(line), "no k-cycle") }
        let kind = word()
        switch kind {
        case "event":
            var p: [Double] = []
            while !rest.isEmpty { p.append(try number()) }
            return .event(cycle: cycle, pfields: p)
        case "table":
            var p: [Double] = []
            while !rest.isEmpty { p.append(try number()) }
            return .table(cycle: cycle, pfields: p)
        case "set": let ch = String(word()); return .set(cycle: cycle, channel: ch, value: try number())
        case "momentary": let ch = String(word()); return .momentary(cycle: cycle, channel: ch, value: try number())
        case "string": let ch = String(word()); return .string(cycle: cycle, channel: ch, text: try string())
        case "compile":
            let h = String(word()), source = try string()
            return .compile(cycle: cycle, hash: h, source: source, staged: word() == "staged")
        case "stage":
            let h = String(word())
            guard let i = Int(word()), let t = Int32(word()), let o = Int(word()), let n = Int(word()), i >= 0, o >= 0, n >= 0 else {
                throw JournalError.malformed(String(line), "a stage line needs an index, a table, an offset and a count")
            }
            return .stage(cycle: cycle, hash: h, index: i, table: t, offset: o, count: n)
        case "eval": return .eval(cycle: cycle, code: try string())
        case "score": return .score(cycle: cycle, text: try string())
        case "sync": return .sync(cycle: cycle)
        case "midi":
            var b: [UInt8] = []
            while !rest.isEmpty {
                let w = word()
                guard let v = UInt8(w, radix: 16) else { throw JournalError.malformed(String(line), "not a MIDI byte: \(w)") }
                b.append(v)
            }
            return .midi(cycle: cycle, bytes: b)
        case "clock":
            let tempo = try number(), quantum = try number(), beat = try number(), running = try number()
            let rate = rest.isEmpty ? 1 : try number()
            return .clock(cycle: cycle, state: ClockState(tempo: tempo, quantum: quantum, beat: beat, running: running != 0, rate: rate))
        case "engine":
            guard let k = Int(word()) else { throw JournalError.malformed(String(line), "no ksmps") }
            return .engine(cycle: cycle, ksmps: k)
        default: throw JournalError.malformed(String(line), "unknown record \"\(kind)\"")
        }
    }

    /// A JSON string literal.
    static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20: out += String(format: "\\u%04x", u.value)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    /// A JSON string literal at the start of `s`, and what follows it.
    static func unquote(_ s: Substring) -> (String, Substring)? {
        var it = s.unicodeScalars[...]
        guard it.first == "\"" else { return nil }
        it = it.dropFirst()
        var out = String.UnicodeScalarView()
        while let c = it.first {
            it = it.dropFirst()
            if c == "\"" { return (String(out), Substring(it)) }
            guard c == "\\" else { out.append(c); continue }
            guard let e = it.first else { return nil }
            it = it.dropFirst()
            switch e {
            case "n": out.append("\n")
            case "r": out.append("\r")
            case "t": out.append("\t")
            case "u":
                let hex = String(String.UnicodeScalarView(it.prefix(4)))
                guard hex.count == 4, let v = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(v) else { return nil }
                out.append(scalar)
                it = it.dropFirst(4)
            default: out.append(e)
            }
        }
        return nil
    }

    /// A short content hash for orchestra texts (FNV-1a, 64 bits, hex).
    public static func hash(_ text: String) -> String {
        var h: UInt64 = 0xcbf29ce484222325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}

public enum JournalError: Error, CustomStringConvertible, Equatable {
    case malformed(String, String)
    public var description: String {
        switch self { case let .malformed(line, why): return "malformed events.log line (\(why)): \(line)" }
    }
}
