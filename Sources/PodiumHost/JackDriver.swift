import CAtomics
import CJack
import Foundation
import PodiumEngine
import PodiumRealtime
import Synchronization

/// Runs an engine inside the JACK process callback and keeps it running: engine rebuilds
/// when the period stops dividing by ksmps, reconnection when the server goes away.
///
/// Threads: the owner (NRT) calls start/stop/compile; producers post from their own thread;
/// a supervisor thread (NRT) drains the applied ring and the console, and handles JACK's events.
///
/// Parking (`parkCallback`): before the client is deactivated or closed, the driver sets
/// `paused` and waits for a callback already inside to end (`callbackSeq` odd; the callback
/// counts itself in before it reads `paused`, both sequentially consistent). JACK2 cancels its
/// process thread asynchronously on deactivation; cancelled inside `csoundPerformKsmps` it would
/// leave Csound's API lock held and the engine's destruction waiting for ever (seen in CI).
public final class JackDriver: @unchecked Sendable {
    public let source: EngineSource
    public private(set) var jackOptions: JackOptions
    /// Seconds between reconnection attempts (set before start).
    public var jackOptionsReconnectInterval: Double {
        get { jackOptions.reconnectInterval }
        set { jackOptions.reconnectInterval = newValue }
    }
    let engineOptions: EngineOptions

    /// Guards `engine`, `generation`, `liveOrchestras`, `channelCache` and `api` among NRT threads.
    let lock = NSLock()
    var _engine: Engine?
    var generation: UInt32 = 1
    var liveOrchestras: [String] = []
    var channelCache: [String: UnsafeMutablePointer<Double>] = [:]
    var stringCache: [String: (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?)] = [:]
    var api: JackAPI?
    var inPorts: [OpaquePointer] = []
    var midiPort: OpaquePointer?
    var midiOutPort: OpaquePointer?
    var outPorts: [OpaquePointer] = []

    let state: UnsafeMutablePointer<RTState>
    let appliedRing = Ring<Applied>(capacity: 8192)
    var producers: [CommandProducer] = []
    let running = Atomic<Bool>(false)
    var supervisor: Thread?
    let supervisorDone = DispatchSemaphore(value: 0)

    /// How many compiles (each checked in a child process) the surfaces may ask for (CompileBudget.swift).
    let compileBudget = CompileBudget()
    /// The performance's compiles, one at a time on their own thread (CompileQueue.swift).
    let compileQueue = CompileQueue()
    /// Compiles refused because the budget was spent.
    public var refusedCompiles: UInt64 { compileBudget.refused }

    /// Bindings (MIDI CC maps, learned controllers, bound outputs) and their current table.
    var bindingList: [Binding] = []
    var bindingTable: BindingTable?
    let bindingLock = NSLock()
    /// `:learn`: the channel the next moved controller is bound to.
    var learning: String?
    /// Notes held on MIDI now (for `:chord`).
    var held: Set<Int> = []

    /// Serialises handovers to the audio thread with the activation that lets callbacks run.
    let handoverLock = NSLock()
    /// Serialises writers of the hush list (`updateInstrumentBound`).
    let hushListLock = NSLock()
    /// Seconds a handover waits for the callback before it is withdrawn (see EngineHandover.swift).
    public var handoverTimeout: Double = 10
    /// `restartEngine`: the ksmps asked for, the supervisor's answer.
    let restartRequest = Mutex<Int?>(nil)
    /// Master transport: a start JACK holds in `Starting` (TransportStartWatch.swift); supervisor's.
    var transportStartWatch = TransportStartWatch()
    /// Master transport: until when a transport still stopped after Podium started it is started
    /// again (`ensureMasterRolls`), and when it last was.
    var masterStartUntil: ContinuousClock.Instant?
    var masterLastStart = ContinuousClock.now
    /// Outputs left unconnected because the server had no playback port yet (PipeWire's sink
    /// comes a moment after the server): the supervisor connects them when one appears, unless
    /// the performer connected them meanwhile (`connectLatePlayback`). Under `lock`.
    var awaitingPlayback = false
    var lastPlaybackLook = ContinuousClock.now
    let restartDone = DispatchSemaphore(value: 0)
    var restartError: Error?
    /// The supervisor reports each of these once.
    var reportedNonFinite = false
    var reportedClipping = false
    /// Tables built off the audio thread (StagedCompile.swift): one staged compile at a time,
    /// through a producer of its own; each staged table's tag.
    let stagingLock = NSLock()
    var stagingProducer: CommandProducer?
    var stagingTag = 0
    /// The load guard's refusals already reported, and when (at most one notice in 5 s).
    var reportedLoadLimited: UInt64 = 0
    var lastLoadNotice = ContinuousClock.now - .seconds(60)

