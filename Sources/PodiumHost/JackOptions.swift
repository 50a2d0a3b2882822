import Foundation
import PodiumEngine
import PodiumRealtime

/// How to meet JACK.
public struct JackOptions: Sendable {
    public var clientName = "podium"
    /// When the client name is taken, take the unique one JACK gives (NAME-01 …: a second
    /// performance on the same server with the default name); false: the name or an error.
    public var renameIfTaken = false
    /// The JACK server's name; nil: $JACK_DEFAULT_SERVER or "default".
    public var serverName: String?
    /// Connect our ports to the physical ports.
    public var connect = true
    /// A divisor of the period; nil: ksmps = the period.
    public var ksmps: Int?
    /// Seconds between attempts to reach a server that went away.
    public var reconnectInterval = 0.5
    /// The output safety limit, as an amplitude (1: 0 dBFS); nil: no clipping. Non-finite
    /// output is silenced either way (see `OutputGuard`).
    public var outputLimit: Double? = 1
    /// The DSP load guard's limit, a fraction of the period (see `LoadGuard`); nil: no guard.
    public var loadLimit: Double? = LoadGuard.defaultLimit
    /// Build big tables of live code's global code off the audio thread (`TableStaging`);
    /// false: Csound builds them when the compile merges, on the audio thread (for comparisons).
    public var stageTables = true
    /// The beat clock's first tempo (BPM) and beats per bar.
    public var tempo = BeatClock.defaultTempo
    public var quantum = BeatClock.defaultQuantum
    /// JACK transport: off, timebase master, or follower.
    public var transport = TransportMode.off
    /// MIDI clock on midi_out (`out`) or from midi_in (`in`).
    public var midiClock = MIDIClockMode.off
    /// What checking one compile may cost (the check child's limits, the table budget).
    public var compileLimits = CompileLimits()

    // Thread: any
    public init(clientName: String = "podium", serverName: String? = nil, connect: Bool = true, ksmps: Int? = nil,
                outputLimit: Double? = 1) {
        self.outputLimit = outputLimit
        self.clientName = clientName
        self.serverName = serverName
        self.connect = connect
        self.ksmps = ksmps
    }
}

/// The numbers a session records about the engine.
public struct SessionFacts: Sendable {
    public var sampleRate: Int
    public var ksmps: Int
    public var outputs: Int
    public var inputs: Int
    public var seed: UInt32?
    /// The k-cycle the audio thread is on.
    public var cycle: Int64
    /// Input control channels and their values now.
    public var channels: [String: Double]
    /// The output safety limit (nil: none).
    public var outputLimit: Double?
    /// The sampler's instruments were compiled after the orchestra (`EngineOptions.sampler`).
    public var sampler = false
}


/// MIDI clock (`--midi-clock`): Podium's beat clock sent as MIDI beat clock on `podium:midi_out`
/// (MIDIClockOut.swift), or a device's clock on `podium:midi_in` leading it (MIDIClockIn.swift).
public enum MIDIClockMode: String, Sendable, CaseIterable {
    case off, out, `in`
    /// As the callback stores it (`RTState.midiClockMode`).
    package var code: Int { self == .off ? 0 : self == .out ? 1 : 2 }
}
