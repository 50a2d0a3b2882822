import CJack
import Foundation

/// JACK transport as another client sees it (tests and benchmarks): a plain client that
/// queries the transport, and JACK's own interactive `jack_transport` driven through its stdin.
public final class TransportProbe: @unchecked Sendable {
    public let client: OpaquePointer

    /// A transport position: state, frame and (when a master gives it) BBT and BPM.
    public struct Position: Sendable, Equatable {
        public var rolling: Bool
        public var frame: Int64
        public var bbt: Bool
        public var bar: Int, beat: Int, tick: Int
        public var beatsPerBar: Double, ticksPerBeat: Double, beatsPerMinute: Double
        /// The beat the BBT describes, from beat 0 at bar 1.
        public var beats: Double { Double(bar - 1) * beatsPerBar + Double(beat - 1) + Double(tick) / ticksPerBeat }
    }

    // Thread: the caller's
    public init(server: String, name: String = "transport-probe") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("transport probe could not connect to \(server)") }
        client = c
        jack_activate(c)
    }

    // Thread: the caller's
    public var position: Position {
        var pos = jack_position_t()
        let state = jack_transport_query(client, &pos)
        return Position(rolling: state == JackTransportRolling, frame: Int64(pos.frame),
                        bbt: pos.valid.rawValue & JackPositionBBT.rawValue != 0, bar: Int(pos.bar), beat: Int(pos.beat),
                        tick: Int(pos.tick), beatsPerBar: Double(pos.beats_per_bar), ticksPerBeat: pos.ticks_per_beat,
                        beatsPerMinute: pos.beats_per_minute)
    }

    deinit { jack_client_close(client) }
}

/// A slow-sync client, as a DAW that seeks on disk before it can roll: its sync callback
/// answers "not ready" until `readyAfter` seconds after the transport started to start.
public final class SlowSyncClient: @unchecked Sendable {
    public let client: OpaquePointer
    /// What the sync callback reads and writes (plain memory, freed after the client closes).
    let state: UnsafeMutablePointer<SlowSyncState>

    // Thread: the caller's
    public init(server: String, readyAfter seconds: Double, name: String = "slow-sync") throws {
        guard let c = CaptureClient.openClient(name: name, server: server) else { throw TestFailure("slow-sync client could not connect to \(server)") }
        client = c
        state = .allocate(capacity: 1)
        state.initialize(to: SlowSyncState(firstCall: -1, wait: seconds))
        jack_set_process_callback(c, slowSyncProcess, nil)
        jack_set_sync_callback(c, slowSyncAnswer, state)
        jack_activate(c)
    }

    /// The transport's state as this client reads it.
    // Thread: the caller's
    public var starting: Bool { jack_transport_query(client, nil) == JackTransportStarting }
    public var rolling: Bool { jack_transport_query(client, nil) == JackTransportRolling }

    deinit {
        jack_client_close(client)
        state.deallocate()
    }
}

/// The slow-sync client's state: when the first sync call of the current start came (monotonic
/// seconds; -1: none yet) and how long it waits.
struct SlowSyncState {
    var firstCall: Double
    let wait: Double
}

/// The slow-sync client's process callback: nothing to compute. Checked like Podium's own.
// Thread: RT (the slow-sync client's JACK thread)
@_noLocks @_noAllocation
func slowSyncProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 { 0 }

/// The slow-sync client's sync callback: "not ready" until its wait has passed since the start began.
// Thread: RT (the slow-sync client's JACK thread)
@_noLocks @_noAllocation
func slowSyncAnswer(_ transport: jack_transport_state_t, _ pos: UnsafeMutablePointer<jack_position_t>?, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 1 }
    let s = arg.assumingMemoryBound(to: SlowSyncState.self)
    var t = timespec()
    _ = _unsafePerformance { clock_gettime(CLOCK_MONOTONIC, &t) }
    let now = Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    if transport != _unsafePerformance({ JackTransportStarting }) { s.pointee.firstCall = -1; return 1 }
    if s.pointee.firstCall < 0 { s.pointee.firstCall = now }
    return now - s.pointee.firstCall >= s.pointee.wait ? 1 : 0
}

/// JACK's `jack_transport` (jackd2's example client): commands on its stdin (`play`, `stop`,
/// `locate FRAME`, `master`, `tempo BPM`, `release`, `quit`).
public final class JackTransportTool: @unchecked Sendable {
    let process = Process()
    let input = Pipe()

    // Thread: the caller's
    public init(server: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jack_transport")
        process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server, "JACK_NO_START_SERVER": "1"]) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends one command line and gives the tool a moment (it acts within a period or two).
    // Thread: the caller's
    public func send(_ line: String, settle: Double = 0.05) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
        Thread.sleep(forTimeInterval: settle)
    }

    // Thread: the caller's
    public func quit() {
        guard process.isRunning else { return }
        send("quit")
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    deinit { quit() }
}