    /// The performance's quantization of score lines from every surface (`:quant`, `/podium/quant`).
    public let quantization = Mutex<Quantize>(.now)

    /// Everything applied, from the engine's start, with k-cycles (sessions record it).
    public let journal = Journal()

    /// Called on the supervisor thread for everything the audio thread applied.
    public var onApplied: (@Sendable (Applied) -> Void)?
    /// A note the audio thread did not start (`Applied.Kind.noteRefused`: the voice limit or the
    /// DSP load guard), by its id; a sample of them, at most a few a callback. Not journaled.
    public var onRefused: (@Sendable (Applied) -> Void)?
    /// Called on the supervisor thread for each console line.
    public var onConsole: (@Sendable (ConsoleLine) -> Void)?
    /// Called on the supervisor thread after the audio thread applied a hush (a command, or CC 123
    /// on midi_in): the performance stops its live loops.
    public var onHush: (@Sendable () -> Void)?
    /// Called on the supervisor thread (or the caller's) for driver notices: restarts, reconnections.
    public var onNotice: (@Sendable (String) -> Void)?

    // Thread: NRT (owner)
    public init(source: EngineSource, options: EngineOptions = EngineOptions(), jack: JackOptions = JackOptions()) {
        self.source = source
        self.jackOptions = jack
        var o = options
        // Not --realtime: Csound 6.18's realtime mode moves every note's init pass to a
        // helper thread that polls once per k-period, so a note's first k-cycle would depend
        // on thread timing (late, and not replayable). Without it csoundPerformKsmps takes
        // Csound's API lock, which stays uncontended: during a performance the host only uses
        // Csound's async calls and channel pointers, never a call that takes that lock.
        o.realtime = false
        o.sampleAccurate = true    // events land on their frame inside a k-cycle
        self.engineOptions = o
        state = .allocate(capacity: 1)
        state.initialize(to: RTState(applied: appliedRing.raw))
        state.pointee.outputLimit = OutputGuard.limit(jack.outputLimit)
        state.pointee.loadGuard = LoadGuard(limit: jack.loadLimit)
    }

