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

/// The performance's journal: every command the audio thread applied, every async compile and
/// score text at the k-cycle it merged, string channel values and engine restarts — from the
/// start of the engine, so a recording started mid-performance still replays from the start.
///
/// Fed on the supervisor thread (applied records) and by the threads that compile or set
/// strings. Channel sets of one channel within one k-cycle are coalesced. It keeps no history:
/// finished lines wait in `pending` until a session's writer takes them (`take()`, on its own
/// thread, which then writes them to events.log outside this lock). Until a writer attaches,
/// the lines since the engine's start wait here (a session made later still starts from the
/// engine's start); `discard()` (a performance that keeps no session) drops them for good.
/// In memory for the whole performance: the orchestra texts by hash, the channel names and
/// the async items waiting for their k-cycle.
public final class Journal: @unchecked Sendable {
    private let lock = NSLock()
    /// Finished lines no writer has taken yet.
    private var pending: [JournalLine] = []
    /// Lines journaled so far (taken or pending).
    private var total = 0
    /// False once `discard()`ed: lines are counted, not kept.
    private var keeping = true
    /// A writer attached (`attach`): woken at each `sync` line.
    private var wake: (@Sendable () -> Void)?
    /// Orchestra texts by hash.
    private var orchestras: [String: String] = [:]
    /// Async items waiting for the k-cycle that takes them in, by marker.
    private var waiting: [(marker: Double, line: (Int64) -> JournalLine)] = []
    private var names: [UnsafeMutablePointer<Double>: String] = [:]
    /// Tables built off the audio thread, by the tag their slices carry (`staging`; a few
    /// entries per heavy reload, kept: a slice may be journaled after its sender stopped waiting).
    private var stagedTables: [Int: (hash: String, index: Int)] = [:]
    /// The current k-cycle's lines, held back to coalesce channel sets.
    private var open: [JournalLine] = []

    public init() {}

    /// What a writer takes: finished lines in order, and the texts of the orchestras their
    /// `compile` lines name.
    public struct Batch: Sendable {
        public var lines: [JournalLine]
        public var orchestras: [String: String]
    }

    /// A writer takes the lines from now on; `wake` is called (under the journal's lock: it must
    /// only signal) when a `sync` line is pending. Returns false when the journal was discarded
    /// (its lines since the engine's start are gone: a session made now could not replay).
    // Thread: NRT (the session's owner)
    public func attach(wake: @escaping @Sendable () -> Void) -> Bool {
        lock.withLock {
            guard keeping else { return false }
            self.wake = wake
            return true
        }
    }

    /// The writer lets go (the lines from now on wait here again, for the next writer).
    // Thread: NRT (the session's owner)
    public func detach() { lock.withLock { wake = nil } }

    /// Takes every finished line (and the open k-cycle's with `all`) out of the journal.
    // Thread: NRT (the session's writer)
    public func take(all: Bool = false) -> Batch {
        lock.withLock {
            if all { flushOpen() }
            let lines = pending
            pending = []
            var texts: [String: String] = [:]
            for line in lines {
                switch line {
                case let .compile(_, hash, _, _), let .stage(_, hash, _, _, _, _): texts[hash] = orchestras[hash]
                default: break
                }
            }
            return Batch(lines: lines, orchestras: texts)
        }
    }

    /// Keeps nothing from now on (`--no-session`): lines are counted and dropped.
    // Thread: NRT (owner)
    public func discard() {
        lock.withLock {
            keeping = false
            pending = []
            wake = nil
        }
    }

    /// Whether the lines since the engine's start are all still here or in a session.
    public var isComplete: Bool { lock.withLock { keeping } }

    /// The lines not yet taken by a writer (all of them while none is attached) and the
    /// orchestra texts. For tests and tools that read the journal of a driver directly; the
    /// parameter is a remnant of the observer it once set (only nil).
    // Thread: NRT (any)
    public func follow(_ observer: Never? = nil) -> (lines: [String], orchestras: [String: String]) {
        lock.withLock {
            flushOpen()
            return (pending.map(\.text), orchestras)
        }
    }

    /// The number of lines journaled so far.
    public var count: Int { lock.withLock { total + open.count } }

    // MARK: feeding — Thread: NRT

    func name(_ pointer: UnsafeMutablePointer<Double>, _ name: String) {
        lock.withLock { names[pointer] = name }
    }

    func forgetChannels() { lock.withLock { names = [:] } }

    /// An async compile accepted by Csound; stamped when the audio thread merges `marker`.
    /// With `staged`, the text's big tables were built off the audio thread (`staging`): the
    /// compile merges the rest of it.
    func compiled(_ text: String, source: String, marker: Double, register: Bool, staged: Bool = false) {
        lock.withLock {
            if register {
                let hash = JournalLine.hash(text)
                orchestras[hash] = text
                waiting.append((marker, { .compile(cycle: $0, hash: hash, source: source, staged: staged) }))
            } else {
                waiting.append((marker, { .eval(cycle: $0, code: text) }))
            }
        }
    }

