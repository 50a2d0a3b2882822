/// One control input for the audio thread: plain data, fixed size, no references.
/// Every surface (REPL, OSC, MIDI, scripts) turns its input into these.
public struct Command: @unchecked Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        /// A score event: `pfields[0..<count]` (p1 may be fractional or negative).
        case event = 1
        /// Store `value` into the control channel at `channel`.
        case setControl
        /// Store `value` for exactly one k-cycle, then 0 (a momentary button).
        case momentary
        /// Store the `count` bytes held in `pfields` into the string channel whose reserved
        /// storage is `storage` (see `Engine.stringCapacity`).
        case setString
        /// An `f` statement (a function table): `pfields[0..<count]` as in a score, checked by
        /// `TableStatement.check`; the GEN routine runs on the audio thread.
        case table
        /// A change to the beat clock (`ClockChange` in `pfields`): tempo, beats per bar,
        /// position, running. Applied at a k-cycle boundary; the beat never jumps unless located.
        case clock
        /// Copy `pfields[2]` values of the table computed off the audio thread at `storage`
        /// (doubles), from index `pfields[1]`, into the same indices of table `pfields[0]`
        /// (`TableStaging`; `pfields[3]` tags it for the journal). The sender keeps `storage`
        /// alive until the callback has taken the slice.
        case tableFill
        /// Hush: every playing note released (with its release segment), every command waiting
        /// in the schedule dropped, all notes off on `midi_out` — in the k-cycle it applies in.
        case hush
    }

    /// When an event starts. `.frame`: at `frame` (0: the next k-cycle), p2 and p3 in seconds.
    /// Musical timing, with p2 and p3 in beats at the tempo when it starts (as a Csound score
    /// after `t`): `.beat` starts at beat `beat` + p2; `.grid` at the next multiple of `beat`
    /// beats (1: the next beat; the quantum: the next bar) + p2, the grid point found by the
    /// audio thread when it reads the command.
    public enum Timing: UInt8, Sendable, BitwiseCopyable {
        case frame = 0, beat, grid
    }

    /// 80: the sampler's notes with every SuperDirt effect take 69 (SamplerOrchestra.fields), a
    /// SuperDirt synth's 74.
    public static let maxPFields = 80

    public var kind: Kind
    /// The engine generation it was made for (set by the driver when posted); the audio
    /// thread drops commands for an engine it no longer runs (their channel pointers died with it).
    public var generation: UInt32 = 0
    /// Chosen by the producer; comes back in the `Applied` record.
    public var id: UInt64
    /// Absolute JACK frame at which to apply; 0 means the next k-cycle.
    public var frame: Int64
    /// A control channel pointer cached from the engine (setControl, momentary).
    public var channel: UnsafeMutablePointer<Double>?
    public var value: Double
    /// setString: the channel's storage and spin lock.
    public var storage: UnsafeMutableRawPointer? = nil
    public var lock: UnsafeMutablePointer<Int32>? = nil
    public var count: Int32
    public var pfields: InlineArray<80, Double>
    /// Musical timing (see `Timing`); `beat` is its beat or grid.
    public var timing: Timing = .frame
    public var beat: Double = 0

    public init(kind: Kind, id: UInt64 = 0, frame: Int64 = 0, channel: UnsafeMutablePointer<Double>? = nil,
                value: Double = 0, pfields: [Double] = []) {
        precondition(pfields.count <= Command.maxPFields, "at most \(Command.maxPFields) p-fields")
        self.kind = kind
        self.id = id
        self.frame = frame
        self.channel = channel
        self.value = value
        self.count = Int32(pfields.count)
        self.pfields = InlineArray(repeating: 0)
        for (i, p) in pfields.enumerated() { self.pfields[i] = p }
    }

    /// A blank record for the audio thread to read into (no arrays involved).
    // Thread: any
    public static var zero: Command {
        @_noLocks @_noAllocation get {
        Command(kind: .event, id: 0, frame: 0, channel: nil, value: 0, count: 0, pfields: InlineArray(repeating: 0))
        }
    }

    init(kind: Kind, id: UInt64, frame: Int64, channel: UnsafeMutablePointer<Double>?, value: Double, count: Int32,
         pfields: InlineArray<80, Double>) {
        self.kind = kind
        self.id = id
        self.frame = frame
        self.channel = channel
        self.value = value
        self.count = count
        self.pfields = pfields
    }

    public static func event(_ pfields: [Double], id: UInt64 = 0, frame: Int64 = 0) -> Command {
        Command(kind: .event, id: id, frame: frame, pfields: pfields)
    }

    /// A score event of p1 and then `fields` (p2, p3 …), written into the command's own storage.
    // Thread: any (a producer's)
    /// (Concrete, not generic over a collection: a surface's note calls it from another module,
    /// where a generic one runs unspecialized, through witness tables, for each p-field.)
    public static func event(p1: Double, _ fields: UnsafeBufferPointer<Double>, id: UInt64 = 0, frame: Int64 = 0) -> Command {
        precondition(fields.count < Command.maxPFields, "at most \(Command.maxPFields) p-fields")
        var c = Command(kind: .event, id: id, frame: frame, channel: nil, value: 0, count: Int32(fields.count + 1),
                        pfields: InlineArray(repeating: 0))
        c.pfields[0] = p1
        var i = 1
        for f in fields { c.pfields[i] = f; i += 1 }
        return c
    }

    /// Kind and timing tests the audio thread can make (a switch: no Equatable witness).
    var isEvent: Bool {
        @_noLocks @_noAllocation get { switch kind { case .event: return true; default: return false } }
    }
    var onGrid: Bool {
        @_noLocks @_noAllocation get { switch timing { case .grid: return true; default: return false } }
    }
    var onBeat: Bool {
        @_noLocks @_noAllocation get { switch timing { case .beat: return true; default: return false } }
    }

    /// The p-fields an event or table carries.
    public var fields: [Double] {
        (0..<Int(max(0, min(count, Int32(Command.maxPFields))))).map { pfields[$0] }
    }

    /// A change to the beat clock: each part that is not nil.
    public static func clock(tempo: Double? = nil, quantum: Double? = nil, locate beat: Double? = nil,
                             running: Bool? = nil, frame: Int64 = 0) -> Command {
        var c = Command(kind: .clock, frame: frame)
        c.count = 4
        c.pfields[0] = tempo ?? 0
        c.pfields[1] = quantum ?? 0
        c.pfields[2] = beat ?? -1
        c.pfields[3] = running.map { $0 ? 1 : 0 } ?? -1
        return c
    }

    /// A slice of a staged table's values for the audio thread to copy in (`TableStaging`).
    /// `tag` names the staged table for the journal (`Journal.staging`).
    public static func tableFill(table: Int32, values: UnsafeMutablePointer<Double>, offset: Int, count: Int, tag: Int) -> Command {
        var c = Command(kind: .tableFill)
        c.storage = UnsafeMutableRawPointer(values)
        c.count = 4
        c.pfields[0] = Double(table)
        c.pfields[1] = Double(offset)
        c.pfields[2] = Double(count)
        c.pfields[3] = Double(tag)
        return c
    }

    public static func set(_ channel: UnsafeMutablePointer<Double>, to value: Double, id: UInt64 = 0, frame: Int64 = 0) -> Command {
        Command(kind: .setControl, id: id, frame: frame, channel: channel, value: value)
    }
}

