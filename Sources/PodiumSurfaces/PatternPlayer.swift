import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumRealtime

/// Patterns playing on the beat clock: Tidal's `d1 $ …` slots.
///
/// One cycle is one bar of the beat clock (`quantum` beats), so `:tempo` and `setcps` move the
/// same clock, and Link, JACK transport and MIDI clock move patterns as they move loops. The
/// live loops' scheduler (`podium-loops`) ticks this player with its own producer
/// (`PatternTick.swift`): it queries each slot's pattern for the arc from where posting stopped
/// to the lookahead's horizon and posts each onset as a note stamped with its beat, which the
/// audio thread starts on its exact frame. Arcs follow one another exactly (rational time), so
/// every event is posted once.
///
/// A new slot plays from the horizon on, as Tidal does (a pattern is a function of the cycle).
/// Typing a slot again swaps it at the next cycle boundary not yet posted: the old pattern's
/// events before it, the new one's from it — no gap, no double. `d1 silence` ends a slot at
/// that boundary, `hush` at once. Every note is journaled as the audio thread applies it.
///
/// Each onset goes through the loops' producer as a `.beat` note: p3 in beats, p4… in the
/// order of the instrument's `; podium:` declaration (PatternNotes.swift). The queries run
/// outside the player's lock (a plan is taken under it, patterns being values), so a hush never
/// waits for one. A beat that went back, a new quantum or a clock past what was posted is a
/// relocation: posting starts again at the horizon. A patterns file's `setcps` is sent by the
/// next tick (the file's watcher has no producer of its own). The pattern engine itself
/// (`PodiumPatterns`) never sees a clock, a thread or Csound.
public final class PatternPlayer: @unchecked Sendable {
    struct Slot {
        var pattern: Pattern<ControlMap>
        var pending: Pattern<ControlMap>?
        /// The cycle at which `pending` takes over.
        var swapAt: Time = .zero
        /// The slot goes away once `pending` (silence) took over: `d1 silence`, or a slot its
        /// patterns file no longer has.
        var endsAtSwap = false
        var text: String
        var source: String?
        /// The line of its source its text starts on (a file's, or the editor's buffer's), and
        /// the pending text's: the page maps the events' spans to its lines with it.
        var line = 1
        var pendingLine = 1
        var events = 0
        /// Which definition `pattern` is (a problem is said once per definition), and `pending`.
        var version = 0
        var pendingVersion = 0
        /// The last pattern typed for the slot, without a transition's mix (Tidal's history):
        /// what the next transition fades from.
        var typed: Pattern<ControlMap>?
        /// A transition's end: from that cycle on, the pattern that plays the same events
        /// without the old one (`Transition.settled`).
        var settle: (at: Time, pattern: Pattern<ControlMap>)?
        /// The triggers' takeover, still to be set by the first query (a slot defined while
        /// nothing was posted starts where that query starts).
        var trigger: TriggerStart?
    }

    let driver: JackDriver
    /// Guards everything below it but the scheduler's own state (`PatternTick.swift`).
    let lock = NSLock()
    var slots: [String: Slot] = [:]
    /// Tidal's `mute` and `solo`, by slot name (`isSilenced`).
    var muted: Set<String> = [], soloed: Set<String> = []
    /// Slots whose definition has nothing that can sound, with why (the roll greys them).
    var silentSlots: [String: String] = [:]
    /// What went wrong while a slot's definition played (events dropped, a sample still
    /// loading at its onset, a query stopped): the latest message and how many, for the page's
    /// roll and marks. A new definition starts with none.
    var playWarnings: [String: (message: String, count: Int)] = [:]
    /// Slots stopped while playing (too dense at a cycle, a query past its budget): why, and
    /// where their text was, until the slot is defined again or a hush (the roll shows them).
    var stoppedSlots: [String: (message: String, line: Int, source: String?)] = [:]
    /// `let` bindings, by name: the text of each value (`Bindings.swift`), for every surface.
    var bindings: [String: String] = [:]
    var onces: [Pattern<ControlMap>] = []
    /// Where posting stopped, in cycles (nil: nothing posted yet).
    var postedUntil: Time?
    /// Bumped by every hush: a tick that queried before it posts nothing after it.
    var generation = 0
    /// Problems already reported (one message per name and definition, not per event; at most
    /// 256 kept), each as the definition's version and the message.
    var reported: Set<String> = []
    var cpuSeconds = 0.0
    /// Times the scheduler found the music past what it had posted (its thread was not run for
    /// longer than the lookahead): the notes in between were skipped. Said at most every 10 s.
    var stallCount = 0
    var stallSaidAt: Date?
    /// Definitions so far: each gets the next number as its `version`.
    var versions = 0
    public var onProblem: (@Sendable (String) -> Void)?
    /// Values set from outside (Tidal's `/ctrl` on the OSC port, the stage page's widgets) that
    /// `cF`, `cI`, `cS` … read when their patterns are queried; `_cps` the clock's (`sec`).
    public let controllers = ControllerValues()
    /// Whether the page watches the steps (`PatternSteps.swift`); and the notes posted for it.
    public var watchSteps: Bool {
        get { lock.withLock { watching } }
        set { lock.withLock { watching = newValue; if !newValue { steps.removeAll() } } }
    }
    var watching = false
    var steps: [UInt64: Step] = [:]
    /// Sample banks: an `s` that names no instrument plays the sample of that name (set before
    /// patterns play).
    public var samples: SampleStore?

