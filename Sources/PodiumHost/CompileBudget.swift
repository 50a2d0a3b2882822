import Synchronization

/// Every compile is checked first in a child process (`podium check`: an exec and Csound's
/// plugins, 20–30 ms of CPU). A stream of code — junk on the csound port, which compiles
/// whatever is not an event, a fuzzer, an editor stuck on "evaluate" — would keep both CPUs
/// busy with children, and on a small machine every JACK client's audio thread then misses
/// its period. So compiles draw from a budget shared by every surface: a burst of `burst`,
/// refilled at `perSecond`. Beyond it a compile is refused at once, with an error that says
/// so, and counted; nothing else changes. A live coder evaluates a few times a minute.
final class CompileBudget: Sendable {
    let perSecond: Double
    let burst: Double
    private struct State { var tokens: Double; var last: ContinuousClock.Instant?; var refused: UInt64 }
    private let state: Mutex<State>

    init(perSecond: Double = 5, burst: Double = 10) {
        self.perSecond = perSecond
        self.burst = burst
        state = Mutex(State(tokens: burst, last: nil, refused: 0))
    }

    /// Takes one compile from the budget; false (and counted) when it is spent.
    // Thread: NRT (any surface's)
    func admit(now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { s in
            if let last = s.last {
                let elapsed = Double((now - last) / .microseconds(1)) / 1e6
                s.tokens = min(burst, s.tokens + max(0, elapsed) * perSecond)
            }
            s.last = now
            guard s.tokens >= 1 else { s.refused += 1; return false }
            s.tokens -= 1
            return true
        }
    }

    /// Compiles refused so far.
    // Thread: any
    var refused: UInt64 { state.withLock { $0.refused } }

    var refusal: String {
        "error: more than \(Int(burst)) compiles at once or \(Int(perSecond)) a second; not compiled (each is checked in a child process: the budget keeps the machine's CPUs for the audio)"
    }
}
