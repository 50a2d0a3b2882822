import CAtomics
import CJack
import CLinkBridge
import Foundation
import PodiumRealtime

// The driver's half of Ableton Link (the app thread side, NRT): creating the bridge, enabling it,
// peers, the output latency the callback adds. The callback's half is LinkSync.swift.
// Link only moves Podium's clock (each move a journal `clock` line), so a session recorded with
// peers replays exactly without them: Link is never asked offline. Every Link call but the
// callback's capture/commit is made by surfaces and the supervisor. The bridge is made on first
// use (its pointer an atomic in `RTState`, so `:link on` works while playing) and freed only
// after the JACK client is closed. The latency is the largest playback latency of Podium's
// outputs (`jack_port_get_latency_range`), read by the supervisor once a second.
// Measured (tests and `bench/run link`; bench/HISTORY.md): two hosts' quantized notes 0–2 frames
// apart at 90, 120 and 175 BPM, within 0.17 ms over ten minutes; a host whose ports feed
// `system:playback` (512 frames) plays 512 frames earlier; a peer's tempo reaches the clock in
// 20–60 ms; Csound's own Link opcodes (`link_metro`, no latency compensation) click 27–30 ms after
// Podium with the csound CLI's default buffers. Limits: a quiet host corrects nothing after the
// join and one step per xrun; on JACK's dummy driver (not real-time) on a loaded 2-core machine
// frames wobble up to 1 % against Link's clock, followed by steps every few periods (hundreds a
// minute, each a journal line), the hosts within 0.3 ms; Link keeps a commit for one second.

/// Link as the surfaces show it (`:status`, `:link`, `/podium/status`, `/podium/link`).
public struct LinkStatus: Sendable, Equatable {
    public var enabled: Bool
    public var peers: Int
    /// The session's tempo (BPM), from the app session state.
    public var tempo: Double
    /// Podium's clock now (the callback keeps it on the session's phase).
    public var beat: Double
    public var quantum: Double
    /// The output latency the callback adds (ms).
    public var latencyMs: Double
    /// Tempos adopted from the session, phase corrections, tempos Podium committed.
    public var tempoAdopted: UInt64
    public var phaseCorrections: UInt64
    public var tempoCommitted: UInt64
    /// The last phase correction (ms, signed: positive moved the clock ahead).
    public var lastCorrectionMs: Double = 0
    /// Start/stop sync (`--link-start-stop`) and the session's play state (meaningful with it).
    public var startStopSync = false
    public var playing = false
    /// The clock's rate trim against Link's clock (parts per million; 0: none).
    public var ratePpm: Double = 0
    /// The frames' rate last measured in Link's clock (ppm off nominal).
    public var measuredPpm: Double = 0

    /// One line: `link on, 1 peer, 120.00 BPM, beat 37.25 (phase 1.25 of 4), latency 10.7 ms, followed 2 tempos and 3 phase corrections`.
    public var summary: String {
        guard enabled else { return "link off" }
        let q = quantum > 0 ? quantum : 4, phase = beat - (beat / q).rounded(.down) * q
        return "link on, \(peers) peer\(peers == 1 ? "" : "s"), "
            + String(format: "%.2f BPM, beat %.2f (phase %.2f of %g), latency %.1f ms", tempo, beat, phase, q, latencyMs)
            + ", followed \(tempoAdopted) tempo\(tempoAdopted == 1 ? "" : "s") and \(phaseCorrections) phase correction\(phaseCorrections == 1 ? "" : "s")"
            + (phaseCorrections > 0 ? String(format: " (last %+.2f ms)", lastCorrectionMs) : "")
            + (ratePpm != 0 || measuredPpm != 0 ? String(format: ", rate %+.1f ppm (measured %+.1f)", ratePpm, measuredPpm) : "")
            + (startStopSync ? ", start/stop sync: session \(playing ? "playing" : "stopped")" : "")
    }
}