/// What the audio thread did, for the non-real-time side (logs, replies, sessions).
public struct Applied: Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        case command = 1      // a Command, by its id (`command` holds it as applied)
        case compileMerged    // an async compile merged; id = its marker
        case scoreRead        // async score text read; id = its marker
        case scheduleFull     // a future command was applied at once: the schedule was full
        case stale            // dropped: made for an engine that has since been replaced
        case midi             // a MIDI message given to Csound: `command.pfields` holds its bytes, `command.count` how many
        case tableRefused     // an f statement not applied: its table exists with another size (`command.value` holds that size)
        case clock            // the beat clock re-anchored at the start of `cycle`: `command.pfields` holds its `ClockState` (tempo, quantum, beat, running)
        case hush             // a hush applied before `cycle` (a command, or CC 123 on midi_in): `command.value` is the instrument bound it released
        case noteRefused      // a note not started: `command.value` 1 at the voice limit, 2 by the DSP load guard (at most RTLimits.refusalsReported a callback; all are counted)
    }
    public var kind: Kind
    public var id: UInt64
    /// The absolute k-cycle (count of csoundPerformKsmps calls) it took effect in.
    public var cycle: Int64
    /// The JACK frame at the start of that k-cycle.
    public var frame: Int64
    /// For `.command`: the command exactly as applied (an event's p2 includes its offset
    /// inside the k-cycle), so a session can replay it. Zero otherwise.
    public var command: Command

    // Thread: any
    @_noLocks @_noAllocation
    public init(kind: Kind, id: UInt64, cycle: Int64, frame: Int64, command: Command = .zero) {
        self.kind = kind
        self.id = id
        self.cycle = cycle
        self.frame = frame
        self.command = command
    }
}
