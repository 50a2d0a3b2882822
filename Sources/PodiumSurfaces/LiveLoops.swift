import CThreads
import Foundation
import PodiumEngine
import PodiumHost
import PodiumRealtime
import Synchronization

/// Live loops: named blocks of score lines in beats that repeat every N beats on the beat grid.
///
///     loop drums 4
///     i "kick" 0 .25
///     i "kick" 2 .25
///     chord C3 min7 1 .5 "pad"
///     end
///
/// The scheduler (its own thread, `podium-loops`, with its own command producer) posts each
/// iteration's notes once the iteration's first beat is `lookahead` seconds away, stamped with
/// their beat: the audio thread starts each on the frame of its beat (`Command.Timing.beat`), so
/// they are never late, and a tempo change moves the notes still waiting with the music.
/// Redefining a loop takes effect at its next iteration not yet posted — its next boundary,
/// unless the new text arrives within the lookahead before that boundary, then the one after —
/// and every iteration plays exactly one definition: no gap, no double. `stop` ends a loop after
/// the iteration it is in. Instruments are looked up at every iteration, so a loop survives a
/// hot reload of what it plays. Every note is journaled as the audio thread applies it.
///
/// The thread ticks every 5 ms at SCHED_FIFO 1 where allowed; `lookahead` is 100 ms. Definitions are parsed and checked when
/// typed, sent or saved in `NAME.loops`. The same tick drives the pattern slots
/// (`patterns`, PatternPlayer.swift). A hush a surface posts ends loops and patterns at once and
/// is counted (`hushPosted`), so that when the supervisor sees the audio thread apply it, it ends
/// nothing started since; only a hush nobody posted (CC 123 on midi_in) ends them then.
public final class LiveLoops: @unchecked Sendable {
    public struct Definition: Sendable, Equatable {
        public let name: String
        public let beats: Double
        public let body: String
        let statements: [ScoreLine]
    }

    struct Running {
        var current: Definition
        var pending: Definition?
        /// The first beat of the next iteration to post.
        var nextStart: Double
        var stopping = false
        var iterations = 0
        /// Where the definition came from (a file's path, or nil: typed or sent).
        var source: String?
        var reported = false
    }

    /// Seconds ahead of its first beat at which an iteration is posted.
    public static let lookahead = 0.1
    /// Notes one iteration may hold, and all loops together: the audio thread's schedule holds
    /// 1024 waiting commands, shared with timetagged input.
    public static let maximumNotes = 256
    public static let maximumTotalNotes = 768

