import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumRealtime

/// Patterns playing on the beat clock: Tidal's `d1 $ …` slots.
///
/// One cycle is one bar of the beat clock (`quantum` beats), so `:tempo` and `setcps` move the
/// same clock, and Link, JACK transport and MIDI clock move patterns as they move loops. The
/// live loops' scheduler (`podium-loops`) ticks this player with its own producer: every 5 ms it
/// queries each slot's pattern for the arc from where it stopped to the lookahead's horizon and
/// posts each onset as a note stamped with its beat, which the audio thread starts on its exact
/// frame. Arcs follow one another exactly (rational time), so every event is posted once.
///
/// A new slot plays from the horizon on, as Tidal does (a pattern is a function of the cycle).
/// Typing a slot again swaps it at the next cycle boundary not yet posted: the old pattern's
/// events before it, the new one's from it — no gap, no double. `d1 silence` stops a slot at
/// that boundary, `hush` at once. Every note is journaled as the audio thread applies it.
public final class PatternPlayer: @unchecked Sendable {
    struct Slot {
        var pattern: Pattern<ControlMap>
        var pending: Pattern<ControlMap>?
        /// The cycle at which `pending` takes over.
        var swapAt: Time = .zero
        var text: String
        var source: String?
        var events = 0
    }

    let driver: JackDriver
    private let lock = NSLock()
    private var slots: [String: Slot] = [:]
    private var onces: [Pattern<ControlMap>] = []
    /// Where posting stopped, in cycles (nil: nothing posted yet).
    private var postedUntil: Time?
    /// Problems already reported (one message per name, not per event).
    private var reported: Set<String> = []
    /// Declared parameter layouts, read again when another orchestra text compiled.
    private var layouts: [String: [String]] = [:]
    private var layoutsFrom = -1
    private var fieldBuffer: [Double] = []
    /// A tempo or a hush asked for without a producer, sent by the next tick.
    private var pendingTempo: Double?
    private var pendingHush = false
    public var onProblem: (@Sendable (String) -> Void)?
    /// CPU time the scheduler's thread spent in pattern ticks (queries and posting), seconds.
    public var schedulerCPUSeconds: Double { lock.withLock { cpuSeconds } }
    private var cpuSeconds = 0.0
    /// The least music a query covers (see `tick`).
    public static let chunkSeconds = 0.02
    /// Events one tick may post; more are dropped and reported (a pattern denser than any
    /// instrument can play, `s "bd*100000"`).
    public static let maximumEventsPerTick = 512

    // Thread: NRT (owner)
    public init(driver: JackDriver) { self.driver = driver }

    /// The names of the controls orchestras declare (accepted in expressions beside Tidal's).
    // Thread: any
    public var declaredControls: Set<String> {
        Set(PatternNotes.declarations(in: driver.engine.orchestraTexts).values.joined().filter { !$0.isEmpty })
    }

    /// A statement typed or sent (`d1 $ …`, `hush`, `setcps 0.5`, `once $ …`): carried out;
    /// says what it did. `producer` is the caller's (a hush or a tempo now); without one (a
    /// patterns file's watcher has none) they go out with the scheduler's next tick.
    // Thread: any (the producer's, when one is given)
    public func run(_ text: String, source: String? = nil, producer: CommandProducer?, loops: LiveLoops?) throws -> String {
        try carryOut(text, source: source, producer: producer, loops: loops).said
    }

    /// `run`, and the slot a `d1 $ …` played in.
    // Thread: any (the producer's, when one is given)
    func carryOut(_ text: String, source: String?, producer: CommandProducer?, loops: LiveLoops?) throws -> (said: String, slot: String?) {
        let language = PatternLanguage(extraControls: declaredControls)
        let said: String
        switch try language.statement(text) {
        case let .play(slot, pattern):
            try PatternPlayer.checkDensity(pattern)
            return (define(slot: slot, pattern: pattern, text: text, source: source), slot)
        case .hush:
            if let producer { said = try Hush.perform(producer: producer, loops: loops) } else {
                let ended = hushAll()
                lock.withLock { pendingHush = true }
                said = "hushed" + (ended.isEmpty ? "" : ": patterns \(ended.joined(separator: ", ")) ended")
            }
        case let .setcps(cps):
            let bpm = cps * 60 * driver.clock.quantum
            try InputCheck.tempo(bpm)
            if let producer { try producer.clock(tempo: bpm) } else { lock.withLock { pendingTempo = bpm } }
            said = "cps \(InputCheck.describe(cps)) (tempo \(InputCheck.describe(bpm)) BPM)"
        case let .once(pattern):
            try PatternPlayer.checkDensity(pattern)
            lock.withLock { onces.append(pattern) }
            said = "once"
        }
        return (said, nil)
    }

