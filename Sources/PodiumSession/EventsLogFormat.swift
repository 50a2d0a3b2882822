import Foundation
import PodiumHost
import PodiumRealtime

// events.log's text: each `JournalLine` written as one line and read back (the format is
// described on `JournalLine`). Numbers are written so they read back to the same bits;
// strings are JSON string literals.

extension JournalLine {
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
        case let .hush(c, bound): return "\(c) hush \(bound)"
        case let .typed(c, who, t): return "\(c) typed \(JournalLine.quote(who)) \(JournalLine.quote(t))"
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
        case "typed": let who = try string(); return .typed(cycle: cycle, who: who, text: try string())
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
        case "hush":
            guard let bound = Int(word()), bound >= 0 else { throw JournalError.malformed(String(line), "a hush line needs its instrument bound") }
            return .hush(cycle: cycle, bound: bound)
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
}

extension Journal {
    /// The journal's lines not yet taken by a writer, as events.log's text, and the orchestra
    /// texts (for tests and tools that read a driver's journal directly). The parameter is a
    /// remnant of the observer it once set (only nil).
    // Thread: NRT (any)
    public func follow(_ observer: Never? = nil) -> (lines: [String], orchestras: [String: String]) {
        let s = snapshot()
        return (s.lines.map(\.text), s.orchestras)
    }
}

public enum JournalError: Error, CustomStringConvertible, Equatable {
    case malformed(String, String)
    public var description: String {
        switch self { case let .malformed(line, why): return "malformed events.log line (\(why)): \(line)" }
    }
}
