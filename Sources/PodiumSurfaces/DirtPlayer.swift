import Foundation
import PodiumEngine
import PodiumHost
import PodiumPatterns
import PodiumRealtime
import PodiumSamples

/// SuperDirt's events (`/dirt/play` from TidalCycles) as notes, mapped as patterns' events are
/// (`PatternNotes`, `SampleNotes`), but stamped with a JACK frame (the bundle's timetag), not a
/// beat: p3 is in seconds.
///
///   - `s` names an instrument (by name or number) or, when the orchestra has none, a sample
///     (`n` picks the file). `s "superpanic"` (Tidal's `panic`) hushes everything.
///   - An instrument's p-fields are its declared names (`instr bass ; podium: freq amp cutoff`);
///     `cps`, `cycle` and `delta` come from the message, so an instrument can read Tidal's tempo.
///   - p3: `sustain` seconds, else `delta` × `legato` (Tidal sends `delta` with every event).
///   - Controls an instrument does not declare, unknown sounds and files still loading are
///     counted; each name is said once.
///   - A sample still loading waits (at most `maximumWaiting` events) and plays if its frame is
///     still ahead when the file is ready; otherwise it is counted late (`SampleStore`).
///
/// One thread uses it: the SuperDirt surface's.
public final class DirtPlayer: @unchecked Sendable {
    let driver: JackDriver
    let producer: CommandProducer
    public let samples: SampleStore?
    /// The live loops and patterns, which `superpanic` stops too.
    public var loops: LiveLoops?
    /// A problem, the first time its name comes (the caller prints it).
    public var onProblem: (@Sendable (String) -> Void)?

    /// What the player counted (read from any thread).
    public struct Stats: Sendable, Equatable {
        /// Events posted as notes: to instruments, to the sampler.
        public var instrumentNotes = 0, sampleNotes = 0
        /// Events naming neither an instrument nor a sample; events without `s`.
        public var unknownSounds = 0, withoutSound = 0
        /// Controls no p-field takes (each event counts each).
        public var unknownControls = 0
        /// Events that waited for their file; of them, those whose moment had passed.
        public var waitedForSample = 0, lateForSample = 0
        /// Events refused by the ring (full) or by the input checks.
        public var ringFull = 0, refused = 0
        /// `superpanic` events (each a hush).
        public var panics = 0
    }
    let statsLock = NSLock()
    var _stats = Stats()
    public var stats: Stats { statsLock.withLock { _stats } }
    func count(_ body: (inout Stats) -> Void) { statsLock.withLock { body(&_stats) } }

    var layouts: [String: [String]] = [:]
    var layoutsFrom = -1
    let layoutCache = LayoutCache()
    var said: Set<String> = []
    var fields: [Double] = []
    struct Waiting { var controls: ControlMap; var frame: Int64; var choice: SampleLibrary.Choice }
    var waiting: [Waiting] = []
    public static let maximumWaiting = 256

    // Thread: NRT (owner)
    public init(driver: JackDriver, producer: CommandProducer, samples: SampleStore?) {
        self.driver = driver
        self.producer = producer
        self.samples = samples
        fields.reserveCapacity(Command.maxPFields)
    }

    /// One event: its controls, and the frame it starts on (0: at once).
    // Thread: the surface's
    public func play(_ controls: ControlMap, frame: Int64) {
        guard let sound = PatternNotes.sound(controls["s"]) else {
            count { $0.withoutSound += 1 }
            return say("event without s", "an event without `s` was not played (Tidal names the sound with # s \"…\")")
        }
        if sound.name == "superpanic" { return panic() }
        let instrument: ScoreLine.Instrument = Double(sound.name).map { .number($0) } ?? .name(sound.name)
        if let p1 = driver.p1(for: instrument), p1 > 0 { return playInstrument(p1, key: sound.name, controls, frame: frame) }
        guard let samples else {
            count { $0.unknownSounds += 1 }
            return say("sound " + sound.name, "no instrument \"\(sound.name)\" in the orchestra (and no sample banks): its events are not played")
        }
        let n = controls["n"]?.number ?? 0
        let index = sound.index &+ (n.isFinite ? Int(flooring: n) : 0)
        let (lookup, choice) = samples.lookup(sound.name, index: index, bank: controls["bank"]?.string)
        switch lookup {
        case .unknown:
            count { $0.unknownSounds += 1 }
            say("sound " + sound.name, "no instrument \"\(sound.name)\" in the orchestra, and no sample of that name (:samples lists the banks' names)")
        case .failed:
            break  // said once by the store
        case .loading:
            count { $0.waitedForSample += 1 }
            if let choice, waiting.count < DirtPlayer.maximumWaiting {
                waiting.append(Waiting(controls: controls, frame: frame, choice: choice))
            } else if let choice {
                count { $0.lateForSample += 1 }
                samples.countLate(choice)
            }
        case let .ready(loaded):
            playSample(loaded, controls, frame: frame)
        }
    }

    /// Events whose file became ready: played if their frame is still ahead, else counted late.
    // Thread: the surface's
    public func playWaiting() {
        guard !waiting.isEmpty, let samples else { return }
        let now = driver.frame(secondsFromNow: 0) ?? 0
        var still: [Waiting] = []
        for w in waiting {
            let (lookup, _) = samples.lookup(w.choice.sound, index: w.choice.index, bank: w.choice.bank)
            switch lookup {
            case let .ready(loaded):
                if w.frame > now { playSample(loaded, w.controls, frame: w.frame) } else { late(w.choice) }
            case .loading:
                if w.frame > now { still.append(w) } else { late(w.choice) }
            case .failed, .unknown:
                break
            }
        }
        waiting = still
    }