    /// The instruments' layouts, read once per orchestra text.
    let layoutCache = LayoutCache()

    // The scheduler thread's own state (podium-loops only: no lock).
    /// Declared parameter layouts, read again when another orchestra text compiled.
    var layouts: [String: [String]] = [:]
    var layoutsFrom = -1
    var fieldBuffer: [Double] = []
    /// The clock at the previous tick: a beat that went back or a new quantum is a relocation.
    var lastBeat = -Double.infinity
    var lastQuantum = 0.0
    /// When the previous tick ran (monotonic ns) and how long before this one: a stall's cause
    /// (the thread not run, or the clock jumping ahead).
    var lastTickNs: UInt64 = 0
    var tickGapMs = 0.0
    /// The cycle whose density was last checked.
    var checkedCycle: Int64 = .min
    /// Events whose sample was still loading when they were posted (PatternSamples.swift).
    var waiting: [WaitingSample] = []

    /// CPU time the scheduler's thread spent in pattern ticks (queries and posting), seconds.
    public var schedulerCPUSeconds: Double { lock.withLock { cpuSeconds } }
    /// Stalls of the scheduler longer than the lookahead (notes skipped), since the start.
    public var stalls: Int { lock.withLock { stallCount } }
    /// The least music a query covers (see `tick`).
    public static let chunkSeconds = 0.02
    /// Events one tick may post (at least 20 ms of music): the audio thread's schedule holds
    /// 1024 waiting commands, shared with the loops and timetagged input, and a tick's notes
    /// wait up to the 100 ms lookahead. More are dropped and reported.
    public static let maximumEventsPerTick = 128
    /// Events a cycle a pattern may hold (estimated before it plays, and again at each cycle it
    /// reaches: a query of a denser one would hold up the scheduler).
    public static let maximumDensity = 50_000
    /// Slots at once (`p "name"` makes one per name).
    public static let maximumSlots = 64

    // Thread: NRT (owner)
    public init(driver: JackDriver) { self.driver = driver }

    /// The names of the controls orchestras declare (accepted in expressions beside Tidal's).
    // Thread: any
    public var declaredControls: Set<String> {
        Set(PatternNotes.declarations(in: driver.engine.orchestraTexts).values.joined().map { PatternNotes.parameter($0).name }.filter { !$0.isEmpty && $0 != PatternNotes.effectsMarker })
    }

    /// A statement typed or sent (`d1 $ …`, `hush`, `setcps 0.5`, `once $ …`): carried out;
    /// says what it did. `producer` is the caller's, for a hush or a tempo.
    // Thread: any (the producer's)
    public func run(_ text: String, source: String? = nil, line: Int = 1, producer: CommandProducer, loops: LiveLoops?) throws -> String {
        try carryOut(text, source: source, line: line, producer: producer, loops: loops).said
    }

