import CThreads
import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumRealtime

// The pattern player's scheduling, on the live loops' thread (`podium-loops`): which arc to
// query, the queries (outside the lock: patterns are values), and each onset as a note.
extension PatternPlayer {
    /// What one tick works from, taken under the lock.
    struct Plan {
        var from: Time
        var horizon: Time
        var generation: Int
        /// `version`: which definition of the slot the arc plays (its problems are said once each).
        var arcs: [(slot: String, version: Int, pattern: Pattern<ControlMap>, from: Time, to: Time, line: Int, source: String?)] = []
        var onces: [Pattern<ControlMap>] = []
        var newCycle = false
    }

    /// Posts every onset between where posting stopped and `horizonBeat`.
    // Thread: podium-loops
    func tick(producer: CommandProducer, nowBeat: Double, horizonBeat: Double, clock: ClockSnapshot) {
        let tickNs = podium_now_ns()
        tickGapMs = lastTickNs == 0 ? 0 : Double(tickNs &- lastTickNs) / 1e6
        lastTickNs = tickNs
        let cpuStart = PatternPlayer.threadCPU()
        defer { let spent = PatternPlayer.threadCPU() - cpuStart; lock.withLock { cpuSeconds += spent } }
        let quantum = max(clock.quantum, 1e-9)
        // Tidal's `_cps` controller (`sec`, `msec`): cycles a second now.
        controllers.set("_cps", .double(clock.tempo / 60 / quantum))
        if let tempo = lock.withLock({ () -> Double? in defer { pendingTempo = nil }; return pendingTempo }) {
            do { if try producer.clock(tempo: tempo) == nil { onProblem?("the command ring is full: setcps not sent") } } catch { onProblem?(error.description) }
        }
        // A beat that went back, or a new number of beats a bar, is a relocation; so is a clock
        // that ran past what was posted (a stall): posting starts again at the horizon.
        let relocated = nowBeat < lastBeat - 1e-9 || quantum != lastQuantum
        lastBeat = nowBeat
        lastQuantum = quantum
        if !waiting.isEmpty { postWaiting(producer: producer, nowBeat: nowBeat, tempo: clock.tempo, quantum: quantum) }
        guard var plan = plan(now: Time(nowBeat / quantum), horizon: Time(horizonBeat / quantum), relocated: relocated,
                              tempo: clock.tempo, quantum: quantum) else { return }
        var problems: [String] = []
        // A cycle not checked yet: a pattern that gets dense only there (`whenmod 16 8 (fast 1e8)`)
        // is stopped before its query builds it.
        if plan.newCycle {
            let cycle = plan.horizon.floorInt
            for slot in Set(plan.arcs.map(\.slot)) {
                guard let arc = plan.arcs.last(where: { $0.slot == slot }) else { continue }
                do { try PatternPlayer.checkDensity(arc.pattern, from: cycle, cycles: 1, probes: 1) } catch {
                    problems.append("\(slot): stopped at cycle \(cycle): \(error.description)")
                    plan.arcs.removeAll { $0.slot == slot }
                    stop(slot, because: "stopped at cycle \(cycle): \(error.description)")
                }
            }
        }
        var posted = 0, counts: [String: Int] = [:]
        func postAll(_ events: [Event<ControlMap>], slot: String, version: Int, origin: (line: Int, source: String?)? = nil) {
            for e in events.sorted(by: { $0.wholeStart < $1.wholeStart }) {
                if posted >= PatternPlayer.maximumEventsPerTick {
                    problems.append(once(version, "\(slot): more than \(PatternPlayer.maximumEventsPerTick) events in \(Int(PatternPlayer.chunkSeconds * 1000)) ms; the rest were dropped"))
                    return
                }
                let (sent, problem, id) = post(e, slot: slot, version: version, producer: producer, quantum: quantum, tempo: clock.tempo)
                if let id, let origin { noteStep(id, slot: slot, line: origin.line, source: origin.source, spans: e.context) }
                if let problem { problems.append(problem) }
                posted += 1
                if sent { counts[slot, default: 0] += 1 }
            }
        }
        for arc in plan.arcs {
            let cycles = max(1, Int((arc.to - arc.from).double.rounded(.up)))
            let (queried, exceeded) = QueryBudget.limited(to: QueryBudget.stepsPerCycle * cycles) { arc.pattern.queryArc(arc.from, arc.to) }
            if exceeded {
                problems.append("\(arc.slot): stopped at cycle \(arc.from.floorInt): \(PatternPlayer.tooMuchWork)")
                stop(arc.slot, version: arc.version, because: "stopped at cycle \(arc.from.floorInt): \(PatternPlayer.tooMuchWork)")
                continue
            }
            let events = queried.filter(\.hasOnset)
            // A hush since the plan: nothing more from it.
            if lock.withLock({ generation }) != plan.generation { break }
            postAll(events, slot: arc.slot, version: arc.version, origin: (arc.line, arc.source))
        }
        for pattern in plan.onces where lock.withLock({ generation }) == plan.generation {
            // `once`: the pattern's first cycle, played from the horizon.
            let shifted = pattern.queryArc(0, 1).filter(\.hasOnset).map { e -> Event<ControlMap> in
                var s = e
                s.whole = e.whole.map { $0.withTime { $0 + plan.horizon } }
                s.part = e.part.withTime { $0 + plan.horizon }
                return s
            }
            postAll(shifted, slot: "once", version: 0)
        }
        lock.withLock { for (k, n) in counts { slots[k]?.events += n } }
        for p in problems where !p.isEmpty { notePlayWarning(p); onProblem?(p) }
    }