    deinit {
        stop()
        destroyLink()  // after the client is closed: no callback can call into Link any more
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The engine performing now. Hold no reference across a rebuild.
    public var engine: Engine {
        lock.withLock { _engine! }
    }

    // MARK: start / stop — Thread: NRT (owner)

    /// Opens the client under its name or, with `renameIfTaken` and the name taken, under the
    /// unique one JACK gives it (NAME-01 …): that becomes the client's name (a reconnection asks
    /// for it again).
    // Thread: NRT (owner)
    func openClient() throws -> JackAPI {
        let base = jackOptions.clientName
        let api = try JackAPI.open(name: base, server: jackOptions.serverName, exact: !jackOptions.renameIfTaken)
        let name = api.clientName
        if name != base {
            jackOptions.clientName = name
            onNotice?("the JACK client name \(base) is taken: this performance is \(name)")
        }
        return api
    }

    // Thread: NRT (owner)
    public func start() throws {
        LargeAllocations.keepOnMmap()
        let api = try openClient()
        do {
            let ksmps = try Alignment.ksmps(period: api.bufferSize, requested: jackOptions.ksmps ?? (PipeWire.isJackLibrary ? PipeWire.defaultKsmps(period: api.bufferSize) : nil))
            let engine = try makeEngine(sampleRate: api.sampleRate, ksmps: ksmps)
            lock.withLock { _engine = engine }
            journal.engine(ksmps: ksmps, after: 0)
            state.pointee.clock = BeatClock(tempo: jackOptions.tempo, quantum: jackOptions.quantum)  // inactive: ours to set
            // Following a device's MIDI clock: stopped until it sends Start or Continue.
            if jackOptions.midiClock == .in { state.pointee.clock.setRunning(false) }
            try handOver(engine, generation: lock.withLock { generation })  // inactive: a direct swap
            try attach(api)
        } catch {
            api.close()
            throw error
        }
        running.store(true, ordering: .releasing)
        let thread = Thread { [unowned self] in self.supervise() }
        thread.name = "podium-supervisor"
        supervisor = thread
        thread.start()
    }

    /// Deactivates, unregisters the ports, closes the client. Idempotent.
    // Thread: NRT (owner)
    public func stop() {
        compileQueue.stop()
        let wasRunning = running.exchange(false, ordering: .acquiringAndReleasing)
        if wasRunning { supervisorDone.wait() }
        lock.withLock {
            if let api {
                if jackOptions.transport == .master { api.releaseTimebase() }
                parkCallback()
                api.deactivate()
                state.pointee.callbacksMayRun.store(false, ordering: .releasing)
                for p in inPorts + outPorts + [midiPort, midiOutPort].compactMap({ $0 }) { api.unregisterPort(p) }
                api.close()
            }
            api = nil
            inPorts = []
            outPorts = []
        }
        drainSideRings()
        // The journal is complete through the last k-cycle performed: a session's length.
        let last = state.pointee.cycleNow.load(ordering: .acquiring) - 1
        if wasRunning, last >= 0 { journal.sync(through: last) }
    }

    /// Keeps the callback out of Csound from now on, and returns once a callback that was
    /// already inside has ended (the callback's own time: no timeout). Called before the client
    /// is deactivated or closed: JACK2 then cancels its process thread asynchronously
    /// (`JackPosixThread`, `PTHREAD_CANCEL_ASYNCHRONOUS`), and a thread cancelled inside
    /// `csoundPerformKsmps` or `csoundKillInstance` would leave Csound's API lock held for ever:
    /// the engine's destruction (`csoundCleanup`) would then wait on it. `attach` lets it perform
    /// again. Sequentially consistent on both sides (the callback counts itself in, then reads
    /// `paused`; this stores `paused`, then reads the count).
    // Thread: NRT (owner or supervisor)
    func parkCallback() {
        state.pointee.paused.store(true, ordering: .sequentiallyConsistent)
        let seq = state.pointee.callbackSeq.load(ordering: .sequentiallyConsistent)
        guard seq & 1 == 1 else { return }
        while state.pointee.callbackSeq.load(ordering: .acquiring) == seq { Thread.sleep(forTimeInterval: 0.00005) }
    }

    /// The client's full name and sample rate/period, for messages.
    public var description: String {
        lock.withLock {
            guard let api, let e = _engine else { return "not connected" }
            return "\(api.clientName): \(api.sampleRate) Hz, period \(api.bufferSize), ksmps \(e.ksmps), \(inPorts.count) in / \(outPorts.count) out"
        }
    }

    public var portNames: (inputs: [String], outputs: [String]) {
        lock.withLock {
            guard let api else { return ([], []) }
            return (inPorts.map(api.portName), outPorts.map(api.portName))
        }
    }

    public var isConnected: Bool { lock.withLock { api != nil } }

    /// Whether any audio input port has a connection now (a session notes that live input was
    /// heard: replay cannot reproduce it unless input.wav was recorded).
    // Thread: NRT (any)
    public var inputConnected: Bool { lock.withLock { api.map { api in inPorts.contains { api.isConnected($0) } } ?? false } }

    /// JACK's current frame time (an estimate between callbacks), 0 when disconnected.
    public var frameTime: Int64 { lock.withLock { api?.frameTime ?? 0 } }

    public static var defaultServerName: String { JackAPI.defaultServerName }

    /// The JACK frame a wall-clock moment maps to (`secondsFromNow` ahead of now; negative:
    /// in the past), through JACK's own smoothed clock. nil when disconnected.
    // Thread: NRT (any; the OSC thread)
    public func frame(secondsFromNow: Double) -> Int64? {
        lock.withLock {
            guard let api else { return nil }
            let now = api.time
            let target = secondsFromNow >= 0 ? now &+ UInt64(secondsFromNow * 1e6)
                                             : now &- UInt64(min(-secondsFromNow * 1e6, Double(now)))
            return api.frames(atTime: target)
        }
    }

    /// JACK prints its own complaints ("Cannot connect to server socket") to stderr; Podium
    /// reports failures itself. With `verbose`, JACK's lines are shown, prefixed.
    // Thread: NRT (owner), before start
    public static func routeJackMessages(verbose: Bool) {
        JackAPI.routeMessages(verbose ? { msg in
            if let msg { FileHandle.standardError.write(Data("jack: \(String(cString: msg))\n".utf8)) }
        } : { _ in })
    }

    // MARK: producers and engine work — Thread: NRT

    /// A ring for one producer thread (REPL, OSC, MIDI, a script). At most eight.
    // Thread: NRT (owner)
    public func makeProducer() -> CommandProducer {
        lock.withLock {
            let index = state.pointee.ringCount.load(ordering: .acquiring)
            precondition(index < RTLimits.maxRings, "at most \(RTLimits.maxRings) command producers")
            let producer = CommandProducer(driver: self, ring: Ring<Command>(capacity: 4096), index: index)
            state.pointee.rings[index] = producer.ring.raw
            state.pointee.ringCount.store(index + 1, ordering: .releasing)
            producers.append(producer)
            return producer
        }
    }

    /// What a session needs to replay this performance.
    public var sessionFacts: SessionFacts {
        lock.withLock {
            let e = _engine!
            let values = e.channels().filter(\.isPerformerInput)
                .compactMap { c in (try? e.control(c.name)).map { (c.name, $0) } }
            return SessionFacts(sampleRate: Int(e.sampleRate), ksmps: e.ksmps, outputs: e.outputChannels, inputs: e.inputChannels,
                                seed: engineOptions.seed, cycle: state.pointee.cycleNow.load(ordering: .relaxed),
                                channels: Dictionary(values, uniquingKeysWith: { $1 }), outputLimit: jackOptions.outputLimit,
                                sampler: engineOptions.sampler)
        }
    }

    public var stats: DriverStats {
        let load: Double? = PipeWire.isJackLibrary ? nil : lock.withLock { api?.cpuLoad ?? 0 }
        let (sampleRate, ksmps) = lock.withLock { (_engine?.sampleRate ?? 48000, _engine?.ksmps ?? 0) }
        return DriverStats(counters: state.pointee.stats, sampleRate: sampleRate, ksmps: ksmps, dspLoad: load,
                           overflows: producers.reduce(0) { $0 + $1.ring.overflows } + appliedRing.overflows,
                           consoleDropped: lock.withLock { _engine?.console.droppedMessages ?? 0 })
    }

    /// Starts the callback-time statistics afresh (after a warm-up, say). Counts are kept.
    // Thread: NRT (owner)
    public func resetCallbackTimes() {
        podium_counter_store(state.pointee.stats + StatIndex.maxCallbackNs.rawValue, 0)
        podium_counter_store(state.pointee.stats + StatIndex.totalCallbackNs.rawValue, 0)
        for i in 0..<RTLimits.histogramBuckets { podium_counter_store(state.pointee.stats + RTLimits.histogramStart + i, 0) }
    }

    // MARK: internals — Thread: NRT

    /// Registers ports for the engine's channels, installs the callbacks, activates, connects.
    // Thread: NRT (owner or supervisor), before activation
    func attach(_ api: JackAPI) throws {
        let engine = lock.withLock { _engine! }
        var ins: [OpaquePointer] = [], outs: [OpaquePointer] = []
        for i in 0..<min(engine.inputChannels, RTLimits.maxPorts) { ins.append(try api.registerPort("in_\(i + 1)", input: true)) }
        for i in 0..<min(engine.outputChannels, RTLimits.maxPorts) { outs.append(try api.registerPort("out_\(i + 1)", input: false)) }
        let midi = try api.registerMIDIPort("midi_in")
        let midiOut = try api.registerMIDIPort("midi_out", input: false)
        state.pointee.midiPort = midi
        state.pointee.midiOutPort = midiOut
        for (i, p) in ins.enumerated() { state.pointee.inPorts[i] = p }
        for (i, p) in outs.enumerated() { state.pointee.outPorts[i] = p }
        state.pointee.inCount = ins.count
        state.pointee.outCount = outs.count
        state.pointee.client = api.client
        state.pointee.serverGone.store(false, ordering: .releasing)
        try api.setCallbacks(state: UnsafeMutableRawPointer(state))
        state.pointee.transportMode = jackOptions.transport.code
        state.pointee.midiClockMode = jackOptions.midiClock.code
        state.pointee.follower = TransportFollower.fresh
        if jackOptions.transport == .master { try api.becomeTimebaseMaster(state: UnsafeMutableRawPointer(state)) }
        try handoverLock.withLock {
            state.pointee.paused.store(false, ordering: .releasing)  // parked by a stop or a lost server
            state.pointee.callbacksMayRun.store(true, ordering: .releasing)
            do { try api.activate() } catch {
                state.pointee.callbacksMayRun.store(false, ordering: .releasing)
                throw error
            }
        }
        lock.withLock {
            self.api = api
            inPorts = ins
            outPorts = outs
            midiPort = midi
            midiOutPort = midiOut
        }
        if jackOptions.connect {
            var playback = api.physicalPorts(input: true)
            // PipeWire's session manager gives a sink its ports a moment after the server
            // answers: a reconnection can come in between (up to a second is waited for them).
            let deadline = ContinuousClock.now + .seconds(1)
            while playback.isEmpty, !outs.isEmpty, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.05)
                playback = api.physicalPorts(input: true)
            }
            if playback.isEmpty, !outs.isEmpty {
                lock.withLock { awaitingPlayback = true }
                onNotice?("no physical playback ports to connect the outputs to yet: they are connected when one appears (or connect them yourself; --no-connect says so at the start)")
            }
            let capture = api.physicalPorts(input: false)
            var pairs: [(String, String)] = []
            if !playback.isEmpty { for (i, p) in outs.enumerated() { pairs.append((api.portName(p), playback[i % playback.count])) } }
            if !capture.isEmpty { for (i, p) in ins.enumerated() { pairs.append((capture[i % capture.count], api.portName(p))) } }
            // A port left unconnected is said (the performance goes on: the performer can connect it).
            for (from, to) in pairs {
                do { try api.connect(from, to) } catch { onNotice?("could not connect \(from) to \(to): \(error)") }
            }
        }
        // Followers move with Podium's bars; the supervisor sees that JACK lets it roll. Started
        // once the ports are connected: on PipeWire, connecting to a sink moves the client to
        // the sink's driver, whose transport is its own.
        if jackOptions.transport == .master {
            api.startTransport()
            lock.withLock { masterStartUntil = .now + .seconds(2); masterLastStart = .now }
        }
    }

}
