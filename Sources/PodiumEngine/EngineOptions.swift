/// How to configure a Csound instance before it compiles anything.
public struct EngineOptions: Sendable, Equatable {
    /// Overrides the orchestra's `sr` (a driver forces JACK's rate here).
    public var sampleRate: Int?
    /// Overrides the orchestra's `ksmps`.
    public var ksmps: Int?
    /// Overrides the orchestra's `nchnls`.
    public var nchnls: Int?
    /// `--realtime`: csoundPerformKsmps skips the API lock; compiles merge on the audio thread.
    public var realtime: Bool
    /// `--sample-accurate`: score events start at their exact frame inside a k-cycle.
    public var sampleAccurate: Bool
    /// Fixed seed for Csound's global random generators (`seed N`), for repeatable output.
    public var seed: UInt32?
    /// MIDI input from the host (the JACK driver's MIDI port, a session's log): `-M0` with
    /// host-implemented MIDI, so massign and MIDI-activated instruments work.
    public var midiInput = false
    /// MIDI output to the host (`-Q0` with host-implemented MIDI): the orchestra's MIDI
    /// opcodes reach `MIDIOutput` (the JACK driver's `midi_out`, a replay's MIDI file).
    public var midiOutput = false
    /// The sampler's instruments (`SamplerOrchestra`) compiled after the orchestra: a
    /// performance with sample banks.
    public var sampler = false
    /// Any other Csound flags, passed as given (e.g. "-m0").
    public var extra: [String]

    public init(sampleRate: Int? = nil, ksmps: Int? = nil, nchnls: Int? = nil, realtime: Bool = false,
                sampleAccurate: Bool = false, seed: UInt32? = nil, extra: [String] = []) {
        self.sampleRate = sampleRate
        self.ksmps = ksmps
        self.nchnls = nchnls
        self.realtime = realtime
        self.sampleAccurate = sampleAccurate
        self.seed = seed
        self.extra = extra
    }

    /// Csound 6.18 accepts nearly any override (sr = 1 renders nothing, silently):
    /// refuse what no performance can mean.
    public func validate() throws {
        if let sampleRate, !(EngineOptions.sampleRates).contains(sampleRate) {
            throw EngineError.badOption("sr \(sampleRate)", reason: "out of range (\(EngineOptions.sampleRates.lowerBound)–\(EngineOptions.sampleRates.upperBound) Hz)")
        }
        if let ksmps, !(1...EngineOptions.maxKsmps).contains(ksmps) {
            throw EngineError.badOption("ksmps \(ksmps)", reason: "out of range (1–\(EngineOptions.maxKsmps))")
        }
        if let ksmps, let sampleRate, ksmps > sampleRate {
            throw EngineError.badOption("ksmps \(ksmps)", reason: "larger than sr \(sampleRate)")
        }
        if let nchnls, !(1...256).contains(nchnls) {
            throw EngineError.badOption("nchnls \(nchnls)", reason: "out of range (1–256)")
        }
    }

    public static let sampleRates = 1000...768_000
    public static let maxKsmps = 8192

    /// The flags handed to csoundSetOption, in order.
    var csoundFlags: [String] {
        var flags = ["-d"]  // no graphics
        if let sampleRate { flags.append("--sample-rate=\(sampleRate)") }
        if let ksmps { flags.append("--ksmps=\(ksmps)") }
        if let nchnls { flags.append("--nchnls=\(nchnls)") }
        if realtime { flags.append("--realtime") }
        if sampleAccurate { flags.append("--sample-accurate") }
        return flags + extra
    }
}

/// What an engine compiles at start.
public enum EngineSource: Sendable, Equatable {
    /// A `.csd` file (its `<CsOptions>` apply, as with the csound CLI).
    case csd(path: String)
    /// An orchestra file, with an optional score file.
    case orchestra(path: String, score: String?)
    /// Orchestra text, with optional score text.
    case text(orchestra: String, score: String?, name: String)

    public var displayName: String {
        switch self {
        case let .csd(path), let .orchestra(path, _): return path
        case let .text(_, _, name): return name
        }
    }
}