    /// The arcs to query now, with swaps and ended slots settled; nil when there is nothing to
    /// query yet (nothing plays, or less than `chunkSeconds` of music since the last query).
    // Thread: podium-loops
    func plan(now: Time, horizon: Time, relocated: Bool, tempo: Double, quantum: Double) -> Plan? {
        var stall: String?
        defer { if let stall { onProblem?(stall) } }
        return lock.withLock { () -> Plan? in
            guard !slots.isEmpty || !onces.isEmpty else { postedUntil = nil; return nil }
            var from = postedUntil ?? horizon
            // Slots defined while nothing was posted take over here: their triggers count from it.
            if postedUntil == nil { for k in slots.keys { slots[k]!.trigger?.set(from); slots[k]!.trigger = nil } }
            if !relocated, from < now {
                stallCount += 1
                if stallSaidAt.map({ Date().timeIntervalSince($0) >= 10 }) ?? true {
                    stallSaidAt = Date()
                    let ms = Int(((now - from).double * quantum * 60 / max(tempo, 1e-9) * 1000).rounded())
                    let cause = tickGapMs > 100 ? "its thread waited \(Int(tickGapMs.rounded())) ms for a core: the machine was busy"
                                                : "the clock ran ahead; its previous tick was \(Int(tickGapMs.rounded())) ms before"
                    stall = "patterns: the music passed what the scheduler had sent by \(ms) ms (\(cause)): the notes in between were skipped (\(stallCount) such stall\(stallCount == 1 ? "" : "s") so far)"
                }
            }
            if relocated || from < now {
                from = horizon
                // A swap waiting in the old timeline takes over from here.
                for k in slots.keys where slots[k]!.pending != nil { slots[k]!.swapAt = min(slots[k]!.swapAt, from) }
            }
            // A tempo that dropped shortens the horizon: wait until the music reaches what was posted.
            guard from < horizon else { postedUntil = from; return nil }
            // Queried in chunks of at least 20 ms of music (notes still go out 80 ms or more
            // ahead): each query has a cost of its own, and 5 ms slivers multiplied it by four.
            let secondsAhead = (horizon - from).double * quantum * 60 / max(tempo, 1e-9)
            guard secondsAhead >= PatternPlayer.chunkSeconds || !onces.isEmpty else { postedUntil = from; return nil }
            var plan = Plan(from: from, horizon: horizon, generation: generation)
            for name in slots.keys.sorted() {
                guard var slot = slots[name] else { continue }
                // A transition that is over plays on without the old pattern, from its end.
                if slot.pending == nil, let settle = slot.settle, settle.at < horizon {
                    slot.pending = settle.pattern
                    slot.swapAt = settle.at
                    slot.pendingVersion = slot.version
                    slot.pendingLine = slot.line
                    slot.endsAtSwap = false
                    slot.settle = nil
                }
                if let pending = slot.pending, slot.swapAt < horizon {
                    if from < slot.swapAt { plan.arcs.append((name, slot.version, slot.pattern, from, slot.swapAt, slot.line, slot.source)) }
                    if slot.endsAtSwap {
                        slots[name] = nil
                        continue
                    }
                    slot.version = slot.pendingVersion
                    slot.line = slot.pendingLine
                    plan.arcs.append((name, slot.version, pending, max(from, slot.swapAt), horizon, slot.line, slot.source))
                    slot.pattern = pending
                    slot.pending = nil
                } else {
                    plan.arcs.append((name, slot.version, slot.pattern, from, horizon, slot.line, slot.source))
                }
                slots[name] = slot
            }
            // Muted slots, and slots not soloed while any is, keep their time and sound nothing.
            plan.arcs.removeAll { isSilenced($0.slot) }
            plan.onces = onces
            onces = []
            if horizon.floorInt != checkedCycle {
                checkedCycle = horizon.floorInt
                plan.newCycle = true
            }
            postedUntil = horizon
            return plan
        }
    }

