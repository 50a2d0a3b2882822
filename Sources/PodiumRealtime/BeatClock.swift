import PodiumEngine

/// The performance's musical time: tempo, beats per bar and the beat of every k-cycle.
///
/// Plain data the audio thread owns (`RTState.clock`); a session replay runs the same value.
/// The beat counts *performed* frames — the k-cycles Csound computed — not the wall clock, so
/// an xrun never makes it jump and a replay computes the same beats bit for bit: the beat at
/// the start of a k-cycle is `anchorBeat + cycles × beatsPerCycle`, re-anchored (continuously)
/// at every change of tempo, period or position. Each re-anchoring is reported to the journal
/// as its `state`, which a replay sets at the same k-cycle.
///
/// What re-anchors it: a `.clock` command (`:tempo`, `/podium/tempo`, scripts), a new engine
/// (another ksmps), JACK transport, Ableton Link, MIDI clock in; each is reported as a `clock`
/// line (tempo, quantum, beat, running; ClockCallback.swift). Per k-cycle the callback applies
/// due commands, then `publish` stores `podium.tempo/beat/bar/phase/quantum` (channels the
/// engine creates before start), then `csoundPerformKsmps`, then `advance()`. Once a period a
/// snapshot is published (a sequence lock the callback never waits on), read elsewhere as
/// `driver.clock` and `driver.beatNow`. Commands timed in beats: CommandSchedule.swift.
public struct BeatClock: Sendable, BitwiseCopyable, Equatable {
    /// Beats per minute.
    public private(set) var tempo: Double
    /// The clock's rate against its frames: 1, or the trim Ableton Link sets so that beats counted
    /// in frames keep pace with the session's host-time beats (the sound card's, or JACK's
    /// dummy driver's, frame rate against Link's clock: parts per million; LinkRate.swift).
    public private(set) var rate: Double = 1
    /// Beats per bar (Link's quantum; JACK's beats_per_bar).
    public private(set) var quantum: Double
    /// False while JACK transport (in follow mode) is stopped: the beat does not move.
    public private(set) var running: Bool
    public private(set) var anchorBeat: Double
    /// k-cycles performed since the anchor.
    public private(set) var cycles: Int64 = 0
    public private(set) var beatsPerCycle: Double
    public private(set) var ksmps: Int
    public private(set) var sampleRate: Double

    public static let defaultTempo = 120.0
    public static let defaultQuantum = 4.0

    // Thread: any
    @_noLocks @_noAllocation
    public init(tempo: Double = 120, quantum: Double = 4, beat: Double = 0, running: Bool = true, ksmps: Int = 64, sampleRate: Double = 48000) {
        self.tempo = tempo
        self.quantum = quantum
        self.running = running
        self.anchorBeat = beat
        self.ksmps = ksmps
        self.sampleRate = sampleRate
        self.beatsPerCycle = BeatClock.beatsPerCycle(tempo: tempo, ksmps: ksmps, sampleRate: sampleRate)
    }

    // Thread: any
    @_noLocks @_noAllocation @inline(__always)
    static func beatsPerCycle(tempo: Double, ksmps: Int, sampleRate: Double) -> Double {
        Double(ksmps) * tempo / (60 * sampleRate)
    }

    /// Rounding without Foundation or rounding-rule metadata. Beyond ±9e18 a double is already
    /// whole (and NaN stays NaN): it is returned as it is, never converted — a quotient such as
    /// beat / grid with a tiny grid (fuzzed OSC) trapped the audio thread in `Int64(x)`.
    // Thread: any
    @_noLocks @_noAllocation @inline(__always)
    static func floor(_ x: Double) -> Double {
        guard x > -9.0e18, x < 9.0e18 else { return x }
        let t = Double(Int64(x))
        return t > x ? t - 1 : t
    }

    // Thread: any
    @_noLocks @_noAllocation @inline(__always)
    static func ceil(_ x: Double) -> Double {
        guard x > -9.0e18, x < 9.0e18 else { return x }
        let t = Double(Int64(x))
        return t < x ? t + 1 : t
    }

    /// The beat at the start of the current k-cycle.
    public var beat: Double {
        @_noLocks @_noAllocation get { anchorBeat + Double(cycles) * beatsPerCycle }
    }

    /// Bars begun before the current k-cycle (0 during the first bar).
    public var bar: Double {
        @_noLocks @_noAllocation get { BeatClock.floor(beat / quantum) }
    }

    /// Beats into the current bar, 0 ≤ phase < quantum (Link's phase).
    public var phase: Double {
        @_noLocks @_noAllocation get { beat - bar * quantum }
    }