    /// Events a cycle a pattern may hold (estimated before it plays: a query of a denser one
    /// would hold up the scheduler, and no instrument plays 100 000 notes a cycle).
    public static let maximumDensity = 50_000

    // Thread: any
    static func checkDensity(_ pattern: Pattern<ControlMap>) throws(InputError) {
        let density = Density.estimate(pattern)
        guard density <= maximumDensity else {
            throw InputError("about \(density) events a cycle: a pattern plays at most \(maximumDensity) (is a `*` or `fast` too large?)")
        }
    }

    /// Plays `pattern` in `slot` (again: swaps at the next cycle not yet posted).
    // Thread: any
    @discardableResult
    public func define(slot: String, pattern: Pattern<ControlMap>, text: String, source: String? = nil) -> String {
        lock.withLock {
            reported = []
            if var s = slots[slot] {
                if s.text == text, s.pending == nil, s.source == source { return "\(slot): unchanged" }
                let boundary = postedUntil.map { $0 == $0.sam ? $0 : $0.nextSam } ?? .zero
                s.pending = pattern
                s.swapAt = boundary
                s.text = text
                s.source = source
                slots[slot] = s
                return "\(slot): swaps at cycle \(boundary)"
            }
            slots[slot] = Slot(pattern: pattern, text: text, source: source)
            return "\(slot): playing"
        }
    }

    /// Ends every slot now (a hush); returns what it ended, for the hush's answer.
    // Thread: any
    @discardableResult
    public func hushAll() -> [String] {
        lock.withLock { () -> [String] in
            defer { slots = [:]; onces = [] }
            return slots.keys.sorted()
        }
    }

    /// Slots defined from `source` (a patterns file) that it no longer defines stop.
    // Thread: any
    public func forget(source: String, keeping: Set<String>) -> [String] {
        lock.withLock {
            let gone = slots.filter { $0.value.source == source && !keeping.contains($0.key) }.map(\.key).sorted()
            for g in gone {
                slots[g]?.pending = .silence
                slots[g]?.swapAt = postedUntil.map { $0 == $0.sam ? $0 : $0.nextSam } ?? .zero
            }
            return gone.map { "\($0): stops (no longer in \(source))" }
        }
    }

    /// One line per slot: its text and the events it posted.
    // Thread: any
    public func list() -> [String] {
        lock.withLock {
            slots.keys.sorted().map { k in
                let s = slots[k]!
                let text = s.text.split(separator: "\n").joined(separator: " ")
                return "\(k): \(s.events) events posted\(s.pending != nil ? ", swaps at cycle \(s.swapAt)" : "") — \(text.prefix(60))"
            }
        }
    }

    public var names: [String] { lock.withLock { slots.keys.sorted() } }

    // MARK: posting (the loops' scheduler thread)

    /// Posts every onset between where posting stopped and `horizonBeat`.
    // Thread: podium-loops
    func tick(producer: CommandProducer, nowBeat: Double, horizonBeat: Double, clock: ClockSnapshot) {
        let cpuStart = PatternPlayer.threadCPU()
        defer { let spent = PatternPlayer.threadCPU() - cpuStart; lock.withLock { cpuSeconds += spent } }
        let quantum = max(clock.quantum, 1e-9)
        var problems: [String] = []
        let (tempo, hush) = lock.withLock { () -> (Double?, Bool) in
            defer { pendingTempo = nil; pendingHush = false }
            return (pendingTempo, pendingHush)
        }
        if let tempo { do { try producer.clock(tempo: tempo) } catch { onProblem?(error.description) } }
        if hush { do { try producer.hush() } catch { onProblem?(error.description) } }
        lock.withLock {
            guard !slots.isEmpty || !onces.isEmpty else { postedUntil = nil; return }
            let now = Time(nowBeat / quantum)
            let horizon = Time(horizonBeat / quantum)
            var from = postedUntil ?? horizon
            // The clock moved (a relocation, a long stall): start again from the horizon.
            if from > horizon + 1 || from + 1 < now { from = horizon }
            guard from < horizon else { postedUntil = from; return }
            // Queried in chunks of at least 20 ms of music (notes still go out 80 ms or more
            // ahead): each query has a cost of its own, and 5 ms slivers multiplied it by four.
            let secondsAhead = (horizon - from).double * quantum * 60 / max(clock.tempo, 1e-9)
            guard secondsAhead >= PatternPlayer.chunkSeconds || postedUntil == nil else { postedUntil = from; return }
            refreshLayouts()
            var posted = 0
            for name in slots.keys.sorted() {
                guard var slot = slots[name] else { continue }
                var arcs: [(Pattern<ControlMap>, Time, Time)] = []
                if let pending = slot.pending, slot.swapAt < horizon {
                    if from < slot.swapAt { arcs.append((slot.pattern, from, slot.swapAt)) }
                    arcs.append((pending, max(from, slot.swapAt), horizon))
                    slot.pattern = pending
                    slot.pending = nil
                } else {
                    arcs.append((slot.pattern, from, horizon))
                }
                for (pattern, a, b) in arcs {
                    let events = pattern.queryArc(a, b).filter(\.hasOnset).sorted { $0.wholeStart < $1.wholeStart }
                    for e in events {
                        if posted >= PatternPlayer.maximumEventsPerTick {
                            problems.append(once("\(name): more than \(PatternPlayer.maximumEventsPerTick) events in \(Int(LiveLoops.lookahead * 1000)) ms; the rest were dropped"))
                            break
                        }
                        let (sent, problem) = post(e, slot: name, producer: producer, quantum: quantum, tempo: clock.tempo)
                        if let problem { problems.append(problem) }
                        posted += 1
                        if sent { slot.events += 1 }
                    }
                }
                // A slot that is silent from now on (`d1 silence`) goes away.
                slots[name] = slot
            }
            if !onces.isEmpty {
                // `once`: the pattern's first cycle, played from the horizon.
                for pattern in onces {
                    for e in pattern.queryArc(0, 1).filter(\.hasOnset) {
                        var shifted = e
                        shifted.whole = e.whole.map { $0.withTime { $0 + horizon } }
                        shifted.part = e.part.withTime { $0 + horizon }
                        if let p = post(shifted, slot: "once", producer: producer, quantum: quantum, tempo: clock.tempo).problem { problems.append(p) }
                    }
                }
                onces = []
            }
            postedUntil = horizon
        }
        for p in problems where !p.isEmpty { onProblem?(p) }
    }

