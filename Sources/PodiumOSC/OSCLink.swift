
/// Ableton Link over OSC:
///   - `/podium/link ,i 1|0` joins or leaves the session (joining only when `podium play --link`
///     allowed Link: `OSCOptions.allowLinkJoin`); `/podium/link` alone asks;
///     either way the reply is `/podium/link ,iiff ON PEERS TEMPO BEAT`;
///   - `/podium/link/play ,i 1|0` starts or stops the beat clock (with start/stop sync the session
///     too: a start lands on the session's next bar), replied like `/podium/link`;
///   - `/podium/status.reply` ends with the same four values.
extension OSCSurface {
    /// ON, PEERS, TEMPO (the session's while on, else the clock's), BEAT (Podium's clock now).
    // Thread: NRT (OSC)
    var linkArguments: [OSCValue] {
        let l = driver.linkStatus
        return [.int(l.enabled ? 1 : 0), .int(Int64(l.peers)), .float(l.tempo), .float(l.beat)]
    }

    // Thread: NRT (OSC)
    func linkPlay(_ m: OSCMessage, _ source: Endpoint) {
        guard m.arguments.count == 1, let on = m.arguments[0].number, on == 0 || on == 1 else {
            return bad(m, source, "expected 1 (start) or 0 (stop) (,i)")
        }
        do {
            guard try producer.clock(running: on == 1) != nil else { return replyError(source, m.address, "command ring full: clock not changed") }
        } catch { return replyError(source, m.address, error.description) }
        reply(to: source, "/podium/link", linkArguments)
    }

    // Thread: NRT (OSC)
    func link(_ m: OSCMessage, _ source: Endpoint) {
        if let first = m.arguments.first {
            guard let on = first.number, on == 0 || on == 1, m.arguments.count == 1 else {
                return bad(m, source, "expected 1 (join the Link session) or 0 (leave it) (,i)")
            }
            if on == 1, !options.allowLinkJoin, !driver.linkEnabled {
                return replyError(source, m.address, "joining Ableton Link from OSC needs `podium play --link` (Link sends multicast on the LAN; it is off unless the performer turns it on)")
            }
            guard driver.setLink(on == 1) else { return replyError(source, m.address, "could not start Ableton Link") }
        }
        reply(to: source, "/podium/link", linkArguments)
    }
}
