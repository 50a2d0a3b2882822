import PodiumEngine
import Synchronization

// The callback's half of the handovers (see `HandoverState` and `JackDriver.handOver`): the
// callback is the only writer of what it owns. It takes an offer (offered → taking), swaps the
// pending value with its own — handing the old one back in `pending…` — and marks it taken;
// the driver frees the old value on its own thread after that. While no callback can run, the
// driver calls these same functions itself (a direct swap).

/// Claims an offer; false when there is none (or the driver withdrew it).
// Thread: RT (or NRT while no callback can run)
@_noLocks @_noAllocation @inline(__always)
func takeOffer(_ flag: borrowing Atomic<Int>) -> Bool {
    let (offered, taking) = _unsafePerformance { (HandoverState.offered.rawValue, HandoverState.taking.rawValue) }
    return flag.compareExchange(expected: offered, desired: taking, ordering: .acquiringAndReleasing).exchanged
}

/// Takes over an engine bundle the driver prepared (first start, or a rebuild at a new ksmps):
/// the engine with its generation, sample rate and sample accuracy.
// Thread: RT (or NRT while no callback can run)
@_noLocks @_noAllocation
package func adoptPendingEngine(_ s: UnsafeMutablePointer<RTState>) {
    guard takeOffer(s.pointee.engineHandover) else { return }
    let new = s.pointee.pendingEngine
    s.pointee.pendingEngine.engine = s.pointee.engine
    s.pointee.pendingEngine.generation = s.pointee.generation
    s.pointee.pendingEngine.sampleRate = s.pointee.sampleRate
    s.pointee.pendingEngine.sampleAccurate = s.pointee.sampleAccurate
    s.pointee.engine = new.engine
    s.pointee.generation = new.generation
    s.pointee.sampleRate = new.sampleRate
    s.pointee.sampleAccurate = new.sampleAccurate
    s.pointee.cycle = 0
    s.pointee.lastMerged = 0
    s.pointee.lastScored = 0
    s.pointee.scheduled = 0
    s.pointee.momentary.forget()
    s.pointee.deferredStringCount = 0  // their storage belonged to the old engine
    s.pointee.midiOutRefusedSeen = 0   // the new engine counts from 0
    s.pointee.misalignedPeriod.store(0, ordering: .relaxed)
    // The beat goes on across a rebuild, at the new engine's period (journaled at its cycle 0).
    if let e = new.engine {
        s.pointee.clock.configure(ksmps: e.ksmps, sampleRate: new.sampleRate)
        reportClock(s)
    }
    s.pointee.engineHandover.store(handoverTakenValue(), ordering: .releasing)
}

/// Starts or stops feeding a recording.
// Thread: RT (or NRT while no callback can run)
@_noLocks @_noAllocation
package func adoptPendingTap(_ s: UnsafeMutablePointer<RTState>) {
    guard takeOffer(s.pointee.tapHandover) else { return }
    let new = s.pointee.pendingTap
    s.pointee.pendingTap = s.pointee.tap
    s.pointee.tap = new
    s.pointee.tapStartCycle.store(s.pointee.cycle, ordering: .relaxed)
    s.pointee.tapHandover.store(handoverTakenValue(), ordering: .releasing)
}

/// Takes a new binding table (nil: none).
// Thread: RT (or NRT while no callback can run)
@_noLocks @_noAllocation
package func adoptPendingBindings(_ s: UnsafeMutablePointer<RTState>) {
    guard takeOffer(s.pointee.bindingsHandover) else { return }
    let new = s.pointee.pendingBindings
    s.pointee.pendingBindings = s.pointee.bindings
    s.pointee.bindings = new
    s.pointee.bindingsHandover.store(handoverTakenValue(), ordering: .releasing)
}

/// `HandoverState.taken` as a plain number the callback can use.
// Thread: RT
@_noLocks @_noAllocation @inline(__always)
func handoverTakenValue() -> Int { _unsafePerformance { HandoverState.taken.rawValue } }
