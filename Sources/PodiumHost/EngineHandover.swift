import CAtomics
import CJack
import Foundation
import PodiumEngine
import PodiumRealtime
import Synchronization

// The driver's half of the handovers (engine bundle, record tap, binding table; the callback's
// half is in Adoption.swift). The callback is the only writer of what it owns:
// - while no callback can run (`callbacksMayRun` false: before activation, after deactivation,
//   after the client was closed because the server went away) the driver swaps directly;
// - otherwise it offers the value and waits for the callback to take it (`handoverTimeout`,
//   10 s). When that never comes it withdraws the offer (offered → idle) and throws
//   `HandoverError.timedOut`; when the callback had already begun to take it, it waits for the
//   callback to finish. It never writes an RT-owned field itself.
// The old value is handed back in `pending…` and freed here only after the callback let go.
// Counted in `DriverStats`: direct swaps, handshakes, withdrawn handovers.

/// A handover the callback did not take in time (withdrawn: nothing changed).
public enum HandoverError: Error, CustomStringConvertible {
    case timedOut(what: String, seconds: Double)
    case notRunning

    public var description: String {
        switch self {
        case let .timedOut(what, seconds):
            return "the audio thread did not take the new \(what) within \(seconds) s (is JACK stalled?); nothing changed"
        case .notRunning:
            return "the driver is not running"
        }
    }
}

/// What is handed over.
enum HandoverSlot: String {
    case engine, tap = "recording tap", bindings = "binding table"
}

extension JackDriver {
    // MARK: the handshake — Thread: NRT (owner or supervisor)

    /// Offers what `offer` wrote into the slot's `pending…` field (called while the slot is idle,
    /// under `handoverLock`) and returns once the callback (or, with no callback able to run,
    /// this thread) has adopted it: `pending…` then holds the old value.
    // Thread: NRT (owner or supervisor)
    func handOver(_ slot: HandoverSlot, offer: (UnsafeMutablePointer<RTState>) -> Void) throws {
        try handoverLock.withLock {
            offer(state)
            setHandover(slot, .offered)
            if !state.pointee.callbacksMayRun.load(ordering: .acquiring) {
                adopt(slot)
                count(.directSwaps)
                setHandover(slot, .idle)
                return
            }
            let deadline = ContinuousClock.now + .seconds(handoverTimeout)
            while handover(slot) != .taken {
                if !state.pointee.callbacksMayRun.load(ordering: .acquiring) {
                    // The client was closed meanwhile: no callback takes it any more, nor is inside one.
                    adopt(slot)
                    continue
                }
                if ContinuousClock.now > deadline {
                    if withdraw(slot) {
                        count(.withdrawnHandovers)
                        throw HandoverError.timedOut(what: slot.rawValue, seconds: handoverTimeout)
                    }
                    // The callback is taking it: that ends within the callback.
                    while handover(slot) != .taken { Thread.sleep(forTimeInterval: 0.00005) }
                    break
                }
                Thread.sleep(forTimeInterval: 0.0005)
            }
            count(.handshakes)
            setHandover(slot, .idle)
        }
    }

    // Thread: NRT (under handoverLock, or while no callback can run)
    private func adopt(_ slot: HandoverSlot) {
        switch slot {
        case .engine: adoptPendingEngine(state)
        case .tap: adoptPendingTap(state)
        case .bindings: adoptPendingBindings(state)
        }
    }

    // Thread: NRT
    private func handover(_ slot: HandoverSlot) -> HandoverState {
        let raw: Int
        switch slot {
        case .engine: raw = state.pointee.engineHandover.load(ordering: .acquiring)
        case .tap: raw = state.pointee.tapHandover.load(ordering: .acquiring)
        case .bindings: raw = state.pointee.bindingsHandover.load(ordering: .acquiring)
        }
        return HandoverState(rawValue: raw) ?? .idle
    }

    // Thread: NRT
    private func setHandover(_ slot: HandoverSlot, _ value: HandoverState) {
        switch slot {
        case .engine: state.pointee.engineHandover.store(value.rawValue, ordering: .releasing)
        case .tap: state.pointee.tapHandover.store(value.rawValue, ordering: .releasing)
        case .bindings: state.pointee.bindingsHandover.store(value.rawValue, ordering: .releasing)
        }
    }

    /// offered → idle, unless the callback has begun to take it.
    // Thread: NRT
    private func withdraw(_ slot: HandoverSlot) -> Bool {
        let offered = HandoverState.offered.rawValue, idle = HandoverState.idle.rawValue
        switch slot {
        case .engine: return state.pointee.engineHandover.compareExchange(expected: offered, desired: idle, ordering: .acquiringAndReleasing).exchanged
        case .tap: return state.pointee.tapHandover.compareExchange(expected: offered, desired: idle, ordering: .acquiringAndReleasing).exchanged
        case .bindings: return state.pointee.bindingsHandover.compareExchange(expected: offered, desired: idle, ordering: .acquiringAndReleasing).exchanged
        }
    }

