/// `/podium/error` replies, at most one a second per sender and address: a controller
/// streaming `/accxyz` at 50 Hz to an orchestra without those channels gets the first error
/// at once, then one summary a second with how many it stands for — not fifty replies a second.
struct RepeatedErrors {
    struct Entry {
        var last: ContinuousClock.Instant
        var suppressed: Int
        var text: String
    }
    struct Key: Hashable {
        var target: Endpoint
        var address: String
    }
    private(set) var entries: [Key: Entry] = [:]
    var interval: Duration = .seconds(1)
    /// Beyond this many distinct addresses (random ones from a fuzzer), they share one entry.
    var capacity = 256
    private var nextSweep = ContinuousClock.now

    /// The text to send now for an error at `address`, or nil when it is counted for the next summary.
    // Thread: NRT (OSC)
    mutating func admit(_ text: String, address: String, target: Endpoint, now: ContinuousClock.Instant) -> String? {
        var key = Key(target: target, address: address)
        if entries[key] == nil && entries.count >= capacity { key.address = "(other addresses)" }
        guard var e = entries[key] else {
            entries[key] = Entry(last: now, suppressed: 0, text: text)
            return text
        }
        guard now - e.last >= interval else {
            e.suppressed += 1
            e.text = text
            entries[key] = e
            return nil
        }
        let out = RepeatedErrors.summary(text, e.suppressed + 1)
        entries[key] = Entry(last: now, suppressed: 0, text: text)
        return out
    }

    /// Summaries of errors counted for at least `interval`, to send now; forgets quiet addresses.
    // Thread: NRT (OSC)
    mutating func due(now: ContinuousClock.Instant) -> [(Endpoint, String)] {
        // Looked at ten times a second at most: the OSC thread calls this between datagrams.
        guard !entries.isEmpty, now >= nextSweep else { return [] }
        nextSweep = now + .milliseconds(100)
        var out: [(Endpoint, String)] = []
        for (key, e) in entries where now - e.last >= interval {
            if e.suppressed > 0 {
                out.append((key.target, RepeatedErrors.summary(e.text, e.suppressed)))
                entries[key] = Entry(last: now, suppressed: 0, text: e.text)
            } else {
                entries[key] = nil
            }
        }
        return out
    }

    static func summary(_ text: String, _ count: Int) -> String {
        count == 1 ? text : "\(text) (\(count) times since the last report)"
    }
}
