import Foundation
import PodiumRealtime

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
///
/// Everything that changes what Csound computes leaves a line with the absolute k-cycle it took
/// effect in: commands (reported *as applied*, p2 already carrying the offset inside the
/// k-cycle); async compiles (stamped by the marker the audio thread sees: they merge in the
/// k-cycle whose `kperf` dequeues them) and score text (its notes start one k-cycle after it is
/// read, so `scoreRead` is reported one cycle back); string channels (stored by the audio thread
/// into storage reserved before the performance, or, when too long, set between two callbacks
/// found with `callbackSeq`); MIDI messages; hushes; the beat clock's `clock` lines; rebuilds.
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
    /// The k-cycle of the last line handed on (a `typed` line is stamped with it when none is open).
    private var lastCycle: Int64 = 0

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
    /// orchestra texts, for tests and tools that read the journal of a driver directly
    /// (`follow` in PodiumSession gives them as events.log's text).
    // Thread: NRT (any)
    public func snapshot() -> (lines: [JournalLine], orchestras: [String: String]) {
        lock.withLock {
            flushOpen()
            return (pending, orchestras)
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
                case .hush:
                    break  // reported as `.hush` with its instrument bound
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
            case .hush:
                append(.hush(cycle: a.cycle, bound: Int(a.command.value)))
            case .scheduleFull, .stale, .tableRefused, .noteRefused:
                break
            }
        }
    }

    /// What a performer evaluated in the editor, stamped with the last k-cycle journaled (the
    /// lines stay in order; replay passes it by).
    func typed(who: String, text: String) {
        lock.withLock { append(.typed(cycle: open.last?.cycle ?? lastCycle, who: who, text: text)) }
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
        lastCycle = open.last?.cycle ?? lastCycle
        total += open.count
        if keeping {
            pending.append(contentsOf: open)
            if let wake, open.contains(where: { if case .sync = $0 { return true }; return false }) { wake() }
        }
        open.removeAll(keepingCapacity: true)
    }
}