    /// `run`, and the slot a `d1 $ …` played in. Without a producer (a patterns file's watcher)
    /// `hush` and `once` are refused: a file is read again on every save, and they belong where
    /// they are typed.
    // Thread: any (the producer's, when one is given)
    func carryOut(_ text: String, source: String?, line: Int = 1, producer: CommandProducer?, loops: LiveLoops?) throws -> (said: String, slot: String?) {
        // Where `trigger`/`qtrigger` count from: set by `define` to where the pattern takes over
        // (until then, the clock's cycle now: a cycle is a bar of the beat clock).
        let clock = driver.clock
        let cycle = clock.quantum > 0 ? driver.beatNow / clock.quantum : 0
        let trigger = TriggerStart(cycle.isFinite ? Time(cycle) : .zero)
        let language = PatternLanguage(extraControls: declaredControls, bindings: lock.withLock { bindings }, trigger: trigger, controllers: controllers)
        switch try language.statement(text) {
        case let .play(slot, pattern):
            try PatternPlayer.checkDensity(pattern)
            let ends = PatternPlayer.isSilence(text)
            guard !ends else { return (try define(slot: slot, pattern: pattern, text: text, source: source, line: line, endsAtSwap: true), slot) }
            let (version, audit) = audited(pattern, slot: slot)
            // A trigger typed again starts again (a patterns file read again does not).
            let restart = producer != nil && PatternLanguage.usesTrigger(text)
            let said = try define(slot: slot, pattern: pattern, text: text, source: source, line: line, version: version, restart: restart,
                                  trigger: trigger)
            return (noteSilence(PatternPlayer.answer(said, slot: slot, audit), slot: slot, audit), slot)
        case .hush:
            guard let producer else { throw InputError("hush is not run from a patterns file (the file is read again on every save): type it") }
            return (try Hush.perform(producer: producer, loops: loops), nil)
        case let .setcps(cps):
            let bpm = cps * 60 * driver.clock.quantum
            try InputCheck.tempo(bpm)
            if let producer {
                guard try producer.clock(tempo: bpm) != nil else { throw InputError("the command ring is full: setcps not sent (try again)") }
            } else {
                lock.withLock { pendingTempo = bpm }
            }
            return ("cps \(InputCheck.describe(cps)) (tempo \(InputCheck.describe(bpm)) BPM)", nil)
        case let .once(pattern):
            guard producer != nil else { throw InputError("once is not run from a patterns file (the file is read again on every save): type it") }
            try PatternPlayer.checkDensity(pattern)
            lock.withLock { onces.append(pattern) }
            return ("once", nil)
        case let .mute(slot): return (lock.withLock { muted.insert(slot); return describeSilencing(slot) }, slot)
        case let .unmute(slot): return (lock.withLock { muted.remove(slot); return describeSilencing(slot) }, slot)
        case let .solo(slot): return (lock.withLock { soloed.insert(slot); return describeSilencing(slot) }, slot)
        case let .unsolo(slot): return (lock.withLock { soloed.remove(slot); return describeSilencing(slot) }, slot)
        case .unmuteAll: return (lock.withLock { muted.removeAll(); return "no slot is muted" + soloSummary }, nil)
        case .unsoloAll: return (lock.withLock { soloed.removeAll(); return "no slot is soloed" }, nil)
        case let .binding(name, value):
            lock.withLock { bindings[name] = value }
            return ("let \(name)", nil)
        case let .block(body, firstLine, margin):
            let statements = PatternFile.statements(in: body)
            // Where an error is in the whole statement: the body lost its margin.
            func placed(_ e: PatternError, _ at: Int) -> PatternError { PatternError(e.message, column: e.column + margin, line: e.line + at - 1) }
            // Every statement read first, as GHCi reads a `do` block: one error, nothing runs.
            var reading = language
            for statement in statements {
                let at = firstLine + statement.firstLine - 1
                do {
                    if case let .binding(name, value) = try reading.statement(statement.text) { reading.bindings[name] = value }
                } catch { throw placed(error, at) }
            }
            var said: [String] = []
            for statement in statements {
                let at = firstLine + statement.firstLine - 1
                do {
                    said.append(try carryOut(statement.text, source: source, line: line + at - 1, producer: producer, loops: loops).said)
                } catch let e as PatternError { throw placed(e, at) }
            }
            return (said.joined(separator: "; "), nil)
        case let .transition(slot, transition, pattern):
            try PatternPlayer.checkDensity(pattern)
            let (version, audit) = audited(pattern, slot: slot)
            let said = try transitionTo(pattern, in: slot, by: transition, text: text, source: source, line: line, version: version)
            return (noteSilence(PatternPlayer.answer(said, slot: slot, audit), slot: slot, audit), slot)
        }
    }

    /// Tidal's `mute`/`solo`: kept by slot name whatever plays in it (a slot defined again stays
    /// muted), through `hush`, until `unmute`/`unsolo`. They take effect from the next query:
    /// notes already posted (the 100 ms lookahead) still sound.
    // Thread: any (under the lock)
    func isSilenced(_ slot: String) -> Bool { muted.contains(slot) || (!soloed.isEmpty && !soloed.contains(slot)) }

    // Thread: any (under the lock)
    func describeSilencing(_ slot: String) -> String {
        let state = muted.contains(slot) ? "muted" : soloed.contains(slot) ? "soloed" : isSilenced(slot) ? "silent (other slots are soloed)" : "sounding"
        return "\(slot): \(state)" + (slots[slot] == nil ? " (nothing plays in it yet)" : "") + soloSummary
    }

    // Thread: any (under the lock)
    var soloSummary: String { soloed.isEmpty ? "" : "; soloed: " + soloed.sorted().joined(separator: ", ") }

    /// A tempo a patterns file asked for, sent by the next tick (the file has no producer).
    var pendingTempo: Double?

