import Foundation

// Master transport: a start that JACK2 holds in `Starting` for its whole sync timeout.
//
// JACK2 (common/JackTransportEngine.cpp, JackClientControl.h) starts the transport in two
// cycles: the cycle that reads the start marks every client "starting" (MakeAllStartingLocating:
// an active client with a process thread must answer through its sync step; any other is marked
// rolling at once), and the transport rolls once every client in the table is rolling
// (CheckAllRolling) — or when the sync timeout (10 s by default) runs out. A client *created*
// between those two cycles keeps the state its control was made with, Stopped; if it has no
// process thread (a patchbay, a meter, a transport reader: anything activated without a process
// callback) nothing ever marks it rolling, and the transport sits in `Starting` for 10 s.
// Measured here: such a client opened 5 ms after `podium play --transport master` started the
// transport held it in `Starting` for 10.0 s; one locate to the same frame released it at once.
//
// A start is never lost (CycleEnd takes any command that differs from the last one), so Podium
// does not ask again; it ends the stall the way JACK2 allows: a locate to the frame the
// transport is already at, which re-runs MakeAllStartingLocating (the late client is marked
// rolling; clients with a process thread answer in their next cycle). A slow-sync client (a DAW
// seeking on disk) also takes part in `Starting`, so the locates back off: the first after
// 50 ms, then after 100, 200, … 1600 ms — each gives slow clients twice the time of the last.

/// When the supervisor re-locates a transport that stays in `Starting` (master mode).
struct TransportStartWatch {
    static let firstWait: Duration = .milliseconds(50)
    static let longestWait: Duration = .milliseconds(1600)

    /// Since when the transport has been starting (or since the last locate); nil: not starting.
    private var since: ContinuousClock.Instant?
    private var wait = TransportStartWatch.firstWait
    /// Locates made in this stall.
    private var locates = 0

    /// Whether to locate now, given whether the transport is starting at `now`: the locate's
    /// number within this stall (1 for the first), or nil.
    // Thread: NRT (supervisor)
    mutating func relocation(starting: Bool, now: ContinuousClock.Instant) -> Int? {
        guard starting else { self = TransportStartWatch(); return nil }
        guard let s = since else { since = now; return nil }
        guard now - s >= wait else { return nil }
        since = now
        wait = min(wait * 2, Self.longestWait)
        locates += 1
        return locates
    }
}