    /// Frames in one beat.
    public var framesPerBeat: Double {
        @_noLocks @_noAllocation get { 60 * sampleRate / (tempo * rate) }
    }

    /// One k-cycle performed.
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func advance() {
        if running { cycles += 1 }
    }

    /// Frames from the start of the current k-cycle to `target` (a beat), rounded up to a whole
    /// frame: the first frame at or after the beat. Negative when the beat has passed.
    // Thread: any
    @_noLocks @_noAllocation
    public func framesUntil(_ target: Double) -> Int64 {
        let exact = (target - beat) / beatsPerCycle * Double(ksmps)
        // A beat that lands a rounding error past a frame belongs to that frame. Clamped: a
        // beat ages away (or NaN) must not trap the conversion.
        guard exact > -9.0e18, exact < 9.0e18 else { return exact < 0 ? -Int64(9.0e18) : Int64(9.0e18) }
        return Int64(BeatClock.ceil(exact - 1e-6))
    }

    /// The first grid point at or after the current beat (`grid` beats apart, from beat 0).
    // Thread: any
    @_noLocks @_noAllocation
    public func nextGridBeat(_ grid: Double) -> Double {
        BeatClock.ceil(beat / grid - 1e-9) * grid
    }

    // MARK: changes (each re-anchors at the current beat: the beat never jumps)

    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    mutating func reanchor(at beat: Double) {
        anchorBeat = beat
        cycles = 0
        beatsPerCycle = BeatClock.beatsPerCycle(tempo: tempo * rate, ksmps: ksmps, sampleRate: sampleRate)
    }

    /// A new rate trim from the current k-cycle on (Ableton Link).
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func setRate(_ r: Double) {
        let now = beat
        rate = r
        reanchor(at: now)
    }

    /// A new tempo from the current k-cycle on.
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func setTempo(_ bpm: Double) {
        let now = beat
        tempo = bpm
        reanchor(at: now)
    }

    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func setQuantum(_ beats: Double) {
        let now = beat
        quantum = beats
        reanchor(at: now)
    }

    /// Moves to `target` (JACK transport relocation, a Link phase correction).
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func locate(_ target: Double) {
        reanchor(at: target)
    }

    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func setRunning(_ run: Bool) {
        let now = beat
        running = run
        reanchor(at: now)
    }

    /// A new engine's period and rate (the first one, or a rebuild at another ksmps).
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public mutating func configure(ksmps: Int, sampleRate: Double) {
        let now = beat
        self.ksmps = max(1, ksmps)
        self.sampleRate = sampleRate > 0 ? sampleRate : 48000
        reanchor(at: now)
    }

    // MARK: journal

    /// What the journal keeps of a re-anchoring: tempo, quantum, beat, running, rate.
    public var state: ClockState {
        @_noLocks @_noAllocation get { ClockState(tempo: tempo, quantum: quantum, beat: beat, running: running, rate: rate) }
    }

    /// Takes a journaled state at the start of a k-cycle (replay), exactly as the live clock
    /// re-anchored there.
    // Thread: the replayer
    public mutating func restore(_ s: ClockState) {
        tempo = s.tempo
        quantum = s.quantum
        running = s.running
        rate = s.rate
        reanchor(at: s.beat)
    }

    /// Tells Csound the time: the `podium.tempo`, `podium.beat`, `podium.bar`, `podium.phase`
    /// and `podium.quantum` channels, before the k-cycle is performed.
    // Thread: RT (or the replayer)
    @_noLocks @_noAllocation
    public func publish(_ channels: ClockChannels) {
        RTEngine.store(channels.tempo, tempo)
        RTEngine.store(channels.beat, beat)
        RTEngine.store(channels.bar, bar)
        RTEngine.store(channels.phase, phase)
        RTEngine.store(channels.quantum, quantum)
    }
}

/// A clock's journaled state (`<cycle> clock <tempo> <quantum> <beat> <running> [<rate>]`).
public struct ClockState: Sendable, BitwiseCopyable, Equatable {
    public var tempo: Double
    public var quantum: Double
    public var beat: Double
    public var running: Bool
    /// 1 unless Ableton Link trims the clock's rate (written to the journal only then).
    public var rate: Double

    // Thread: any
    @_noLocks @_noAllocation
    public init(tempo: Double, quantum: Double, beat: Double, running: Bool, rate: Double = 1) {
        self.tempo = tempo
        self.quantum = quantum
        self.beat = beat
        self.running = running
        self.rate = rate
    }
}
