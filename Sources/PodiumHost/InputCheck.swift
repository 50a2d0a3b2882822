import PodiumEngine
import PodiumRealtime

/// The one place that checks every number a surface (OSC, csound port, REPL, scripts, MIDI
/// maps, the web page to come) hands the engine. `CommandProducer` calls it for every command
/// it posts, so nothing reaches the audio thread unchecked; surfaces call it for what they
/// turn into frames or times themselves (timetags, `@SECONDS`). Errors say what was wrong in
/// words the sender can act on.
public enum InputCheck {
    /// Instrument numbers Csound takes (p1; negative turns a held note off).
    public static let instrumentLimit = 2_147_483_647.0
    /// How far ahead a note or table may be scheduled (p2), in seconds.
    public static let maximumStart = 3600.0
    /// The longest note (|p3|), in seconds; a negative p3 holds a note until it is turned off.
    public static let maximumDuration = 1_000_000.0
    /// The largest magnitude of any other p-field or channel value: beyond it, no orchestra
    /// computes anything audible, and integer conversions inside opcodes stop being defined.
    public static let maximumValue = 1e15
    /// How far ahead a timetag or script time may be, in seconds.
    public static let maximumAhead = 3600.0

    /// A finite number within ±limit.
    public static func number(_ v: Double, _ what: @autoclosure () -> String, limit: Double = maximumValue) throws(InputError) {
        guard v.isFinite else { throw InputError("\(what()) is \(describe(v)): only finite numbers are accepted") }
        guard abs(v) <= limit else { throw InputError("\(what()) is \(describe(v)): out of range (at most ±\(describe(limit)))") }
    }

    /// A note's p-fields: p1 an instrument number, p2 a start, p3 a duration, the rest finite.
    public static func note(_ p: [Double]) throws(InputError) {
        try note(count: p.count) { p[$0] }
    }

    /// A note's p-field count: from 1 (the instrument) to `Command.maxPFields`.
    public static func pFieldCount(_ n: Int) throws(InputError) {
        guard n >= 1 else { throw InputError("a note needs an instrument number") }
        guard n <= Command.maxPFields else { throw InputError("\(n) p-fields: at most \(Command.maxPFields)") }
    }

    /// A note's `count` p-fields, read in place (a command's own storage: no array is built).
    static func note(count: Int, _ p: (Int) -> Double) throws(InputError) {
        try pFieldCount(count)
        try instrument(p(0))
        if count > 1 { try start(p(1)) }
        if count > 2 { try number(p(2), "p3 (duration)", limit: maximumDuration) }
        for i in 3..<max(3, count) { try number(p(i), "p\(i + 1)") }
    }

    /// An instrument number (p1): finite, not zero, |p1| < 2^31.
    public static func instrument(_ v: Double) throws(InputError) {
        guard v.isFinite else { throw InputError("instrument \(describe(v)): an instrument number must be finite") }
        guard abs(v) >= 1, abs(v) < instrumentLimit else {
            throw InputError("instrument \(describe(v)): instrument numbers run from 1 to \(Int(instrumentLimit) - 1)")
        }
    }

    /// A start time (p2) in seconds from now.
    public static func start(_ v: Double) throws(InputError) {
        guard v.isFinite else { throw InputError("p2 (start) is \(describe(v)): only finite numbers are accepted") }
        guard v >= 0, v <= maximumStart else {
            throw InputError("p2 (start) is \(describe(v)): a start runs from 0 to \(describe(maximumStart)) seconds from now")
        }
    }

    /// A value for a control channel.
    public static func channelValue(_ v: Double, channel: String) throws(InputError) {
        try channelName(channel)
        try number(v, "the value for \(channel)")
    }

    /// Channels named `podium.…` are the host's own (merge markers, instrument numbers, the
    /// clock): the engine writes them, no surface may.
    public static func channelName(_ name: String) throws(InputError) {
        guard !name.hasPrefix("podium.") else {
            throw InputError("\(name) is one of Podium's own channels: it is set by the host, not by input")
        }
    }