extension JackDriver {
    /// Joins (`true`) or leaves the Link session. The bridge is created on first use and lives
    /// until the driver is freed. Returns false when Link could not be created.
    // Thread: NRT (any surface)
    @discardableResult
    public func setLink(_ enabled: Bool) -> Bool {
        guard let link = linkBridge(create: enabled) else { return !enabled }
        if enabled { refreshLinkLatency() }
        podium_link_enable(link, enabled)
        return true
    }

    // Thread: any
    public var linkEnabled: Bool {
        linkBridge(create: false).map { podium_link_is_enabled($0) } ?? false
    }

    /// Start/stop sync with the session (`--link-start-stop`): the session's play state starts
    /// and stops the beat clock (on the session's bar), and Podium's `:link start|stop` reach
    /// the peers (LinkStartStop.swift).
    // Thread: NRT (any surface)
    public func setLinkStartStopSync(_ enabled: Bool) {
        if let link = linkBridge(create: enabled) { podium_link_enable_start_stop_sync(link, enabled) }
    }

    // Thread: NRT (any)
    public var linkStatus: LinkStatus {
        let clock = self.clock
        let c = { (i: StatIndex) in podium_counter_load(self.state.pointee.stats + i.rawValue) }
        guard let link = linkBridge(create: false), podium_link_is_enabled(link) else {
            return LinkStatus(enabled: false, peers: 0, tempo: clock.tempo, beat: beatNow, quantum: clock.quantum, latencyMs: 0,
                              tempoAdopted: c(.linkTempoAdopted), phaseCorrections: c(.linkPhaseCorrections), tempoCommitted: c(.linkTempoCommitted))
        }
        return LinkStatus(enabled: true, peers: Int(podium_link_num_peers(link)), tempo: podium_link_app_tempo(link), beat: beatNow,
                          quantum: clock.quantum, latencyMs: Double(state.pointee.linkLatencyUs.load(ordering: .relaxed)) / 1000,
                          tempoAdopted: c(.linkTempoAdopted), phaseCorrections: c(.linkPhaseCorrections), tempoCommitted: c(.linkTempoCommitted),
                          lastCorrectionMs: Double(state.pointee.linkLastCorrectionUs.load(ordering: .relaxed)) / 1000,
                          startStopSync: podium_link_start_stop_sync(link), playing: podium_link_app_is_playing(link),
                          ratePpm: (clock.rate - 1) * 1e6,
                          measuredPpm: Double(state.pointee.linkMeasuredRatePpb.load(ordering: .relaxed)) / 1000)
    }

    /// The output latency of Podium's playback ports (the largest), for the callback to add.
    // Thread: NRT (supervisor, once a second; a surface when Link is enabled)
    func refreshLinkLatency() {
        guard state.pointee.linkHandle.load(ordering: .acquiring) != 0 else { return }
        let us: Int64? = lock.withLock {
            guard let api, !outPorts.isEmpty else { return nil }
            let frames = outPorts.map(api.playbackLatency).max() ?? 0
            return Int64((Double(frames) / Double(max(1, api.sampleRate)) * 1e6).rounded())
        }
        if let us { state.pointee.linkLatencyUs.store(us, ordering: .relaxed) }
    }

    /// The bridge, created once (a race between surfaces leaves one: the loser frees its own).
    // Thread: NRT (any)
    func linkBridge(create: Bool) -> OpaquePointer? {
        let bits = state.pointee.linkHandle.load(ordering: .acquiring)
        if bits != 0 { return OpaquePointer(bitPattern: bits) }
        guard create, let made = podium_link_create(clock.tempo) else { return nil }
        let (won, current) = state.pointee.linkHandle.compareExchange(expected: 0, desired: Int(bitPattern: made),
                                                                      ordering: .acquiringAndReleasing)
        if won { return made }
        podium_link_destroy(made)
        return OpaquePointer(bitPattern: current)
    }

    /// Frees the bridge. Only once no callback can run (the client is closed).
    // Thread: NRT (owner, deinit)
    func destroyLink() {
        let bits = state.pointee.linkHandle.exchange(0, ordering: .acquiringAndReleasing)
        if bits != 0, let link = OpaquePointer(bitPattern: bits) { podium_link_destroy(link) }
    }
}
