// What the OSC thread counts and times of each datagram it receives (OSCStats, OSCPathTiming).

extension OSCSurface {
    /// A datagram read (in place or by liblo) and the messages it holds, for the statistics.
    // Thread: NRT (OSC, under the lane)
    func countParsed(messages n: Int) { count { $0.parsed += 1; $0.messages += n } }

    /// The datagram's way through this thread, kept in the statistics (a timed datagram's).
    // Thread: NRT (OSC, under the lane)
    func timed(_ stamps: DatagramStamps, parsed: Int64) {
        guard stamps.timed else { return }
        let done = UDPSocket.realtimeNanos()
        let path = OSCPathTiming(waited: Double(stamps.inHand - stamps.arrival) / 1000,
                                 parse: Double(parsed - stamps.inHand) / 1000, carriedOut: Double(done - parsed) / 1000)
        local.lastPath = path
        if path.total > local.slowestPath?.total ?? -1 { local.slowestPath = path }
    }
}

/// A datagram's times (CLOCK_REALTIME ns): the kernel's arrival stamp, and when the OSC thread
/// had it. Timed only when the kernel gave an arrival (it came after a quiet moment).
struct DatagramStamps {
    let arrival: Int64
    let inHand: Int64
    var timed: Bool { inHand > 0 }

    // Thread: NRT (OSC)
    init(arrival: Int64) {
        self.arrival = arrival
        inHand = arrival > 0 ? UDPSocket.realtimeNanos() : 0
    }

    /// Now, for a timed datagram (else 0: nothing is read).
    // Thread: NRT (OSC)
    func now() -> Int64 { timed ? UDPSocket.realtimeNanos() : 0 }
}