    /// Seconds ahead of now (a timetag, a script's `@SECONDS`): finite, not beyond `maximumAhead`.
    public static func ahead(_ seconds: Double, _ what: @autoclosure () -> String) throws(InputError) {
        guard seconds.isFinite else { throw InputError("\(what()) is \(describe(seconds)): only finite times are accepted") }
        guard seconds <= maximumAhead else {
            throw InputError("\(what()) is \(describe(seconds)) s ahead: at most \(describe(maximumAhead)) s")
        }
    }

    /// A command as posted (the audio thread applies nothing this has not passed).
    public static func command(_ c: Command) throws(InputError) {
        switch c.kind {
        case .event:
            try note(count: Int(c.count)) { c.pfields[$0] }
        case .table:
            try TableStatement.check(c.fields)
        case .setControl, .momentary:
            try number(c.value, "a channel value")
        case .tableFill:
            // Made by the driver only (TableStaging), never from a surface's numbers.
            guard c.storage != nil, c.pfields[0] >= 1, c.pfields[0] < Double(Int32.max), c.pfields[1] >= 0,
                  c.pfields[2] >= 0, c.pfields[2] <= Double(TableStaging.sliceLength), c.pfields[1] < 1e12,
                  c.pfields[3] >= 0, c.pfields[3] < 1e15 else {
                throw InputError("a table slice out of range")
            }
        case .hush:
            break  // no numbers
        case .setString:
            guard c.count >= 0, Int(c.count) < Command.maxPFields * 8 else { throw InputError("a string of \(c.count) bytes does not fit a command") }
        case .clock:
            if c.pfields[0] != 0 { try tempo(c.pfields[0]) }
            if c.pfields[1] != 0 { try quantum(c.pfields[1]) }
            if c.pfields[2] != -1 { try beat(c.pfields[2], "the beat to move to") }
            guard [-1, 0, 1].contains(c.pfields[3]) else { throw InputError("the clock's running state is \(describe(c.pfields[3]))") }
        }
        guard c.frame >= 0 else { throw InputError("a negative frame (\(c.frame))") }
        switch c.timing {
        case .frame: break
        case .beat: try beat(c.beat, "the beat")
        case .grid: try grid(c.beat)
        }
        if c.timing != .frame, c.kind == .event, c.count > 1 { try beat(c.pfields[1], "p2 (start, in beats)") }
    }

    /// Tempo limits, in beats per minute.
    public static let tempoRange = 1.0...999.0
    /// The most beats per bar.
    public static let maximumQuantum = 64.0
    /// The longest grid or loop, in beats; the furthest beat a command may wait for.
    public static let maximumGrid = 1024.0
    public static let maximumBeat = 1e9

    /// A tempo in BPM: from 1 to 999.
    public static func tempo(_ v: Double) throws(InputError) {
        guard v.isFinite, tempoRange.contains(v) else {
            throw InputError("tempo \(describe(v)): a tempo runs from \(describe(tempoRange.lowerBound)) to \(describe(tempoRange.upperBound)) BPM")
        }
    }

    /// Beats per bar: a whole number from 1 to 64.
    public static func quantum(_ v: Double) throws(InputError) {
        guard v.isFinite, v >= 1, v <= maximumQuantum, v == v.rounded() else {
            throw InputError("\(describe(v)) beats per bar: a bar holds a whole number of beats from 1 to \(describe(maximumQuantum))")
        }
    }

    /// A quantization grid or a loop's length, in beats: more than 0, at most 1024.
    public static func grid(_ v: Double, _ what: String = "a grid") throws(InputError) {
        guard v.isFinite, v > 0, v <= maximumGrid else {
            throw InputError("\(what) of \(describe(v)) beats: it runs from more than 0 to \(describe(maximumGrid)) beats")
        }
    }

    /// A beat position or a start in beats: finite, not negative.
    public static func beat(_ v: Double, _ what: @autoclosure () -> String) throws(InputError) {
        guard v.isFinite, v >= 0, v <= maximumBeat else {
            throw InputError("\(what()) is \(describe(v)): beats count from 0")
        }
    }

    /// A number as a performer would write it.
    public static func describe(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v < 0 ? "-inf" : "inf" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return "\(v)"
    }
}

