import CJack
import Foundation
import PodiumHost
import Synchronization

/// A real `jackd -d dummy` under a unique name, for tests and benchmarks (started here, stopped with it).
/// It runs real-time (-R: SCHED_FIFO for its thread and its clients' process threads) where the
/// privilege allows, as a performer's server does: a timing suite then measures Podium, not how
/// the scheduler shares two cores with the suites, builds or browsers running beside it.
public final class TestJackServer: @unchecked Sendable {
    public let name: String
    public let period: Int
    public let sampleRate: Int
    /// Run jackd with real-time scheduling (-R) instead of -r; needs the privilege (root here;
    /// without it -r).
    public let realtime: Bool
    private var process: Process?

    public init(period: Int = 256, sampleRate: Int = 48000, realtime: Bool = true, tag: String = #fileID) throws {
        self.realtime = realtime
        let safe = tag.filter { $0.isLetter || $0.isNumber }.prefix(20)
        name = "podium-test-\(safe)-\(getpid())-\(UUID().uuidString.prefix(6))"
        self.period = period
        self.sampleRate = sampleRate
        try start()
    }

    /// Starts jackd and waits until a client can connect. A jackd that exits at once is started
    /// again until the deadline: JACK2 keeps at most 8 servers of a user at a time (its shared
    /// registry, MAX_SERVERS), and the test processes running side by side start and stop
    /// theirs; a slot frees when another test's server stops.
    public func start() throws {
        TestJackServer.quietJack
        let deadline = Date().addingTimeInterval(60)
        var attempts = 0
        while Date() < deadline {
            attempts += 1
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/jackd")
            p.arguments = ["-n", name, realtime && TestJackServer.realtimeAllowed ? "-R" : "-r", "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            JackServer.stopWhenParentDies(server: p.processIdentifier)
            process = p
            while Date() < deadline, p.isRunning {
                if let probe = CaptureClient.openClient(name: "probe", server: name) { jack_client_close(probe); return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            if p.isRunning { break }
            Thread.sleep(forTimeInterval: 0.5)
        }
        throw TestFailure("jackd \(name) did not start (\(attempts) attempts in 60 s; JACK keeps at most 8 servers at a time)")
    }

    /// Whether this process may use real-time scheduling (SCHED_FIFO), as jackd -R needs:
    /// without the privilege a server asked for -R runs with -r.
    static let realtimeAllowed: Bool = {
        var param = sched_param(sched_priority: 1)
        let me = pthread_self()
        var policy: Int32 = 0
        var old = sched_param()
        pthread_getschedparam(me, &policy, &old)
        guard pthread_setschedparam(me, SCHED_FIFO, &param) == 0 else { return false }
        pthread_setschedparam(me, policy, &old)
        return true
    }()

    /// libjack's "Cannot connect to server socket" while a server starts is expected here.
    static let quietJack: Void = {
        jack_set_error_function { _ in }
        jack_set_info_function { _ in }
    }()

    /// The server's process id (nil when it is not running).
    public var pid: pid_t? { process?.processIdentifier }

    /// Stops the server (SIGSTOP): no client's process callback is called until `resume()`,
    /// as when a callback stalls (a long first note, a loaded machine).
    // Thread: the test's
    /// Returns once every thread of the server has stopped: `kill` only sends the signal, and a
    /// server thread on the other core ran on after it returned.
    public func pause() {
        guard let pid else { return }
        Foundation.kill(pid, SIGSTOP)
        let deadline = Date().addingTimeInterval(5)
        while !TestJackServer.allStopped(pid), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    }

    /// Stops the server (`pause()`), then waits until a client's cycle that the server had already
    /// started has finished: `callbacks` (the client's count) stays the same for 100 ms. A client
    /// woken for a cycle before the stop runs that cycle after `kill` returned — measured here in 9
    /// of 200 pauses on an idle machine. After this returns the client's callback runs no more.
    public func pause(settling callbacks: () -> UInt64) {
        pause()
        var last = callbacks(), since = Date()
        while Date().timeIntervalSince(since) < 0.1 {
            Thread.sleep(forTimeInterval: 0.005)
            let now = callbacks()
            if now != last { last = now; since = Date() }
        }
    }

    /// Whether every thread of `pid` is stopped (state T in /proc/PID/task/TID/stat).
    static func allStopped(_ pid: pid_t) -> Bool {
        let dir = "/proc/\(pid)/task"
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: dir), !tasks.isEmpty else { return false }
        for t in tasks {
            guard let stat = try? String(contentsOfFile: "\(dir)/\(t)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            // The state is the first field after the command name "(…)".
            let state = stat[stat.index(after: close)...].dropFirst().first
            if state != "T" && state != "t" { return false }
        }
        return true
    }

    /// Lets a paused server run on (SIGCONT).
    // Thread: the test's
    public func resume() {
        if let pid { Foundation.kill(pid, SIGCONT) }
    }

    /// Kills the server outright (as a crash would).
    public func kill() {
        guard let p = process else { return }
        Foundation.kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }

    public func stop() {
        guard let p = process else { return }
        Foundation.kill(p.processIdentifier, SIGCONT)  // a paused server could not act on SIGTERM
        p.terminate()
        p.waitUntilExit()
        process = nil
    }

    deinit { stop() }
}

public struct TestFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}

/// State of the capture client's process callback (plain memory).
struct CaptureState {
    var ports: UnsafeMutablePointer<OpaquePointer?>
    var channels: Int
    var buffer: UnsafeMutablePointer<Float>   // channel-major: channel c at c * capacity
    var capacity: Int
    var written: Int                          // frames recorded
    var firstFrame: Int64                     // JACK frame time of recorded frame 0
    var recording: Bool
    var client: OpaquePointer?
    /// Per callback: where its frames start in `buffer`, and its JACK frame time
    /// (cycles can be skipped under load, so frames are not contiguous in time).
    var blockStart: UnsafeMutablePointer<Int>
    var blockFrame: UnsafeMutablePointer<Int64>
    /// JACK's clock (µs, jack_get_time) when this client's callback ran each cycle: the moment
    /// the cycle's sound reached it (the server's own cycle stamps are its schedule, which a
    /// dummy server that wakes late does not keep).
    var blockMicros: UnsafeMutablePointer<UInt64>
    var blocks: Int
    var blockCapacity: Int
    var xruns: Int = 0
    /// JACK's frame time when the server's xrun notice reached this client (the first
    /// `xrunCapacity`; the notice comes on the notification thread, after the cycle it names).
    var xrunFrames: UnsafeMutablePointer<Int64>
    var xrunCapacity: Int
}

/// The capture client's process callback: copies the input ports into the recording and
/// notes each callback's frame time. Checked like Podium's own callback.
// Thread: RT (the capture client's JACK thread)
@_noLocks @_noAllocation
func captureProcess(_ nframes: jack_nframes_t, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let arg else { return 0 }
    let s = arg.assumingMemoryBound(to: CaptureState.self)
    guard s.pointee.recording else { return 0 }
    let n = Int(nframes)
    let ranAt = _unsafePerformance { jack_get_time() }
    let now = _unsafePerformance { Int64(jack_last_frame_time(s.pointee.client)) }
    if s.pointee.written == 0 { s.pointee.firstFrame = now }
    let take = min(n, s.pointee.capacity - s.pointee.written)
    if take > 0 && s.pointee.blocks < s.pointee.blockCapacity {
        s.pointee.blockStart[s.pointee.blocks] = s.pointee.written
        s.pointee.blockFrame[s.pointee.blocks] = now
        s.pointee.blockMicros[s.pointee.blocks] = ranAt
        s.pointee.blocks += 1
    }
    for ch in 0..<s.pointee.channels {
        let src = _unsafePerformance { jack_port_get_buffer(s.pointee.ports[ch], nframes)! }.assumingMemoryBound(to: Float.self)
        let dst = s.pointee.buffer + ch * s.pointee.capacity + s.pointee.written
        for i in 0..<take { dst[i] = src[i] }
    }
    s.pointee.written += take
    return 0
}

/// A JACK client that records what it receives, frame-stamped (a second client in the same process).
public final class CaptureClient: @unchecked Sendable {
    public let client: OpaquePointer
    let state: UnsafeMutablePointer<CaptureState>

    public static func openClient(name: String, server: String) -> OpaquePointer? {
        var status = jack_status_t(rawValue: 0)
        return podium_jack_client_open(name, jack_options_t(rawValue: JackNoStartServer.rawValue), &status, server)
    }

    public init(server: String, channels: Int, seconds: Double = 12, name: String = "capture") throws {
        // Tried a few times: JACK2 refuses a client now and then while other clients open or other
        // servers start at the same moment (the test phases run side by side: scripts/test).
        var opened = CaptureClient.openClient(name: name, server: server)
        for _ in 0..<10 where opened == nil {
            Thread.sleep(forTimeInterval: 0.1)
            opened = CaptureClient.openClient(name: name, server: server)
        }
        guard let c = opened else { throw TestFailure("capture client could not connect to \(server)") }
        client = c
        let capacity = Int(Double(jack_get_sample_rate(c)) * seconds)
        state = .allocate(capacity: 1)
        state.initialize(to: CaptureState(ports: .allocate(capacity: channels), channels: channels,
                                          buffer: .allocate(capacity: capacity * channels), capacity: capacity,
                                          written: 0, firstFrame: -1, recording: false, client: c,
                                          blockStart: .allocate(capacity: capacity / 16 + 1),
                                          blockFrame: .allocate(capacity: capacity / 16 + 1),
                                          blockMicros: .allocate(capacity: capacity / 16 + 1),
                                          blocks: 0, blockCapacity: capacity / 16 + 1,
                                          xrunFrames: .allocate(capacity: 4096), xrunCapacity: 4096))
        state.pointee.buffer.initialize(repeating: 0, count: capacity * channels)
        for i in 0..<channels {
            state.pointee.ports[i] = jack_port_register(c, "in_\(i + 1)", JACK_DEFAULT_AUDIO_TYPE, UInt(JackPortIsInput.rawValue), 0)
        }
        jack_set_process_callback(c, captureProcess, state)
        // Thread: NRT (libjack's notification thread)
        jack_set_xrun_callback(c, { arg in
            let s = arg!.assumingMemoryBound(to: CaptureState.self)
            if s.pointee.xruns < s.pointee.xrunCapacity { s.pointee.xrunFrames[s.pointee.xruns] = Int64(jack_frame_time(s.pointee.client)) }
            s.pointee.xruns += 1
            return 0
        }, state)
        jack_activate(c)
    }

    /// Xruns the server reported to this client since it opened.
    public var xruns: Int { state.pointee.xruns }

    /// Whether the server reported an xrun to this client within `window` frames of `frame`
    /// (JACK frame time when the notice arrived, which is after the cycle it names).
    public func xrunNear(_ frame: Int64, window: Int64) -> Bool {
        (0..<min(state.pointee.xruns, state.pointee.xrunCapacity)).contains { abs(state.pointee.xrunFrames[$0] - frame) <= window }
    }

    public func connect(from source: String, channel: Int) throws {
        let rc = jack_connect(client, source, "\(String(cString: jack_get_client_name(client))):in_\(channel + 1)")
        if rc != 0 && rc != EEXIST { throw TestFailure("jack_connect \(source) failed: \(rc)") }
    }

    /// Records for a while (wall time), then stops.
    public func record(seconds: Double) {
        start()
        Thread.sleep(forTimeInterval: seconds)
        stopRecording()
    }

    public func start() {
        state.pointee.written = 0
        state.pointee.blocks = 0
        state.pointee.firstFrame = -1
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        state.pointee.recording = true
    }

    public func stopRecording() {
        state.pointee.recording = false
        Thread.sleep(forTimeInterval: 0.05)
    }

    public var frameTime: Int64 { Int64(jack_frame_time(client)) }
    /// The start frame of the cycle in progress (or just finished).
    public var lastFrameTime: Int64 { Int64(jack_last_frame_time(client)) }
    public var sampleRate: Double { Double(jack_get_sample_rate(client)) }
    public var period: Int { Int(jack_get_buffer_size(client)) }

    public func samples(_ channel: Int) -> [Float] {
        Array(UnsafeBufferPointer(start: state.pointee.buffer + channel * state.pointee.capacity, count: state.pointee.written))
    }

    /// The JACK frame of the first sample above `threshold` on a channel.
    public func onsetFrame(_ channel: Int, threshold: Float = 0.01) -> Int64? {
        guard let i = samples(channel).firstIndex(where: { abs($0) > threshold }) else { return nil }
        return frame(ofSample: i)
    }

    /// JACK frames where the signal rises above `threshold` after being below it (for at least
    /// `quiet` samples: a period the server filled with silence because a client was late, inside
    /// a note, is not a new note).
    public func onsets(_ channel: Int, threshold: Float = 0.01, quiet: Int = 1) -> [Int64] {
        let s = samples(channel)
        var result: [Int64] = []
        var below = quiet  // samples at or under the threshold so far (the start counts as quiet)
        for (i, v) in s.enumerated() {
            if abs(v) > threshold {
                if below >= quiet { result.append(frame(ofSample: i)) }
                below = 0
            } else {
                below += 1
            }
        }
        return result
    }

    /// The JACK frame of recorded sample `i` (each callback keeps its own frame time).
    public func frame(ofSample i: Int) -> Int64 {
        let b = block(ofSample: i)
        return state.pointee.blockFrame[b] + Int64(i - state.pointee.blockStart[b])
    }

    /// The callback (its index among the recorded ones) that recorded sample `i`.
    func block(ofSample i: Int) -> Int {
        var b = 0
        while b + 1 < state.pointee.blocks && state.pointee.blockStart[b + 1] <= i { b += 1 }
        return b
    }

    /// JACK's time now (µs), the clock of `receivedMicros(ofSample:)`.
    public var microseconds: UInt64 { jack_get_time() }

    /// When this client's callback received sample `i` (µs, JACK's clock).
    public func receivedMicros(ofSample i: Int) -> UInt64 {
        state.pointee.blockMicros[block(ofSample: i)]
    }

    /// The sample index recorded at a JACK frame (nil: not recorded).
    public func sampleIndex(ofFrame frame: Int64) -> Int? {
        for b in 0..<state.pointee.blocks {
            let start = state.pointee.blockStart[b]
            let end = b + 1 < state.pointee.blocks ? state.pointee.blockStart[b + 1] : state.pointee.written
            let f0 = state.pointee.blockFrame[b]
            if frame >= f0 && frame < f0 + Int64(end - start) { return start + Int(frame - f0) }
        }
        return nil
    }

    private var closed = false

    /// Closes the client (once; deinit does it otherwise).
    public func close() {
        guard !closed else { return }
        closed = true
        jack_client_close(client)
    }

    deinit {
        close()
        state.pointee.ports.deallocate()
        state.pointee.buffer.deallocate()
        state.pointee.blockStart.deallocate()
        state.pointee.blockFrame.deallocate()
        state.pointee.blockMicros.deallocate()
        state.pointee.xrunFrames.deallocate()
        state.deallocate()
    }
}

/// Estimated frequency from rising zero crossings.
public func estimatedFrequency(_ samples: [Float], sampleRate: Double) -> Double {
    var crossings = 0
    for i in 1..<samples.count where samples[i - 1] <= 0 && samples[i] > 0 { crossings += 1 }
    return Double(crossings) / (Double(samples.count) / sampleRate)
}

/// Polls `condition` until it holds or `seconds` pass.
public func eventually(_ seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}