    let driver: JackDriver
    let producer: CommandProducer
    private let lock = NSLock()
    private var loops: [String: Running] = [:]
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)
    private let running = Mutex(false)
    /// Problems met while playing (an instrument gone, the ring full), once per definition.
    public var onProblem: (@Sendable (String) -> Void)? {
        didSet { patterns.onProblem = onProblem }
    }
    /// Patterns (`d1 $ …`), posted by this scheduler on its producer (one musical-time
    /// scheduler, one ring): a hush ends them with the loops.
    public let patterns: PatternPlayer

    // Thread: NRT (owner)
    public init(driver: JackDriver) {
        self.driver = driver
        producer = driver.makeProducer()
        patterns = PatternPlayer(driver: driver)
    }

    /// A loop's name and length, as typed (`loop NAME BEATS`).
    public static func check(name: String, beats: Double) throws(InputError) {
        guard !name.isEmpty, name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw InputError("loop name \"\(name)\": letters, digits, _ - . (at most 64)")
        }
        try InputCheck.grid(beats, "a loop")
    }

    /// Reads a loop's body: score lines (i, chord, scale) whose p2 falls inside the loop.
    // Thread: any
    public func parse(name: String, beats: Double, body: String) throws -> Definition {
        try LiveLoops.check(name: name, beats: beats)
        var statements: [ScoreLine] = []
        var previous: ScoreLine?
        let orchestras = driver.engine.orchestraTexts
        for (index, raw) in body.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw).trimmingCharacters()
            func problem(_ why: String) -> InputError { InputError("loop \(name), line \(index + 1): \(why)") }
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("//") { continue }
            var parsed: [ScoreLine]
            do {
                if Music.isExpansion(line) {
                    parsed = try ScoreLine.parse(text: line).map { PFields.padded($0, orchestras: orchestras) }
                } else if ReplInterpreter.isScoreStatement(line) {
                    parsed = try ScoreLine.parse(line, previous: previous).map { [$0] } ?? []
                } else {
                    throw problem("a loop plays score lines (i, chord, scale), not \"\(line.prefix(40))\"")
                }
            } catch let e as ScoreError {
                throw problem("\(e.message) (column \(e.column))")
            }
            for s in parsed {
                guard case let .event(instrument, fields) = s else { throw problem("a loop plays notes, not tables") }
                guard driver.p1(for: instrument) != nil else { throw problem("unknown instrument \(instrument.text)") }
                let start = fields.first ?? 0
                guard start >= 0, start < beats else {
                    throw problem("starts at beat \(InputCheck.describe(start)), outside the loop's \(InputCheck.describe(beats)) beats")
                }
                try InputCheck.note([1] + fields)
                previous = s
                statements.append(s)
            }
        }
        guard statements.count <= LiveLoops.maximumNotes else {
            throw InputError("loop \(name): \(statements.count) notes an iteration; at most \(LiveLoops.maximumNotes)")
        }
        return Definition(name: name, beats: beats, body: body, statements: statements)
    }

    /// Defines or redefines a loop; says when it starts or swaps.
    // Thread: any
    @discardableResult
    public func define(name: String, beats: Double, body: String, source: String? = nil) throws -> String {
        let definition = try parse(name: name, beats: beats, body: body)
        let now = driver.beatNow
        let clock = driver.clock
        return try lock.withLock { () throws(InputError) -> String in
            let others = loops.filter { $0.key != name }.values.reduce(0) { $0 + max($1.current.statements.count, $1.pending?.statements.count ?? 0) }
            guard others + definition.statements.count <= LiveLoops.maximumTotalNotes else {
                throw InputError("loop \(name): all loops together would hold \(others + definition.statements.count) notes an iteration; at most \(LiveLoops.maximumTotalNotes)")
            }
            if var loop = loops[name] {
                if loop.current == definition, loop.pending == nil, !loop.stopping { return "loop \(name): unchanged" }
                loop.pending = definition
                loop.stopping = false
                loop.source = source
                loop.reported = false
                loops[name] = loop
                return "loop \(name): swaps at beat \(InputCheck.describe(loop.nextStart))"
            }
            // A new loop starts on the next bar (or the next multiple of its length, when shorter).
            let grid = min(beats, clock.quantum)
            let earliest = now + LiveLoops.lookahead * clock.tempo / 60
            let start = (earliest / grid).rounded(.up) * grid
            loops[name] = Running(current: definition, nextStart: start, source: source)
            return "loop \(name): starts at beat \(InputCheck.describe(start))"
        }
    }

    /// Loops defined in a file (`loop NAME BEATS` … `end` blocks): each is (re)defined; loops
    /// the file defined before and no longer does stop. Returns a line per change.
    // Thread: any
    public func define(fileText text: String, source: String) -> [String] {
        var interpreter = ReplInterpreter()
        var found: Set<String> = []
        var messages: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            switch interpreter.feed(String(line)) {
            case let .loop(name, beats, body):
                found.insert(name)
                do { messages.append(try define(name: name, beats: beats, body: body, source: source)) }
                catch { messages.append("\(source): \(error)") }
            case let .problem(message): messages.append("\(source): \(message)")
            case .nothing, .incomplete: break
            default: messages.append("\(source): only loop … end blocks belong in a loops file: \(line.prefix(40))")
            }
        }
        if interpreter.inBlock { messages.append("\(source): the last loop has no end") }
        let gone = lock.withLock { loops.filter { $0.value.source == source && !found.contains($0.key) }.map(\.key) }
        for name in gone.sorted() { messages.append((try? stop(name)) ?? "") }
        return messages.filter { !$0.isEmpty && !$0.hasSuffix(": unchanged") }
    }

    /// Stops a loop after the iteration it is in.
    // Thread: any
    @discardableResult
    public func stop(_ name: String) throws -> String {
        try lock.withLock { () throws(InputError) -> String in
            guard var loop = loops[name] else {
                let known = loops.keys.sorted()
                throw InputError("no loop \(name)" + (known.isEmpty ? " (no loop is playing)" : " (playing: \(known.joined(separator: ", ")))"), kind: .unknownTarget)
            }
            loop.stopping = true
            loop.pending = nil
            loops[name] = loop
            return "loop \(name): stops at beat \(InputCheck.describe(loop.nextStart))"
        }
    }

    /// Stops every loop after its current iteration.
    // Thread: any
    @discardableResult
    public func stopAll() -> String {
        let names = lock.withLock { loops.keys.sorted() }
        if names.isEmpty { return "no loop is playing" }
        for name in names { _ = try? stop(name) }
        return "stopping \(names.joined(separator: ", "))"
    }

    /// Ends every loop and pattern now, in the middle of its iteration (a hush): nothing more is posted;
    /// what was posted ahead waits in the audio thread's schedule, which the hush empties.
    // Thread: any
    @discardableResult
    public func endAllNow() -> [String] {
        patterns.hushAll()
        return lock.withLock {
            defer { loops = [:] }
            return loops.keys.sorted()
        }
    }

    /// Hushes this side posted and the audio thread has not applied yet: when it does, there is
    /// nothing more to end (and a loop or pattern started since must not be ended by it).
    private let ownHushes = Mutex(0)

    /// A hush is about to be posted (`Hush.perform`); `posted: false` takes it back.
    // Thread: any
    public func hushPosted(_ posted: Bool = true) {
        ownHushes.withLock { $0 = max(0, $0 + (posted ? 1 : -1)) }
    }

    /// The audio thread applied a hush (the supervisor's `onHush`): one posted here was carried
    /// out when it was asked for; any other (CC 123 on midi_in) ends the loops and patterns now.
    // Thread: supervisor
    public func hushApplied() {
        let own = ownHushes.withLock { n -> Bool in
            guard n > 0 else { return false }
            n -= 1
            return true
        }
        if !own { endAllNow() }
    }

    /// One line per loop: name, length, iterations played, what comes next.
    // Thread: any
    public func list() -> [String] {
        lock.withLock {
            loops.keys.sorted().map { name in
                let l = loops[name]!
                let state = l.stopping ? "stops at beat \(InputCheck.describe(l.nextStart))"
                    : l.pending != nil ? "swaps at beat \(InputCheck.describe(l.nextStart))"
                    : "next at beat \(InputCheck.describe(l.nextStart))"
                return "\(name): \(InputCheck.describe(l.current.beats)) beats, \(l.current.statements.count) notes, \(l.iterations) played, \(state)"
            }
        }
    }

    public var names: [String] { lock.withLock { loops.keys.sorted() } }

    /// The notes of every loop between two beats (the page's roll): each note's start and end
    /// beat and its instrument, iterations repeating back from the next one's start (at most
    /// `limit` notes a loop; a loop that is stopping shows nothing after its end).
    // Thread: any
    public func preview(fromBeat: Double, toBeat: Double, limit: Int) -> [(name: String, notes: [(start: Double, stop: Double, label: String)])] {
        let snapshot = lock.withLock { loops.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        return snapshot.map { name, l in
            var notes: [(Double, Double, String)] = []
            let beats = l.current.beats
            guard beats > 0 else { return (name, []) }
            // The iteration that holds `fromBeat`, then on; a stopping loop ends at nextStart.
            var start = l.nextStart - (max(0, (l.nextStart - fromBeat) / beats)).rounded(.up) * beats
            while start < toBeat, notes.count < limit {
                if l.stopping && start >= l.nextStart { break }
                let definition = start >= l.nextStart ? (l.pending ?? l.current) : l.current
                for case let .event(instrument, fields) in definition.statements where notes.count < limit {
                    let at = start + (fields.first ?? 0), length = fields.count > 1 ? abs(fields[1]) : 0
                    if at + length > fromBeat && at < toBeat { notes.append((at, at + max(length, 0.05), instrument.text)) }
                }
                start += definition.beats
            }
            return (name, notes)
        }
    }

    // MARK: the scheduler

    // Thread: NRT (owner)
    public func start() {
        guard running.withLock({ r in defer { r = true }; return !r }) else { return }
        let thread = Thread { [self] in
            // The texts compiled so far read once, before the first tick and off the owner's
            // thread: the sampler's and SuperDirt's texts take a while, and the start (a script's
            // first line, the recording's first second) does not wait for them.
            _ = patterns.layoutCache.layouts(for: driver.engine.orchestraTexts)
            // SCHED_FIFO 1 where the process may, as sclang's clocks run on Linux: above every
            // ordinary thread (a browser, a build), below JACK's. Starved for more than the
            // lookahead, the scheduler would post notes late or skip them.
            _ = podium_fifo_begin()
            while running.withLock({ $0 }) {
                tick()
                usleep(5_000)
            }
            done.signal()
        }
        thread.name = "podium-loops"
        self.thread = thread
        thread.start()
    }

    // Thread: NRT (owner)
    public func stopScheduler() {
        guard running.withLock({ r in defer { r = false }; return r }) else { return }
        done.wait()
    }

    /// Posts every iteration whose first beat is within the lookahead.
    // Thread: podium-loops
    func tick() {
        // New orchestra texts are read before the clock is (a large one takes a while): what
        // this tick posts is measured from after it.
        patterns.refreshLayouts()
        let clock = driver.clock
        guard clock.running else { return }
        let now = driver.beatNow
        let horizon = now + LiveLoops.lookahead * clock.tempo / 60
        patterns.tick(producer: producer, nowBeat: now, horizonBeat: horizon, clock: clock)
        var due: [(Definition, Double, String?)] = []
        lock.withLock {
            for name in Array(loops.keys) {
                guard var loop = loops[name] else { continue }
                // The clock moved back (a JACK transport relocation): the next iteration is more
                // than a loop ahead, which posting never leaves; start again at the next boundary.
                if loop.nextStart > horizon + loop.current.beats + 1e-9 {
                    loop.nextStart = (now / loop.current.beats - 1e-9).rounded(.up) * loop.current.beats
                }
                // After a long stall (transport stopped, a rebuild), skip to the next boundary.
                if loop.nextStart + loop.current.beats < now {
                    loop.nextStart += ((now - loop.nextStart) / loop.current.beats).rounded(.up) * loop.current.beats
                }
                while loop.nextStart <= horizon {
                    if loop.stopping { loops[name] = nil; break }
                    if let next = loop.pending { loop.current = next; loop.pending = nil }
                    let problem = loop.reported ? nil : "loop \(name)"
                    due.append((loop.current, loop.nextStart, problem))
                    loop.nextStart += loop.current.beats
                    loop.iterations += 1
                }
                if loops[name] != nil { loops[name] = loop }
            }
        }
        for (definition, start, label) in due {
            if let why = post(definition, at: start), let label {
                onProblem?("\(label): \(why)")
                lock.withLock { loops[definition.name]?.reported = true }
            }
        }
    }

    /// Posts one iteration's notes, stamped with their beats; the first problem, if any.
    // Thread: podium-loops
    func post(_ definition: Definition, at start: Double) -> String? {
        var problem: String?
        for case let .event(instrument, fields) in definition.statements {
            guard let p1 = driver.p1(for: instrument) else {
                problem = problem ?? "unknown instrument \(instrument.text) (skipped)"
                continue
            }
            do {
                let posted = try fields.withUnsafeBufferPointer { (f) throws(InputError) -> UInt64? in
                    try producer.event(p1: p1, f, quantize: .beat(start))
                }
                if posted == nil {
                    problem = problem ?? "command ring full: notes not played"
                }
            } catch {
                problem = problem ?? error.description
            }
        }
        return problem
    }
}