    // Thread: any
    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A message the first time it is seen, "" after.
    // Thread: podium-loops (under the lock)
    private func once(_ message: String) -> String {
        reported.insert(message).inserted ? message : ""
    }

    // Thread: podium-loops (under the lock)
    private func refreshLayouts() {
        let texts = driver.engine.orchestraTexts
        guard texts.count != layoutsFrom else { return }
        layoutsFrom = texts.count
        layouts = PatternNotes.declarations(in: texts)
        // Undeclared instruments get `freq amp`, as far as they read p-fields (no warning per note).
        for t in texts {
            for raw in t.split(whereSeparator: \.isNewline) {
                let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
                guard words.first == "instr" else { continue }
                for w in words.dropFirst() {
                    if w.hasPrefix(";") { break }
                    let key = String(w.drop(while: { $0 == "+" }))
                    guard layouts[key] == nil else { continue }
                    let instrument: ScoreLine.Instrument = Double(key).map { .number($0) } ?? .name(key)
                    let used = PFields.used(by: instrument, in: texts) ?? 5
                    layouts["undeclared:" + key] = Array(PatternNotes.undeclaredLayout.prefix(max(0, used - 3)))
                }
            }
        }
    }

    /// One event as a note: whether it went into the ring, and a problem's message (once per
    /// name; "" when already said), or nil.
    // Thread: podium-loops (under the lock)
    private func post(_ e: Event<ControlMap>, slot: String, producer: CommandProducer, quantum: Double, tempo: Double) -> (sent: Bool, problem: String?) {
        guard let sound = PatternNotes.sound(e.value["s"]) else {
            return (false, once("\(slot): an event without `s` (name an instrument: # s \"bass\")"))
        }
        let instrument: ScoreLine.Instrument = Double(sound.name).map { .number($0) } ?? .name(sound.name)
        guard let p1 = driver.p1(for: instrument) else {
            return (false, once("\(slot): no instrument \"\(sound.name)\" in the orchestra"))
        }
        let key = sound.name
        let layout = layouts[key] ?? layouts["undeclared:" + key] ?? PatternNotes.undeclaredLayout
        let unused = PatternNotes.fields(e, layout: layout, tempo: tempo, quantum: quantum, into: &fieldBuffer)
        let beat = e.wholeStart.double * quantum
        var problem: String?
        if let extra = unused.first {
            problem = once("\(slot): instrument \(key) has no parameter `\(extra)` (declare it on its instr line: ; podium: \((layout + [extra]).joined(separator: " ")))")
        }
        do {
            let posted = try fieldBuffer.withUnsafeBufferPointer { f throws(InputError) in
                try producer.event(p1: p1, f, quantize: .beat(beat))
            }
            if posted == nil { return (false, once("\(slot): the command ring is full: notes not played")) }
        } catch {
            return (false, once("\(slot): \(error.description)"))
        }
        return (true, problem)
    }
}