    /// A table built off the audio thread whose slices (`Command.tableFill`, tagged `tag`)
    /// are about to be posted: the text it comes from (kept by hash) and which of its tables.
    func staging(_ text: String, table index: Int, tag: Int) {
        lock.withLock {
            let hash = JournalLine.hash(text)
            orchestras[hash] = text
            stagedTables[tag] = (hash, index)
        }
    }

    func scored(_ text: String, marker: Double) {
        lock.withLock { waiting.append((marker, { .score(cycle: $0, text: text) })) }
    }

    func string(_ channel: String, _ text: String, cycle: Int64) {
        lock.withLock { append(.string(cycle: cycle, channel: channel, text: text)) }
    }

    /// An engine starts (the first, or a rebuild after `previous` k-cycles of the old one).
    func engine(ksmps: Int, after previous: Int64) {
        lock.withLock {
            flushOpen()
            waiting = []
            open.append(.engine(cycle: previous, ksmps: ksmps))
            flushOpen()
        }
    }

    /// What the audio thread reported (in order).
    func applied(_ a: Applied) {
        lock.withLock {
            switch a.kind {
            case .command:
                let c = a.command
                switch c.kind {
                case .event:
                    append(.event(cycle: a.cycle, pfields: c.fields))
                case .table:
                    append(.table(cycle: a.cycle, pfields: c.fields))
                case .setControl:
                    guard let ch = c.channel, let name = names[ch] else { return }
                    // The last value a channel got within a k-cycle is the one Csound saw,
                    // unless a momentary of the same channel came in between.
                    if let i = open.lastIndex(where: { if case let .set(cy, n, _) = $0 { return cy == a.cycle && n == name }; return false }),
                       !open[(i + 1)...].contains(where: { if case let .momentary(_, n, _) = $0 { return n == name }; return false }) {
                        open[i] = .set(cycle: a.cycle, channel: name, value: c.value)
                    } else {
                        append(.set(cycle: a.cycle, channel: name, value: c.value))
                    }
                case .momentary:
                    guard let ch = c.channel, let name = names[ch] else { return }
                    append(.momentary(cycle: a.cycle, channel: name, value: c.value))
                case .clock:
                    break  // reported as `.clock` with the clock's new state
                case .tableFill:
                    guard let (hash, index) = stagedTables[Int(c.pfields[3])] else { return }
                    append(.stage(cycle: a.cycle, hash: hash, index: index, table: Int32(c.pfields[0]),
                                  offset: Int(c.pfields[1]), count: Int(c.pfields[2])))
                case .setString:
                    guard let s = c.storage, let name = names[s.assumingMemoryBound(to: Double.self)] else { return }
                    var pf = c.pfields
                    let text = withUnsafeBytes(of: &pf) { String(decoding: $0.prefix(Int(c.count)), as: UTF8.self) }
                    append(.string(cycle: a.cycle, channel: name, text: text))
                }
            case .compileMerged, .scoreRead:
                // Csound takes in every queued compile and score text in order, at the start of
                // a k-cycle: all waiting items up to this marker went in at this cycle.
                let marker = Double(a.id)
                let due = waiting.filter { $0.marker <= marker }.sorted { $0.marker < $1.marker }
                waiting.removeAll { $0.marker <= marker }
                for item in due { append(item.line(a.cycle)) }
            case .midi:
                var pf = a.command.pfields
                let bytes = withUnsafeBytes(of: &pf) { Array($0.prefix(Int(a.command.count))) }
                append(.midi(cycle: a.cycle, bytes: bytes))
            case .clock:
                let p = a.command.pfields
                append(.clock(cycle: a.cycle, state: ClockState(tempo: p[0], quantum: p[1], beat: p[2], running: p[3] != 0,
                                                                rate: a.command.count >= 5 ? p[4] : 1)))
            case .scheduleFull, .stale, .tableRefused:
                break
            }
        }
    }

    /// Notes that every line through `cycle` has been journaled.
    func sync(through cycle: Int64) {
        lock.withLock {
            flushOpen()
            open.append(.sync(cycle: cycle))
            flushOpen()
        }
    }

    /// Hands the lines of finished k-cycles to `pending` (for the writer).
    func flush() { lock.withLock { flushOpen() } }

    private func append(_ line: JournalLine) {
        if let last = open.last, last.cycle != line.cycle { flushOpen() }
        open.append(line)
    }

    private func flushOpen() {
        guard !open.isEmpty else { return }
        total += open.count
        if keeping {
            pending.append(contentsOf: open)
            if let wake, open.contains(where: { if case .sync = $0 { return true }; return false }) { wake() }
        }
        open.removeAll(keepingCapacity: true)
    }
}
