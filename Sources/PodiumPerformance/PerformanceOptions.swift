import Foundation
import PodiumEngine
import PodiumHost
import PodiumOSC
import PodiumSurfaces
import PodiumWeb

/// What a `Performance` plays and which surfaces it opens: everything `podium play`'s options
/// say, checked already (the CLI validates them; tests and other front ends fill this in).
public struct PerformanceOptions: Sendable {
    /// Where typed commands come from.
    public enum Input: Sendable, Equatable {
        /// None (only OSC, the csound port, the stage page, a script).
        case none
        /// The REPL on this terminal (readline), its history kept at `historyPath`.
        case terminal(historyPath: String)
        /// Commands piped on stdin (the REPL's commands, with optional `@SECONDS` prefixes).
        case piped
    }

    /// The orchestra file (its directory holds the OSC map, the loops file, the presets' name).
    public var orchestra: String
    public var source: EngineSource
    /// Csound's seed (always seeded, so any part of the performance replays exactly).
    public var seed: UInt32
    /// The JACK client, server, ports, ksmps, limits, clock and transport.
    public var jack: JackOptions
    /// Start a JACK server when none runs (ALSA, else dummy); false: refuse to play.
    public var startServer = true
    /// Start a netJACK2 slave instead (when none of that name runs): play into a master's graph.
    public var netServer: JackServer.NetOptions?
    /// The OSC surface (nil: no OSC); its map (nil: `ORCHESTRA.oscmap.yaml` beside the orchestra, if any).
    public var osc: OSCOptions? = OSCOptions()
    public var oscMap: String?
    /// The SuperDirt surface for TidalCycles (`--dirt`): its port, bind address and allowed
    /// sources (nil: off); whether Podium's clock follows Tidal's (unless Link or transport lead).
    public var dirt: OSCOptions?
    public var dirtFollowsClock = true
    /// The csound `--port` text protocol: its port, bind address and allowed sources (nil: off).
    public var csoundPort: OSCOptions?
    /// The stage page (nil: off).
    public var web: WebOptions? = WebOptions()
    /// Publish OSC and the page on the LAN (DNS-SD through Avahi) when they listen beyond loopback.
    public var advertise = true
    /// A script of timed lines, and what its problems are called.
    public var script: Script?
    public var scriptName = "script"
    /// Stop after this many seconds (nil: when asked to).
    public var duration: Double?
    /// Record audio from the start.
    public var record = false
    /// Where sessions are kept; false: keep no session (`--no-session`).
    public var sessions: String
    public var keepSession = true
    /// Recompile the orchestra (and reread the loops) when saved.
    public var watch = true
    public var input: Input = .none
    /// Console lines below this level are not shown.
    public var minimumLevel: ConsoleLine.Level = .orchestra
    /// Join Ableton Link at the start (and its start/stop sync).
    public var link = false
    public var linkStartStop = false
    /// Save the journal and the audio if the process faults (process-wide: a front end's choice).
    public var crashGuard = false
    /// Written into session.json.
    public var podiumVersion = "unknown"
    /// Sample banks (`--samples`), looked up in this order, then the default kits unless
    /// `defaultSamples` is false; no banks at all: no sampler.
    public var samples: [String] = []
    public var defaultSamples = true
    /// Load every file of the banks at the start (`--preload`), not on first use.
    public var preloadSamples = false
    /// Bytes the decoded samples may take.
    public var samplesMemory = SampleStore.defaultBudget

    public init(orchestra: String, source: EngineSource, seed: UInt32, jack: JackOptions, sessions: String) {
        self.orchestra = orchestra
        self.source = source
        self.seed = seed
        self.jack = jack
        self.sessions = sessions
    }

    /// The OSC map to use: the one given, else `ORCHESTRA.oscmap.yaml` beside the orchestra when present.
    public var mapPath: String? {
        let besideOrchestra = (orchestra as NSString).deletingPathExtension + ".oscmap.yaml"
        return oscMap ?? (FileManager.default.fileExists(atPath: besideOrchestra) ? besideOrchestra : nil)
    }
}

/// Why a performance could not start (said as `podium play: …`).
public struct PerformanceError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
