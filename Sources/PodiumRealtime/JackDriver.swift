import CJack
import Foundation
import PodiumEngine
import Synchronization

/// How to meet JACK.
public struct JackOptions: Sendable {
    public var clientName = "podium"
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

    public init(clientName: String = "podium", serverName: String? = nil, connect: Bool = true, ksmps: Int? = nil,
                outputLimit: Double? = 1) {
        self.outputLimit = outputLimit
        self.clientName = clientName
        self.serverName = serverName
        self.connect = connect
        self.ksmps = ksmps
    }
}

/// Runs an engine inside the JACK process callback and keeps it running: engine rebuilds
/// when the period stops dividing by ksmps, reconnection when the server goes away.
///
/// Threads: the owner (NRT) calls start/stop/compile; producers post from their own thread;
/// a supervisor thread (NRT) drains the applied ring and the console, and handles JACK's events.
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
    private var _engine: Engine?
    private var generation: UInt32 = 1
    private var liveOrchestras: [String] = []
    private var channelCache: [String: UnsafeMutablePointer<Double>] = [:]
    private var stringCache: [String: (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?)] = [:]
    private var api: JackAPI?
    private var inPorts: [OpaquePointer] = []
    private var midiPort: OpaquePointer?
    private var outPorts: [OpaquePointer] = []

    let state: UnsafeMutablePointer<RTState>
    let appliedRing = Ring<Applied>(capacity: 8192)
    private var producers: [CommandProducer] = []
    private let running = Atomic<Bool>(false)
    private var supervisor: Thread?
    private let supervisorDone = DispatchSemaphore(value: 0)

    /// Bindings (MIDI CC maps, learned controllers, bound outputs) and their current table.
    private var bindingList: [Binding] = []
    private var bindingTable: BindingTable?
    private let bindingLock = NSLock()
    /// `:learn`: the channel the next moved controller is bound to.
    private var learning: String?
    /// Notes held on MIDI now (for `:chord`).
    private var held: Set<Int> = []

    /// Everything applied, from the engine's start, with k-cycles (sessions record it).
    public let journal = Journal()

    /// Called on the supervisor thread for everything the audio thread applied.
    public var onApplied: (@Sendable (Applied) -> Void)?
    /// Called on the supervisor thread for each console line.
    public var onConsole: (@Sendable (ConsoleLine) -> Void)?
    /// Called on the supervisor thread (or the caller's) for driver notices: restarts, reconnections.
    public var onNotice: (@Sendable (String) -> Void)?

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
    }

    deinit {
        stop()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The engine performing now. Hold no reference across a rebuild.
    public var engine: Engine {
        lock.withLock { _engine! }
    }

    // MARK: start / stop — Thread: NRT (owner)

    public func start() throws {
        let api = try JackAPI.open(name: jackOptions.clientName, server: jackOptions.serverName)
        do {
            let ksmps = try Alignment.ksmps(period: api.bufferSize, requested: jackOptions.ksmps)
            let engine = try makeEngine(sampleRate: api.sampleRate, ksmps: ksmps)
            lock.withLock { _engine = engine }
            journal.engine(ksmps: ksmps, after: 0)
            handOver(engine, adoptDirectly: true)
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
    public func stop() {
        if running.exchange(false, ordering: .acquiringAndReleasing) {
            supervisorDone.wait()
        }
        lock.withLock {
            if let api {
                api.deactivate()
                for p in inPorts + outPorts + (midiPort.map { [$0] } ?? []) { api.unregisterPort(p) }
                api.close()
            }
            api = nil
            inPorts = []
            outPorts = []
        }
        drainSideRings()
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

    /// JACK's current frame time (an estimate between callbacks), 0 when disconnected.
    public var frameTime: Int64 { lock.withLock { api?.frameTime ?? 0 } }

    public static var defaultServerName: String { JackAPI.defaultServerName }

    /// The JACK frame a wall-clock moment maps to (`secondsFromNow` ahead of now; negative:
    /// in the past), through JACK's own smoothed clock. nil when disconnected.
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
    public static func routeJackMessages(verbose: Bool) {
        JackAPI.routeMessages(verbose ? { msg in
            if let msg { FileHandle.standardError.write(Data("jack: \(String(cString: msg))\n".utf8)) }
        } : { _ in })
    }

    // MARK: producers and engine work — Thread: NRT

    /// A ring for one producer thread (REPL, OSC, MIDI, a script). At most eight.
    public func makeProducer() -> CommandProducer {
        lock.withLock {
            let index = state.pointee.ringCount.load(ordering: .acquiring)
            precondition(index < RTLimits.maxRings, "at most \(RTLimits.maxRings) command producers")
            let producer = CommandProducer(driver: self, ring: Ring<Command>(capacity: 4096))
            state.pointee.rings[index] = producer.ring.raw
            state.pointee.ringCount.store(index + 1, ordering: .releasing)
            producers.append(producer)
            return producer
        }
    }

    /// A string channel's storage and lock (cached), and the current generation.
    func stringChannel(_ name: String) throws -> (UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>?, UInt32) {
        try lock.withLock {
            if let s = stringCache[name] { return (s.0, s.1, generation) }
            let s = try _engine!.stringChannelStorage(name)
            stringCache[name] = s
            journal.name(s.0.assumingMemoryBound(to: Double.self), name)
            return (s.0, s.1, generation)
        }
    }

    /// Current generation and a cached pointer to a declared control channel.
    func channel(_ name: String) throws -> (UnsafeMutablePointer<Double>, UInt32) {
        try lock.withLock {
            if let p = channelCache[name] { return (p, generation) }
            let p = try _engine!.controlChannelPointer(name)
            channelCache[name] = p
            journal.name(p, name)
            return (p, generation)
        }
    }

    var currentGeneration: UInt32 { lock.withLock { generation } }

    /// The number of an instrument given by name (resolved once its compile has merged).
    public func instrumentNumber(named name: String) -> Double? {
        lock.withLock { _engine?.instrumentNumber(named: name) }
    }

    /// Hot reload: parsed and checked on this thread (errors at once, nothing changes),
    /// merged by the audio thread at its next k-cycle. Returns the merge marker (see `Applied.compileMerged`).
    /// Returns once the audio thread has merged it (or after a second without a callback, e.g.
    /// while the server is away), so that events posted afterwards find the new instruments:
    /// the callback applies commands before `csoundPerformKsmps` merges pending compiles.
    public func compile(_ text: String, source: String) throws -> UInt64 {
        RecentInputs.note("compile \(source): \(text.prefix(120))")
        // Csound's parser must not crash or longjmp while the engine performs: checked first.
        try OrchestraCheck.lexical(text, source: source)
        try OrchestraCheck.inChild(text, source: source, options: searchOptions)
        // vco2init run again replaces the tables that playing vco2 voices read (a crash).
        if OrchestraCheck.mentions(text, "vco2init"), lock.withLock({ _engine!.orchestraTexts.contains { OrchestraCheck.mentions($0, "vco2") } }) {
            throw EngineError.compile(CompileFailure(source: source, diagnostics: [
                "error: vco2init while vco2 tables exist would replace them under the voices reading them; not compiled (run it once, at the start of the orchestra)"]))
        }
        let marker = try lock.withLock {
            let marker = try _engine!.compileOrchestraAsync(text, source: source)
            liveOrchestras.append(text)
            // Journaled under the lock the supervisor takes to note merges: never stamped late.
            journal.compiled(text, source: source, marker: marker, register: true)
            return marker
        }
        waitForMerge(marker)
        return UInt64(marker)
    }

    /// Where the orchestra's files are found (for the parser's check in a child process).
    private var searchOptions: [String] {
        switch source {
        case let .csd(path), let .orchestra(path, _): return Engine.searchOptions(beside: path)
        case .text: return []
        }
    }

    private func waitForMerge(_ marker: Double, timeout: Double = 1) {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let v = try? engine.control("podium.merged"), v >= marker { return }
            Thread.sleep(forTimeInterval: 0.0005)
        }
    }

    /// Runs global code on the audio thread (an async compile that is not part of the
    /// orchestra: not recompiled on rebuilds) and waits until it has merged, up to `timeout`.
    /// For questions only the audio thread can answer (`active`, table values…).
    public func evaluate(_ code: String, timeout: Double = 1) throws -> Bool {
        let marker = try lock.withLock {
            let marker = try _engine!.compileOrchestraAsync(code, source: "podium", register: false)
            journal.compiled(code, source: "podium", marker: marker, register: false)
            return marker
        }
        waitForMerge(marker, timeout: timeout)
        return ((try? engine.control("podium.merged")) ?? 0) >= marker
    }

    /// Score text read by the audio thread at its next k-cycle. Returns its marker (`Applied.scoreRead`).
    public func readScore(_ text: String) -> UInt64 {
        lock.withLock {
            let marker = _engine!.readScoreAsync(text)
            journal.scored(text, marker: marker)
            return UInt64(marker)
        }
    }

    /// Sets a string channel from the non-real-time side: for text longer than the storage the
    /// engine reserved (`Engine.stringCapacity`), which only Csound can grow. (Shorter text goes
    /// through `CommandProducer.setString`, applied on an exact k-cycle.) It waits for a moment
    /// between two callbacks (at most a period) and sets it there; the journal stamps it with
    /// the next k-cycle, exact unless a callback starts during the copy.
    public func setString(_ name: String, _ value: String) throws {
        try lock.withLock {
            let deadline = Date().addingTimeInterval(0.05)
            while state.pointee.callbackSeq.load(ordering: .acquiring) & 1 == 1 && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.00005)
            }
            // The first k-cycle of the next callback is the first to see it. (A callback that
            // starts during the copy reads the channel microseconds later, inside Csound.)
            let cycle = state.pointee.cycleNow.load(ordering: .acquiring)
            try _engine!.setString(name, value)
            journal.string(name, value, cycle: cycle)
        }
    }

    // MARK: recording — Thread: NRT

    /// Starts feeding `tap` from the audio thread at its next callback (nil: stop feeding).
    /// Returns once the audio thread has taken it over (or after a second without callbacks),
    /// with the k-cycle of the first block it will write.
    @discardableResult
    public func feed(_ tap: RecordTap?) -> Int64 {
        state.pointee.pendingTap = tap?.rt
        state.pointee.tapSwap.store(1, ordering: .releasing)
        let deadline = Date().addingTimeInterval(1)
        while state.pointee.tapSwap.load(ordering: .acquiring) != 2 && Date() < deadline && isConnected {
            Thread.sleep(forTimeInterval: 0.001)
        }
        // No callback ran (stopped, or the server is away): nothing is using the old tap.
        if state.pointee.tapSwap.load(ordering: .acquiring) != 2 { adoptPendingTap(state) }
        return state.pointee.tapStartCycle.load(ordering: .relaxed)
    }

    // MARK: bindings — Thread: NRT

    /// Replaces the bindings (set up: channels resolved, a new table handed to the audio thread,
    /// the old one freed here once it has let go). Throws for a channel the orchestra lacks.
    public func setBindings(_ bindings: [Binding]) throws {
        try bindingLock.withLock {
            let old = bindingList
            bindingList = bindings
            do { try rebind() } catch { bindingList = old; throw error }
        }
    }

    public func addBinding(_ binding: Binding) throws {
        try setBindings(bindingLock.withLock { bindingList } + [binding])
    }

    public var bindings: [Binding] { bindingLock.withLock { bindingList } }

    /// A bound output channel's value after the last k-cycle (nil: not bound).
    public func outputValue(_ name: String) -> Double? {
        bindingLock.withLock { bindingTable?.value(name) }
    }

    /// Binds the next MIDI controller that moves to `channel`, over the channel's declared range.
    public func learn(_ channel: String) throws {
        try InputCheck.channelName(channel)
        _ = try self.channel(channel)
        bindingLock.withLock { learning = channel }
    }

    /// The MIDI notes held now.
    public var heldNotes: [Int] { bindingLock.withLock { held.sorted() } }

    // Thread: NRT, under bindingLock
    private func rebind() throws {
        let table = try BindingTable(bindingList) { name in try self.channel(name).0 }
        feedBindings(table)
    }

    // Thread: NRT, under bindingLock
    private func feedBindings(_ table: BindingTable?) {
        state.pointee.pendingBindings = table?.rt
        state.pointee.bindingsSwap.store(1, ordering: .releasing)
        let deadline = Date().addingTimeInterval(1)
        while state.pointee.bindingsSwap.load(ordering: .acquiring) != 2 && Date() < deadline && isConnected {
            Thread.sleep(forTimeInterval: 0.001)
        }
        if state.pointee.bindingsSwap.load(ordering: .acquiring) != 2 {
            state.pointee.bindings = state.pointee.pendingBindings   // no callback runs: take it over here
            state.pointee.bindingsSwap.store(2, ordering: .releasing)
        }
        bindingTable = table  // the previous table is freed here, after the audio thread let go
    }

    /// Held notes for `:chord`; `:learn` takes the next controller.
    // Thread: the supervisor
    private func noteMIDI(_ c: Command) {
        guard c.count >= 2 else { return }
        var pf = c.pfields
        let b = withUnsafeBytes(of: &pf) { Array($0.prefix(Int(c.count))) }
        let kind = b[0] & 0xF0
        var learned: Binding?
        bindingLock.withLock {
            if kind == 0x90, b.count == 3, b[2] > 0 { held.insert(Int(b[1])) }
            else if kind == 0x80 || (kind == 0x90 && b.count == 3 && b[2] == 0) { held.remove(Int(b[1])) }
            if kind == 0xB0, let target = learning {
                learning = nil
                let range = lock.withLock { _engine?.channels().first { $0.name == target }?.range }
                learned = Binding(source: .midiCC(midiChannel: Int(b[0] & 0x0F) + 1, controller: Int(b[1])), channel: target,
                                  output: (range.map { $0.minimum...max($0.maximum, $0.minimum) }) ?? 0...1)
            }
        }
        if let learned {
            do {
                try addBinding(learned)
                if case let .midiCC(ch, cc) = learned.source {
                    onNotice?("learned: MIDI controller \(cc) on channel \(ch ?? 0) → \(learned.channel) (\(learned.output.lowerBound)…\(learned.output.upperBound))")
                }
            } catch { onNotice?("cannot bind \(learned.channel): \(error)") }
        }
    }

    /// What a session needs to replay this performance.
    public var sessionFacts: SessionFacts {
        lock.withLock {
            let e = _engine!
            let values = e.channels().filter { $0.kind == .control && $0.isInput && !$0.name.hasPrefix("podium.") }
                .compactMap { c in (try? e.control(c.name)).map { (c.name, $0) } }
            return SessionFacts(sampleRate: Int(e.sampleRate), ksmps: e.ksmps, outputs: e.outputChannels, inputs: e.inputChannels,
                                seed: engineOptions.seed, cycle: state.pointee.cycleNow.load(ordering: .relaxed),
                                channels: Dictionary(values, uniquingKeysWith: { $1 }), outputLimit: jackOptions.outputLimit)
        }
    }

    public var stats: DriverStats {
        let load = lock.withLock { api?.cpuLoad ?? 0 }
        return DriverStats(counters: state.pointee.stats, sampleRate: state.pointee.sampleRate,
                           ksmps: lock.withLock { _engine?.ksmps ?? 0 }, dspLoad: load,
                           overflows: producers.reduce(0) { $0 + $1.ring.overflows } + appliedRing.overflows,
                           consoleDropped: lock.withLock { _engine?.console.droppedMessages ?? 0 })
    }

    /// Starts the callback-time statistics afresh (after a warm-up, say). Counts are kept.
    public func resetCallbackTimes() {
        podium_counter_store(state.pointee.stats + StatIndex.maxCallbackNs.rawValue, 0)
        podium_counter_store(state.pointee.stats + StatIndex.totalCallbackNs.rawValue, 0)
        for i in 0..<RTLimits.histogramBuckets { podium_counter_store(state.pointee.stats + RTLimits.histogramStart + i, 0) }
    }

    // MARK: internals — Thread: NRT

    private func makeEngine(sampleRate: Int, ksmps: Int) throws -> Engine {
        try Engine.forPerformance(source: source, options: engineOptions, sampleRate: sampleRate, ksmps: ksmps,
                                  liveOrchestras: lock.withLock { liveOrchestras })
    }

    /// Gives the audio thread a started engine. With no callback running, directly.
    private func handOver(_ engine: Engine, adoptDirectly: Bool) {
        state.pointee.pendingEngine = engine.realtime
        state.pointee.pendingGeneration = lock.withLock { generation }
        state.pointee.sampleRate = engine.sampleRate
        state.pointee.sampleAccurate = engineOptions.sampleAccurate
        state.pointee.swap.store(1, ordering: .releasing)
        if adoptDirectly { adoptPendingEngine(state) }
    }

    /// Registers ports for the engine's channels, installs the callbacks, activates, connects.
    private func attach(_ api: JackAPI) throws {
        let engine = lock.withLock { _engine! }
        var ins: [OpaquePointer] = [], outs: [OpaquePointer] = []
        for i in 0..<min(engine.inputChannels, RTLimits.maxPorts) { ins.append(try api.registerPort("in_\(i + 1)", input: true)) }
        for i in 0..<min(engine.outputChannels, RTLimits.maxPorts) { outs.append(try api.registerPort("out_\(i + 1)", input: false)) }
        let midi = try api.registerMIDIPort("midi_in")
        state.pointee.midiPort = midi
        for (i, p) in ins.enumerated() { state.pointee.inPorts[i] = p }
        for (i, p) in outs.enumerated() { state.pointee.outPorts[i] = p }
        state.pointee.inCount = ins.count
        state.pointee.outCount = outs.count
        state.pointee.client = api.client
        state.pointee.serverGone.store(false, ordering: .releasing)
        try api.setCallbacks(state: UnsafeMutableRawPointer(state))
        try api.activate()
        lock.withLock {
            self.api = api
            inPorts = ins
            outPorts = outs
            midiPort = midi
        }
        if jackOptions.connect {
            let playback = api.physicalPorts(input: true), capture = api.physicalPorts(input: false)
            if !playback.isEmpty { for (i, p) in outs.enumerated() { try? api.connect(api.portName(p), playback[i % playback.count]) } }
            if !capture.isEmpty { for (i, p) in ins.enumerated() { try? api.connect(capture[i % capture.count], api.portName(p)) } }
        }
    }

    private func supervise() {
        // Below the JACK threads (which run without real-time priority under jackd -r):
        // console floods and journaling wait, the audio does not.
        _ = podium_nice_current_thread(5)
        var lastSync = ContinuousClock.now
        while running.load(ordering: .acquiring) {
            // Everything the audio thread applied before this cycle is in the applied ring now.
            let through = state.pointee.cycleNow.load(ordering: .acquiring) - 1
            drainSideRings()
            if ContinuousClock.now - lastSync >= .seconds(1), through >= 0 {
                lastSync = ContinuousClock.now
                journal.sync(through: through)
            }
            if state.pointee.serverGone.load(ordering: .acquiring) { reconnect() }
            let misaligned = state.pointee.misalignedPeriod.load(ordering: .acquiring)
            if misaligned != 0 { realign(period: misaligned) }
            Thread.sleep(forTimeInterval: 0.01)
        }
        drainSideRings()
        supervisorDone.signal()
    }

    private func drainSideRings() {
        reportOutputGuard()
        while let a = appliedRing.pop() {
            if a.kind == .midi { noteMIDI(a.command) }
            if a.kind == .tableRefused {
                let p = a.command.fields
                onNotice?("f \(InputCheck.describe(p[0])) refused: table \(InputCheck.describe(p[0])) exists with \(InputCheck.describe(a.command.value)) points, and Csound would free it under the notes reading it; use another table number or the same size")
                continue
            }
            if a.kind == .compileMerged || a.kind == .scoreRead {
                lock.withLock { journal.applied(a) }
            } else {
                journal.applied(a)
            }
            onApplied?(a)
        }
        journal.flush()
        if let lines = lock.withLock({ _engine?.console.drain() }) { for l in lines { onConsole?(l) } }
    }

    /// Says once that the output guard silenced a non-finite k-cycle, and once that it clipped.
    private func reportOutputGuard() {
        if state.pointee.sawNonFinite.exchange(false, ordering: .relaxed), !reportedNonFinite {
            reportedNonFinite = true
            onNotice?("the orchestra computed a NaN or an infinite sample: each such k-cycle is silenced (counted in :status)")
        }
        if state.pointee.sawClipping.exchange(false, ordering: .relaxed), !reportedClipping {
            reportedClipping = true
            let limit = jackOptions.outputLimit.map { String(format: "%.1f dBFS", 20 * log10($0)) } ?? "none"
            onNotice?("output clipped at the safety limit (\(limit)); clipped samples are counted in :status")
        }
    }
    private var reportedNonFinite = false
    private var reportedClipping = false

    /// After a fatal signal: waits (at most half a second) for the supervisor to journal what
    /// the audio thread applied, then notes that the journal is complete through the last
    /// k-cycle. Returns false when the supervisor did not drain (the journal then claims nothing).
    // Thread: the crash guard's
    public func journalAfterCrash() -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(500)
        while state.pointee.applied.hasRecord {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        Thread.sleep(forTimeInterval: 0.02)  // the drain that emptied it hands its lines to the journal
        journal.sync(through: state.pointee.cycleNow.load(ordering: .acquiring) - 1)
        return true
    }

    /// The period no longer divides by ksmps: rebuild the engine at an aligned ksmps,
    /// recompiling the orchestra and restoring channel values.
    private func realign(period: Int) {
        let oldKsmps = lock.withLock { _engine!.ksmps }
        let ksmps = Alignment.realign(ksmps: oldKsmps, newPeriod: period)
        onNotice?("JACK period is now \(period), which ksmps \(oldKsmps) does not divide: restarting the engine at ksmps \(ksmps)")
        do {
            try rebuild(sampleRate: Int(state.pointee.sampleRate), ksmps: ksmps, adoptDirectly: false)
            onNotice?("engine restarted at ksmps \(ksmps); channel values restored")
        } catch {
            onNotice?("engine restart failed: \(error); output stays silent")
        }
    }

    /// Builds a new engine with the same orchestra and channel values and swaps it in.
    private func rebuild(sampleRate: Int, ksmps: Int, adoptDirectly: Bool) throws {
        state.pointee.paused.store(true, ordering: .releasing)
        defer { state.pointee.paused.store(false, ordering: .releasing) }
        let old = lock.withLock { _engine! }
        let values = old.channels().filter { $0.kind == .control && $0.isInput && !$0.name.hasPrefix("podium.") }
            .compactMap { c in (try? old.control(c.name)).map { (c.name, $0) } }
        let new = try makeEngine(sampleRate: sampleRate, ksmps: ksmps)
        for (name, value) in values { try? new.setControl(name, value) }
        drainSideRings()
        // The old engine's channel pointers die with it: the audio thread lets go of the table first.
        bindingLock.withLock { feedBindings(nil) }
        lock.withLock {
            generation &+= 1
            channelCache = [:]
            stringCache = [:]
            journal.forgetChannels()
            journal.engine(ksmps: ksmps, after: state.pointee.cycle)
        }
        handOver(new, adoptDirectly: adoptDirectly)
        if !adoptDirectly {
            let deadline = Date().addingTimeInterval(2)
            while state.pointee.swap.load(ordering: .acquiring) != 2 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            if state.pointee.swap.load(ordering: .acquiring) != 2 { adoptPendingEngine(state) }  // no callbacks: take it over here
        }
        for l in old.console.flush() { onConsole?(l) }
        lock.withLock { _engine = new }  // the old engine is destroyed here, on this thread
        bindingLock.withLock { try? rebind() }
    }

    /// The server went away: close the client here (never in JACK's shutdown callback),
    /// keep the engine, and poll until a server is back.
    private func reconnect() {
        onNotice?("JACK server went away: the engine keeps its state; waiting for a server")
        lock.withLock {
            api?.close()
            api = nil
            inPorts = []
            outPorts = []
        }
        state.pointee.client = nil
        state.pointee.midiPort = nil
        state.pointee.inCount = 0
        state.pointee.outCount = 0
        while running.load(ordering: .acquiring) {
            Thread.sleep(forTimeInterval: jackOptions.reconnectInterval)
            drainSideRings()
            guard let api = try? JackAPI.open(name: jackOptions.clientName, server: jackOptions.serverName) else { continue }
            do {
                let engine = lock.withLock { _engine! }
                let sr = api.sampleRate, period = api.bufferSize
                if sr != Int(engine.sampleRate) || period % engine.ksmps != 0 {
                    try rebuild(sampleRate: sr, ksmps: Alignment.realign(ksmps: engine.ksmps, newPeriod: period), adoptDirectly: true)
                }
                try attach(api)
                onNotice?("reconnected to JACK: \(description)")
                return
            } catch {
                onNotice?("reconnecting to JACK failed: \(error); trying again")
                api.close()
            }
        }
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
}

/// One producer's way into the audio thread (one thread per producer).
public final class CommandProducer: @unchecked Sendable {
    unowned let driver: JackDriver
    let ring: Ring<Command>
    private var nextID: UInt64 = 0

    init(driver: JackDriver, ring: Ring<Command>) {
        self.driver = driver
        self.ring = ring
    }

    /// Posts a command once `InputCheck` has passed it (the audio thread applies nothing
    /// unchecked); returns its id, or nil when the ring is full (counted).
    // Thread: this producer's thread
    @discardableResult
    public func post(_ command: Command) throws(InputError) -> UInt64? {
        try InputCheck.command(command)
        if command.kind == .event || command.kind == .table {
            RecentInputs.note((command.kind == .event ? "i " : "f ") + command.fields.map(InputCheck.describe).joined(separator: " "))
        }
        var c = command
        nextID += 1
        c.id = nextID
        if c.generation == 0 { c.generation = driver.currentGeneration }
        return ring.push(c) ? nextID : nil
    }

    /// A score event now (or at `frame`).
    @discardableResult
    public func event(_ pfields: [Double], frame: Int64 = 0) throws(InputError) -> UInt64? {
        try InputCheck.note(pfields)
        return try post(.event(pfields, frame: frame))
    }

    /// An f statement (a function table) now (or at `frame`).
    @discardableResult
    public func table(_ pfields: [Double], frame: Int64 = 0) throws(InputError) -> UInt64? {
        try TableStatement.check(pfields)
        return try post(Command(kind: .table, frame: frame, pfields: pfields))
    }

    /// Sets a string channel on the audio thread, on an exact k-cycle, when the text fits the
    /// storage the engine reserved (up to `Engine.stringCapacity - 1` bytes); longer text is set
    /// from this thread between two callbacks (`JackDriver.setString`).
    @discardableResult
    public func setString(_ name: String, _ value: String, frame: Int64 = 0) throws -> UInt64? {
        try InputCheck.channelName(name)
        let (storage, lock, generation) = try driver.stringChannel(name)
        let bytes = Array(value.utf8)
        guard bytes.count < min(RTEngine.stringCapacity(storage), Command.maxPFields * 8), !bytes.contains(0) else {
            try driver.setString(name, value)
            return 0
        }
        var c = Command(kind: .setString, frame: frame)
        c.storage = storage
        c.lock = lock
        c.count = Int32(bytes.count)
        withUnsafeMutableBytes(of: &c.pfields) { p in
            for (i, b) in bytes.enumerated() { p[i] = b }
        }
        c.generation = generation
        return try post(c)
    }

    /// Sets a declared control channel (or holds it for one k-cycle with `momentary`).
    @discardableResult
    public func set(_ name: String, _ value: Double, momentary: Bool = false, frame: Int64 = 0) throws -> UInt64? {
        try InputCheck.channelValue(value, channel: name)
        let (p, generation) = try driver.channel(name)
        var c = Command(kind: momentary ? .momentary : .setControl, frame: frame, channel: p, value: value)
        c.generation = generation
        return try post(c)
    }

    public var overflows: UInt64 { ring.overflows }
}