    // Thread: any
    static func threadCPU() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// A message the first time a definition (`version`) of its slot meets it, "" after.
    // Thread: any
    /// Ends a slot that cannot play on (of `version`, when given), keeping why for the roll.
    // Thread: podium-loops
    func stop(_ slot: String, version: Int? = nil, because message: String) {
        lock.withLock {
            guard let s = slots[slot], version == nil || s.version == version else { return }
            stoppedSlots[slot] = (message, s.line, s.source)
            slots[slot] = nil
        }
    }

    /// A problem met while playing ("d1: …"): kept as the slot's latest warning for the page.
    // Thread: any
    func notePlayWarning(_ problem: String, slot named: String? = nil) {
        let slot = named ?? problem.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let message = named == nil ? String(problem.dropFirst(slot.count)).trimmingCharacters(in: CharacterSet(charactersIn: ": ")) : problem
        lock.withLock {
            guard slots[slot] != nil else { return }
            playWarnings[slot] = (message, (playWarnings[slot]?.count ?? 0) + 1)
        }
    }

    func once(_ version: Int, _ message: String) -> String {
        lock.withLock {
            if reported.count >= 256 { reported.removeAll() }
            return reported.insert("\(version) \(message)").inserted ? message : ""
        }
    }

    /// The declared layouts of every instrument compiled so far; undeclared instruments get
    /// `freq amp`, as far as they read p-fields (no warning per note).
    // Thread: podium-loops
    func refreshLayouts() {
        let texts = driver.engine.orchestraTexts
        guard texts.count != layoutsFrom else { return }
        layoutsFrom = texts.count
        layouts = layoutCache.layouts(for: texts)
    }

    /// One event as a note: whether it went into the ring, and a problem's message (once per
    /// name; "" when already said), or nil.
    // Thread: podium-loops
    func post(_ e: Event<ControlMap>, slot: String, version: Int, producer: CommandProducer, quantum: Double, tempo: Double) -> (sent: Bool, problem: String?, id: UInt64?) {
        guard let sound = PatternNotes.sound(e.value["s"]) else {
            return (false, once(version, "\(slot): an event without `s` (name an instrument: # s \"bass\")"), nil)
        }
        let instrument: ScoreLine.Instrument = Double(sound.name).map { .number($0) } ?? .name(sound.name)
        guard let p1 = driver.p1(for: instrument), p1 > 0 else {
            if let samples { return postSample(e, sound: sound, samples: samples, slot: slot, version: version, producer: producer, quantum: quantum, tempo: tempo) }
            return (false, once(version, "\(slot): no instrument \"\(sound.name)\" in the orchestra"), nil)
        }
        let key = sound.name
        let layout = layouts[key] ?? layouts["undeclared:" + key] ?? PatternNotes.undeclaredLayout
        let unused = PatternNotes.fields(e, layout: layout, tempo: tempo, quantum: quantum, into: &fieldBuffer)
        let beat = e.wholeStart.double * quantum
        var problem: String?
        if let extra = unused.first {
            problem = once(version, "\(slot): instrument \(key) has no parameter `\(extra)` (declare it on its instr line: ; podium: \((layout + [extra]).joined(separator: " ")))")
        }
        do {
            let posted = try fieldBuffer.withUnsafeBufferPointer { f throws(InputError) in
                try producer.event(p1: p1, f, quantize: .beat(beat))
            }
            if posted == nil { return (false, once(version, "\(slot): the command ring is full: notes not played"), nil) }
            return (true, problem, posted)
        } catch {
            return (false, once(version, "\(slot): \(error.description)"), nil)
        }
    }
}