/// A score or input error, in words for the sender.
public struct InputError: Error, CustomStringConvertible, Equatable, Sendable {
    public enum Kind: Sendable { case invalid, unknownTarget, ringFull }
    public var description: String
    /// What went wrong, for the surfaces' counters: a bad value, an instrument or channel the
    /// orchestra lacks, or a full command ring.
    public var kind: Kind
    public init(_ description: String, kind: Kind = .invalid) {
        self.description = description
        self.kind = kind
    }
}

/// The checks an `f` statement (a function table) passes before Csound sees it (its cost and
/// limits are the callback's: `PodiumRealtime/TableCost.swift`).
extension TableStatement {
    /// GEN routines that take only numbers (a negative GEN number skips normalisation).
    /// GENs reading files (1, 23, 28, 49) or taking strings are not available from score text.
    public static let knownGENs: Set<Int> = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 19, 20, 21, 24, 25, 27, 30, 31, 32, 33, 34, 40, 41, 42, 51, 52]

    /// The most work one f statement from score text may give the audio thread, in point-steps
    /// (`cost`): about 1.3 ms at the 20 ns a point-step took here (GEN 10, one partial).
    public static var maximumCost: Double { 65_536 }
    static var nanosecondsPerUnit: Double { 20 }

    /// The largest table score text may build off the audio thread (`TableStaging`: a GEN
    /// routine that computes, applied now): 2^20 points and a guard point.
    public static var maximumStagedSize: Double { Double(1 << 20) + 1 }

    /// p1 table number, p2 start, p3 size, p4 GEN, p5… the GEN's arguments. With `staged`, the
    /// limits of a table built off the audio thread when it can be (a computing GEN routine, at
    /// least `TableStaging.minimumLength` points): larger, and no bound on the work.
    public static func check(_ p: [Double], staged: Bool = false) throws(InputError) {
        // (A GEN number is looked up only when it is a small whole number: no conversion can trap.)
        let offThread = staged && p.count >= 4 && abs(p[3]) < 1000 && p[3] == p[3].rounded()
            && TableStaging.computingGens.contains(Int(abs(p[3]))) && p[2] >= Double(TableStaging.minimumLength)
        let maximumSize = offThread ? maximumStagedSize : self.maximumSize
        guard p.count >= 4 else { throw InputError("an f statement needs a table number, a start, a size and a GEN routine (f 1 0 1024 10 1)") }
        guard p.count <= Command.maxPFields else { throw InputError("f statement with \(p.count) fields: at most \(Command.maxPFields)") }
        guard p[0].isFinite, p[0] == p[0].rounded(), p[0] >= 1, p[0] <= maximumNumber else {
            throw InputError("table number \(InputCheck.describe(p[0])): a whole number from 1 to \(Int(maximumNumber)) (deleting tables from score text is not supported)")
        }
        try InputCheck.start(p[1])
        guard p[2].isFinite, p[2] == p[2].rounded(), p[2] >= 1, p[2] <= maximumSize else {
            throw InputError("table size \(InputCheck.describe(p[2])): a whole number from 1 to \(Int(maximumSize))\(offThread ? "" : " for this GEN routine, now or timed") (larger tables: ftgen in the orchestra)")
        }
        guard p[3].isFinite, p[3] == p[3].rounded(), abs(p[3]) < 1000, knownGENs.contains(Int(abs(p[3]))) else {
            throw InputError("GEN \(InputCheck.describe(p[3])): not a GEN routine score text may use (known: \(knownGENs.sorted().map(String.init).joined(separator: ", ")))")
        }
        let work = cost(gen: p[3], size: p[2], arguments: p.count - 4)
        guard offThread || work <= maximumCost else {
            throw InputError("f \(InputCheck.describe(p[0])): \(InputCheck.describe(p[2])) points of GEN \(InputCheck.describe(abs(p[3]))) would hold the audio thread "
                + "for about \(Int((work * nanosecondsPerUnit / 1e6).rounded(.up))) ms; score text builds at most \(Int(maximumCost)) point-steps a table "
                + "(fewer points or partials; larger tables: ftgen in the orchestra)")
        }
        for i in p.indices.dropFirst(4) { try InputCheck.number(p[i], "p\(i + 1) of the f statement") }
    }
}