    func late(_ choice: SampleLibrary.Choice) {
        count { $0.lateForSample += 1 }
        samples?.countLate(choice)
    }

    /// An event's tempo and length as Tidal sent them (its defaults when a client leaves them out).
    static func timing(_ c: ControlMap) -> (cps: Double, cycle: Double, delta: Double) {
        let cps = c["cps"]?.number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 0.5625
        let delta = c["delta"]?.number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? 1 / cps
        return (cps, c["cycle"]?.number ?? 0, delta)
    }

    // Thread: the surface's
    func playInstrument(_ p1: Double, key: String, _ c: ControlMap, frame: Int64) {
        let texts = driver.engine.orchestraTexts
        if texts.count != layoutsFrom {
            layoutsFrom = texts.count
            // Incrementally (LayoutCache): all texts read again after every compile — each
            // sample the sampler loads is one — took 200 ms of this thread with the sampler's
            // effects, and bundles waited past their timetags.
            layouts = layoutCache.layouts(for: texts)
        }
        let layout = PatternNotes.layout(key, in: layouts)
        let (cps, cycle, delta) = DirtPlayer.timing(c)
        let seconds = c["sustain"]?.number ?? delta * (c["legato"]?.number ?? 1)
        let unused = PatternNotes.fields(c, length: seconds, cycle: cycle, delta: delta, cps: cps, layout: layout, into: &fields)
            .filter { !DirtPlayer.protocolKeys.contains($0) }
        if !unused.isEmpty {
            count { $0.unknownControls += unused.count }
            let fresh = unsaid(unused.map { "control \(key) \($0)" }).map { String($0.dropFirst("control \(key) ".count)) }
            if !fresh.isEmpty {
                let names = DirtPlayer.listed(fresh)
                say("controls \(key) \(fresh)", "instrument \(key) has no parameter \(names) (declare it on its instr line: ; podium: \((layout + fresh.prefix(8)).joined(separator: " ")))")
            }
        }
        if post(p1, frame: frame) { count { $0.instrumentNotes += 1 } }
    }

    // Thread: the surface's
    func playSample(_ loaded: SampleStore.Loaded, _ c: ControlMap, frame: Int64) {
        guard let p1 = driver.samplerInstrument else {
            count { $0.unknownSounds += 1 }
            return say("no sampler", "the sampler's instruments are not in this performance (start it with sample banks)")
        }
        let (cps, _, delta) = DirtPlayer.timing(c)
        let unused = SampleNotes.fields(c, sample: (loaded.tables, loaded.frames, loaded.sampleRate, loaded.id),
                                        delta: delta, cps: cps, into: &fields)
            .filter { !DirtPlayer.protocolKeys.contains($0) }
        if !unused.isEmpty {
            count { $0.unknownControls += unused.count }
            let fresh = unsaid(unused.map { "control sampler \($0)" }).map { String($0.dropFirst("control sampler ".count)) }
            if !fresh.isEmpty { say("controls sampler \(fresh)", "the sampler has no control \(DirtPlayer.listed(fresh)) (SampleNotes lists the ones it reads)") }
        }
        guard fields.count > 1, fields[1] > 0 else { return }
        if post(p1, frame: frame) { count { $0.sampleNotes += 1 } }
    }

    /// The note in `fields` (p2 on) to the ring at `frame`; p3 is in seconds.
    // Thread: the surface's
    func post(_ p1: Double, frame: Int64) -> Bool {
        do {
            let posted = try fields.withUnsafeBufferPointer { f throws(InputError) in try producer.event(p1: p1, f, frame: frame) }
            if posted == nil {
                count { $0.ringFull += 1 }
                say("ring full", "the command ring is full: SuperDirt events dropped (counted)")
                return false
            }
            return true
        } catch {
            count { $0.refused += 1 }
            say("refused " + error.description, "a SuperDirt event was refused: \(error.description)")
            return false
        }
    }

    /// Tidal's `panic`: everything hushed, as `:hush` does.
    // Thread: the surface's
    func panic() {
        count { $0.panics += 1 }
        waiting.removeAll()
        do { _ = try Hush.perform(producer: producer, loops: loops) } catch { onProblem?("superpanic: \(error.description)") }
    }

    /// Keys of Tidal's that are no instrument's parameter: the slot, the sample's bank and
    /// unit, the MIDI channel, and `nudge` (already in the timetag).
    static let protocolKeys: Set<String> = ["_id_", "unit", "bank", "channel", "nudge"]

    /// A message the first time its key comes, its control characters escaped (a name sent
    /// with a newline prints `\n`, not a line of its own).
    func say(_ key: String, _ message: String) {
        if said.count >= 1024 { said.removeAll() }
        if said.insert(key).inserted { onProblem?("dirt: " + DirtPlayer.printable(message)) }
    }

    /// The keys not said yet, now counted as said: an event's unknown controls are named in
    /// one line (a message with 1,500 unknown keys printed 1,500 lines).
    func unsaid(_ keys: [String]) -> [String] {
        if said.count + keys.count >= 1024 { said.removeAll() }
        return keys.filter { said.insert($0).inserted }
    }

    /// `a`, `b` and `c`; past eight names, how many more.
    static func listed(_ names: [String]) -> String {
        let shown = names.prefix(8).map { "`\($0.prefix(40))`" }
        let more = names.count > 8 ? " and \(names.count - 8) more" : ""
        return shown.joined(separator: ", ") + more
    }

    /// `text` with control characters escaped (Swift's escapes: `\n`, `\u{1B}`).
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            if u.properties.generalCategory == .control { out += u.escaped(asASCII: true) } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
