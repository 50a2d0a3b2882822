import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns

// What a definition will not sound, said in its answer when it is typed (on the page, at the
// REPL, over OSC) instead of only on the terminal once its notes come: sounds no instrument or
// sample has, controls no instrument takes. A definition none of whose events can sound answers
// "silent", not "playing". Each message is registered for the definition's version (`once`), so
// the notes, when they come, do not say it again.
extension PatternPlayer {
    /// Cycles of a new definition looked at, and at most this many events of them.
    static let auditCycles = 4
    static let auditEvents = 2048

    /// The problems of `pattern`'s next cycles, as posting would say them; `silent` when it has
    /// events and none of them names anything that sounds. Samples it names start loading.
    // Thread: any (a surface's; not the scheduler's state)
    func audit(_ pattern: Pattern<ControlMap>, slot: String, version: Int, from cycle: Time) -> (problems: [String], silent: Bool) {
        let (events, _) = QueryBudget.limited(to: QueryBudget.stepsPerCycle * PatternPlayer.auditCycles) { () -> [Event<ControlMap>] in
            var found: [Event<ControlMap>] = []
            for c in 0..<PatternPlayer.auditCycles where found.count < PatternPlayer.auditEvents {
                let start = cycle + Time(Int64(c))
                found += pattern.queryArc(start, start + Time(1)).filter(\.hasOnset).prefix(PatternPlayer.auditEvents - found.count)
            }
            return found
        }
        guard !events.isEmpty else { return ([], false) }
        let layouts = layoutCache.layouts(for: driver.engine.orchestraTexts)
        let clock = driver.clock
        var buffer: [Double] = []
        var problems: [String] = [], said: Set<String> = [], sounding = false
        func say(_ message: String) {
            guard said.insert(message).inserted else { return }
            if !once(version, message).isEmpty { problems.append(message) }
        }
        for e in events {
            guard let sound = PatternNotes.sound(e.value["s"]) else {
                say("\(slot): an event without `s` (name an instrument: # s \"bass\")")
                continue
            }
            let instrument: ScoreLine.Instrument = Double(sound.name).map { .number($0) } ?? .name(sound.name)
            if let p1 = driver.p1(for: instrument), p1 > 0 {
                sounding = true
                let layout = layouts[sound.name] ?? layouts["undeclared:" + sound.name] ?? PatternNotes.undeclaredLayout
                let unused = PatternNotes.fields(e, layout: layout, tempo: clock.tempo, quantum: max(clock.quantum, 1e-9), into: &buffer)
                if let extra = unused.first {
                    say("\(slot): instrument \(sound.name) has no parameter `\(extra)` (declare it on its instr line: ; podium: \((layout + [extra]).joined(separator: " ")))")
                }
            } else if let samples {
                let n = e.value["n"]?.number ?? 0
                let index = sound.index &+ (n.isFinite ? Int(flooring: n) : 0)
                switch samples.lookup(sound.name, index: index, bank: e.value["bank"]?.string).0 {
                case .unknown:
                    say("\(slot): no instrument \"\(sound.name)\" in the orchestra, and no sample of that name (:samples lists the banks' names)")
                case .failed: break
                case .loading, .ready: sounding = true
                }
            } else {
                say("\(slot): no instrument \"\(sound.name)\" in the orchestra")
            }
        }
        return (problems, !sounding)
    }
}

extension PatternPlayer {
    /// A version for a definition about to be made, and its audit: made before the slot takes
    /// it, so that the scheduler, posting its first notes, finds its problems already said.
    // Thread: any
    func audited(_ pattern: Pattern<ControlMap>, slot: String) -> (version: Int, audit: (problems: [String], silent: Bool)) {
        let quantum = max(driver.clock.quantum, 1e-9)
        let now = Time(driver.beatNow / quantum)
        let (version, from) = lock.withLock { () -> (Int, Time) in
            versions += 1
            return (versions, slots[slot] == nil ? now.sam : max(nextBoundary, now.sam))
        }
        return (version, audit(pattern, slot: slot, version: version, from: from))
    }

    /// Keeps (or forgets) why a slot's new definition plays nothing, for the roll; returns `answer`.
    // Thread: any
    func noteSilence(_ answer: String, slot: String, _ audit: (problems: [String], silent: Bool)) -> String {
        let prefix = "\(slot): silent — "
        lock.withLock {
            silentSlots[slot] = audit.silent && answer.hasPrefix(prefix) ? String(answer.dropFirst(prefix.count)) : nil
            playWarnings[slot] = nil
            stoppedSlots[slot] = nil
        }
        return answer
    }

    /// `define`'s answer with what the new definition will not sound: "d6: silent — no
    /// instrument …" when nothing of it sounds, "d1: playing — instrument pluck has no parameter
    /// `vowel` …" when part of it does not. An unchanged slot's answer stays as it is.
    // Thread: any
    static func answer(_ said: String, slot: String, _ audit: (problems: [String], silent: Bool)) -> String {
        guard !said.hasSuffix(": unchanged") else { return said }
        let reasons = audit.problems.map { $0.hasPrefix(slot + ": ") ? String($0.dropFirst(slot.count + 2)) : $0 }
        if audit.silent {
            return "\(slot): silent — " + (reasons.isEmpty ? "none of its sounds can play" : reasons.joined(separator: "; "))
        }
        return reasons.isEmpty ? said : said + " — " + reasons.joined(separator: "; ")
    }
}
