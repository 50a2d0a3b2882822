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