    // Thread: NRT
    func count(_ index: StatIndex) {
        podium_counter_add(state.pointee.stats + index.rawValue, 1)
    }

    // MARK: the engine — Thread: NRT

    // Thread: NRT (owner or supervisor)
    func makeEngine(sampleRate: Int, ksmps: Int) throws -> Engine {
        try Engine.forPerformance(source: source, options: engineOptions, sampleRate: sampleRate, ksmps: ksmps,
                                  liveOrchestras: lock.withLock { liveOrchestras })
    }

    /// Gives the audio thread a started engine, with its generation, sample rate and sample
    /// accuracy in one bundle.
    // Thread: NRT (owner or supervisor)
    func handOver(_ engine: Engine, generation: UInt32) throws {
        updateInstrumentBound(engine)
        let bundle = EngineBundle(engine: engine.realtime, generation: generation,
                                  sampleRate: engine.sampleRate, sampleAccurate: engineOptions.sampleAccurate)
        try handOver(.engine) { $0.pointee.pendingEngine = bundle }
    }

    /// Builds a new engine with the same orchestra and channel values and swaps it in. When the
    /// callback does not take it, the old engine keeps playing (with its bindings) and this throws.
    // Thread: NRT (supervisor, or the owner through `restartEngine`)
    func rebuild(sampleRate: Int, ksmps: Int) throws {
        state.pointee.paused.store(true, ordering: .releasing)
        defer { state.pointee.paused.store(false, ordering: .releasing) }
        let old = lock.withLock { _engine! }
        let values = old.channels().filter(\.isPerformerInput)
            .compactMap { c in (try? old.control(c.name)).map { (c.name, $0) } }
        let new = try makeEngine(sampleRate: sampleRate, ksmps: ksmps)
        for (name, value) in values {
            do { try new.setControl(name, value) } catch {
                onNotice?("engine rebuild: channel \(name) could not keep its value \(value): \(error)")
            }
        }
        drainSideRings()
        // The old engine's channel pointers die with it: the audio thread lets go of the table first.
        try bindingLock.withLock { try feedBindings(nil) }
        let lastCycle = state.pointee.cycleNow.load(ordering: .acquiring)  // paused: it stays
        let generation = lock.withLock { self.generation } &+ 1
        do {
            try handOver(new, generation: generation)
        } catch {
            bindingLock.withLock { rebindReporting() }  // the old engine plays on, with its bindings
            throw error
        }
        lock.withLock {
            self.generation = generation
            channelCache = [:]
            stringCache = [:]
            journal.forgetChannels()
            journal.engine(ksmps: ksmps, after: lastCycle)
        }
        for l in old.console.flush() { onConsole?(l) }
        lock.withLock { _engine = new }  // the old engine is destroyed here, on this thread
        bindingLock.withLock { rebindReporting() }
    }

    /// Rebuilds the engine at another ksmps (a divisor of the period), as a period change does.
    /// The supervisor does it (the one thread that drains what the audio thread applied);
    /// this waits for the result.
    // Thread: NRT (owner)
    public func restartEngine(ksmps: Int) throws {
        if let period = lock.withLock({ api?.bufferSize }) { _ = try Alignment.ksmps(period: period, requested: ksmps) }
        guard running.load(ordering: .acquiring) else { throw HandoverError.notRunning }
        restartRequest.withLock { $0 = ksmps }
        while restartDone.wait(timeout: .now() + 0.1) == .timedOut {
            // Stopped before the supervisor saw it: take the request back.
            if !running.load(ordering: .acquiring), restartRequest.withLock({ r in defer { r = nil }; return r != nil }) {
                throw HandoverError.notRunning
            }
        }
        if let error = lock.withLock({ restartError }) { throw error }
    }

    /// Carries out a `restartEngine` request.
    // Thread: NRT (supervisor)
    func restartIfRequested() {
        guard let ksmps = restartRequest.withLock({ r -> Int? in defer { r = nil }; return r }) else { return }
        var failure: Error?
        do { try rebuild(sampleRate: Int(lock.withLock { _engine!.sampleRate }), ksmps: ksmps) } catch { failure = error }
        lock.withLock { restartError = failure }
        restartDone.signal()
    }

    // MARK: recording — Thread: NRT

    /// Starts feeding `tap` from the audio thread at its next callback (nil: stop feeding).
    /// Returns once the audio thread has taken it over (directly while no callback can run),
    /// with the k-cycle of the first block it will write; after that the audio thread no
    /// longer touches the previous tap. Throws `HandoverError.timedOut` when the callback did
    /// not take it (nothing changed: the previous tap is still being fed).
    // Thread: NRT (owner)
    @discardableResult
    public func feed(_ tap: RecordTap?) throws -> Int64 {
        try handOver(.tap) { $0.pointee.pendingTap = tap?.rt }
        return state.pointee.tapStartCycle.load(ordering: .relaxed)
    }
}
