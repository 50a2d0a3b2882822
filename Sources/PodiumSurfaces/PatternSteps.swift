import PodiumPatterns
import PodiumRealtime

/// What the page lights up as it sounds: each note a pattern posted, by its command id, with
/// its slot, where the slot's text is (its source and first line) and the spans of the steps
/// that made it (`Event.context`, as Tidal's). The driver's applied reports say which notes the
/// audio thread started, and when (`takeStep`): the page lights what played, not a guess.
/// Kept only while someone watches (`watchSteps`), at most `maximumSteps` waiting.
extension PatternPlayer {
    public struct Step: Sendable, Equatable {
        public var slot: String
        public var source: String?
        public var line: Int
        public var spans: [SourceSpan]
    }

    static let maximumSteps = 4096

    /// Notes the scheduler posted, waiting for the audio thread to start them.
    // Thread: podium-loops
    func noteStep(_ id: UInt64, slot: String, line: Int, source: String?, spans: [SourceSpan]) {
        guard !spans.isEmpty else { return }
        lock.withLock {
            guard watching else { return }
            if steps.count >= PatternPlayer.maximumSteps { steps.removeAll(keepingCapacity: true) }
            steps[id] = Step(slot: slot, source: source, line: line, spans: spans)
        }
    }

    /// The step of a note the audio thread started (nil: not a pattern's, or not watched).
    // Thread: the driver's supervisor (applied reports)
    public func takeStep(_ id: UInt64) -> Step? {
        lock.withLock { steps.removeValue(forKey: id) }
    }

    /// A note the audio thread refused (`JackDriver.onRefused`: the voice limit or the DSP load
    /// guard): its slot's warning, for the page to mark the slot's line.
    // Thread: the driver's supervisor (applied reports)
    public func noteRefused(_ a: Applied) {
        guard a.kind == .noteRefused, let step = takeStep(a.id) else { return }
        notePlayWarning(a.command.value == 1
            ? "notes refused at the voice limit (1000 sounding)"
            : "notes refused by the DSP load guard (the callback was over --load-limit)", slot: step.slot)
    }
}

extension PatternPlayer {
    /// The events of every slot from cycle `from` for `cycles` cycles (the page's roll): onset,
    /// end (cycles) and a label (`s`, with `n` or `note`), at most `limit` a slot. Queried
    /// outside the lock (patterns are values).
    // Thread: any
    public func preview(from: Double, cycles: Int, limit: Int) -> [Preview] {
        let (playing, silent, warnings, stopped) = lock.withLock {
            (slots.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, silentSlots, playWarnings, stoppedSlots)
        }
        let start = Time(Int(from))
        return playing.map { name, slot in
            let events = slot.pattern.queryArc(start, start + Time(cycles)).filter(\.hasOnset).prefix(limit).map { e -> (Double, Double, String) in
                var label = e.value["s"]?.string ?? "?"
                if let n = e.value["n"]?.number ?? e.value["note"]?.number { label += ":" + (n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)) }
                return (e.wholeStart.double, e.wholeStop.double, label)
            }
            return Preview(slot: name, events: Array(events), silent: silent[name], warning: warnings[name], source: slot.source, line: slot.line)
        } + stopped.sorted { $0.key < $1.key }.map {
            Preview(slot: $0.key, events: [], silent: $0.value.message, warning: ($0.value.message, 1), source: $0.value.source, line: $0.value.line)
        }
    }

    /// A slot in the roll: its events, why it is silent, what went wrong while it played, and
    /// where its text is (the page marks that line).
    public struct Preview {
        public var slot: String
        public var events: [(start: Double, stop: Double, label: String)]
        public var silent: String?
        public var warning: (message: String, count: Int)?
        public var source: String?
        public var line: Int
    }
}
