import Foundation
import PodiumHost
import PodiumPatterns

// Tidal's transitions in a slot (`xfadeIn 1 8 $ …`): the mix of the slot's last typed pattern
// and the new one (`Transition.apply`, pure) takes over at once, from where posting goes on,
// with `now` the cycle the statement was carried out at, as Tidal's `transition` takes it.
extension PatternPlayer {
    // Thread: any
    func transitionTo(_ pattern: Pattern<ControlMap>, in slot: String, by transition: Transition, text: String, source: String?, line: Int, version: Int) throws(InputError) -> String {
        let quantum = max(driver.clock.quantum, 1e-9)
        let now = Time(driver.beatNow / quantum)
        lock.lock()
        defer { lock.unlock() }
        guard var s = slots[slot] else {
            guard slots.count < PatternPlayer.maximumSlots else {
                throw InputError("\(slot): \(PatternPlayer.maximumSlots) patterns play already (d1 silence ends one)")
            }
            let mix = transition.apply(now: now, new: pattern, old: nil)
            slots[slot] = Slot(pattern: mix, text: text, source: source, line: line, pendingLine: line, version: version, typed: pattern,
                               settle: transition.settled(now: now, new: pattern))
            return "\(slot): playing (\(transition.name): nothing played before)"
        }
        s.pending = transition.apply(now: now, new: pattern, old: s.typed ?? s.pending ?? s.pattern)
        s.pendingLine = line
        s.typed = pattern
        s.settle = transition.settled(now: now, new: pattern)
        s.pendingVersion = version
        // At once: from where posting goes on (Tidal's transition replaces the pattern now).
        s.swapAt = postedUntil ?? .zero
        s.endsAtSwap = false
        s.text = text
        s.source = source
        slots[slot] = s
        return "\(slot): \(transition.name) from cycle \(InputCheck.describe((now.double * 100).rounded() / 100))"
    }
}