    /// `d1 silence`, `d1 $ silence`, `p "x" silence`: the slot ends at its next cycle.
    // Thread: any
    static func isSilence(_ text: String) -> Bool {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).filter { $0 != "$" }
        return words.last == "silence" && (words.count == 2 || (words.count == 3 && words.first == "p"))
    }

    // Thread: any
    static func checkDensity(_ pattern: Pattern<ControlMap>, from cycle: Int64 = 0, cycles: Int = 8, probes: Int = 3) throws(InputError) {
        let (density, exceeded) = Density.estimateWork(pattern, firstCycle: cycle, cycles: cycles, probes: probes)
        if exceeded { throw InputError(tooMuchWork) }
        guard density <= maximumDensity else {
            throw InputError("about \(density) events a cycle: a pattern plays at most \(maximumDensity) (is a `*` or `fast` too large?)")
        }
    }

    /// Why a pattern whose query walks more than `QueryBudget.stepsPerCycle` cycles is refused.
    static let tooMuchWork = "one cycle of it takes more than \(QueryBudget.stepsPerCycle) steps to work out, whatever it plays (is a `segment`, `fast` or `*` inside a control too large?)"

    /// The cycle boundary at or after where posting stopped: where a swap takes over.
    // Thread: any (under the lock)
    var nextBoundary: Time { postedUntil.map { $0 == $0.sam ? $0 : $0.nextSam } ?? .zero }

    /// Plays `pattern` in `slot` (again: swaps at the next cycle not yet posted).
    // Thread: any
    @discardableResult
    public func define(slot: String, pattern: Pattern<ControlMap>, text: String, source: String? = nil, line: Int = 1, endsAtSwap: Bool = false,
                       version: Int? = nil, restart: Bool = false, trigger: TriggerStart? = nil) throws(InputError) -> String {
        lock.lock()
        defer { lock.unlock() }
        // Where the pattern takes over, for its triggers: a swap at the next cycle not yet
        // posted; a new slot where posting stands (nothing before it is posted any more).
        var unset: TriggerStart?
        if let trigger {
            if slots[slot] != nil { trigger.set(nextBoundary) } else if let posted = postedUntil { trigger.set(posted) } else { unset = trigger }
        }
        func next() -> Int {
            if let version { return version }
            versions += 1
            return versions
        }
        if var s = slots[slot] {
            if s.text == text, s.pending == nil, s.source == source, !restart {
                s.line = line  // the same text moved in its file
                slots[slot] = s
                return "\(slot): unchanged"
            }
            s.pending = pattern
            s.pendingLine = line
            s.typed = pattern
            s.settle = nil
            s.pendingVersion = next()
            s.swapAt = nextBoundary
            s.endsAtSwap = endsAtSwap
            s.text = text
            s.source = source
            slots[slot] = s
            return "\(slot): \(endsAtSwap ? "stops" : "swaps") at cycle \(s.swapAt)"
        }
        if endsAtSwap { return "\(slot): not playing" }
        guard slots.count < PatternPlayer.maximumSlots else {
            throw InputError("\(slot): \(PatternPlayer.maximumSlots) patterns play already (d1 silence ends one)")
        }
        slots[slot] = Slot(pattern: pattern, text: text, source: source, line: line, pendingLine: line, version: next(), typed: pattern,
                           trigger: unset)
        return "\(slot): playing"
    }

    /// Ends every slot now (a hush); returns what it ended, for the hush's answer.
    // Thread: any
    @discardableResult
    public func hushAll() -> [String] {
        lock.withLock { () -> [String] in
            defer { slots = [:]; onces = []; stoppedSlots = [:]; playWarnings = [:]; generation += 1 }
            return slots.keys.sorted()
        }
    }

    /// Slots defined from `source` (a patterns file) that it no longer defines stop at their
    /// next cycle (and go away then: put back in the file, they play again).
    // Thread: any
    public func forget(source: String, keeping: Set<String>) -> [String] {
        lock.withLock {
            let gone = slots.filter { $0.value.source == source && !keeping.contains($0.key) && !$0.value.endsAtSwap }.map(\.key).sorted()
            for g in gone {
                slots[g]?.pending = .silence
                slots[g]?.swapAt = nextBoundary
                slots[g]?.endsAtSwap = true
                slots[g]?.text = ""
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
                let next = s.pending == nil ? "" : s.endsAtSwap ? ", stops at cycle \(s.swapAt)" : ", swaps at cycle \(s.swapAt)"
                let silent = muted.contains(k) ? " (muted)" : isSilenced(k) ? " (silent: others soloed)" : ""
                return "\(k)\(silent): \(s.events) events posted\(next) — \(text.prefix(60))"
            }
        }
    }

    // Thread: any
    public var names: [String] { lock.withLock { slots.keys.sorted() } }
}
