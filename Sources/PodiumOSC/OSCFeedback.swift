import Foundation
import PodiumEngine

/// What subscribers hear back: echoes of input values (every value of a message), output
/// channels that moved, console lines, started/stopped.
extension OSCSurface {
    // MARK: feedback — Thread: NRT (OSC), except `console`

    /// Sends subscribers what changed since the last tick, at most `feedbackRate` times a second:
    /// echoes of input changes, and output channels (`chnset` in the orchestra) that moved.
    func feedbackIfDue() {
        let now = ContinuousClock.now
        guard now >= nextFeedback else { return }
        nextFeedback = now + .milliseconds(Int64(1000 / max(feedbackRate, 1)))
        let (targets, echoes) = sharedLock.withLock { () -> (Set<Endpoint>, [String: [OSCValue]]) in
            defer { pendingEchoes = [:] }
            return (subscribers, pendingEchoes)
        }
        guard !targets.isEmpty else { return }
        for (address, values) in echoes.sorted(by: { $0.key < $1.key }) { send(address, values, to: targets) }
        clockFeedback(targets)
        let engine = driver.engine
        for c in engine.channels() where c.isPerformerOutput {
            // The value the audio thread copied after its last k-cycle (a bound output).
            guard let v = driver.outputValue(c.name) ?? (try? engine.control(c.name)), lastOutputs[c.name] != v else { continue }
            lastOutputs[c.name] = v
            send("/podium/chn/\(c.name)", [.float(v)], to: targets)
        }
    }

    /// A console line for subscribers (`/podium/console ,is`: level 0 debug … 4 error, text).
    // Thread: any (the driver's supervisor)
    public func console(_ line: ConsoleLine) {
        let targets = sharedLock.withLock { subscribers }
        guard !targets.isEmpty else { return }
        send("/podium/console", [.int(Int64(line.level.rawValue)), .string(line.text)], to: targets)
    }

    public var subscriberCount: Int { sharedLock.withLock { subscribers.count } }

    func broadcast(_ address: String, _ arguments: [OSCValue]) {
        send(address, arguments, to: sharedLock.withLock { subscribers })
    }
}
