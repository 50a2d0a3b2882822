import Foundation

/// The lines a performer needs next, printed once at the start of `podium play` on a terminal:
/// where OSC listens and how a phone's TouchOSC reaches it, and how to use the REPL.
enum StartHints {
    // Thread: NRT (the performance's owner)
    static func lines(oscBind: String, oscPort: Int?, repl: Bool) -> [String] {
        var out: [String] = []
        if let oscPort {
            if oscBind == "127.0.0.1" || oscBind == "localhost" {
                let lan = lanAddress()
                out.append("OSC listens on this machine only. For TouchOSC on a phone: podium play … --osc-bind \(lan ?? "<LAN address>") "
                    + "--osc-allow \(lan.map(range) ?? "<LAN range, e.g. 192.168.1.0/24>"), then in TouchOSC set Host \(lan ?? "<that address>") and port (outgoing) \(oscPort).")
            } else {
                out.append("TouchOSC: set Host \(oscBind == "0.0.0.0" ? lanAddress() ?? oscBind : oscBind) and port (outgoing) \(oscPort); "
                    + "its port (incoming) gets the feedback. Senders outside loopback need --osc-allow.")
            }
        }
        if repl { out.append("Type score lines (i1 0 1 440), orchestra code, or :help for the commands; :quit or Ctrl-D stops.") }
        return out
    }

    /// The first IPv4 address of an interface that is up and not loopback.
    static func lanAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var p: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = p {
            defer { p = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == UInt16(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(addr, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    /// The /24 around an address, as the usual home or venue network.
    static func range(_ address: String) -> String {
        let parts = address.split(separator: ".")
        return parts.count == 4 ? parts.prefix(3).joined(separator: ".") + ".0/24" : address + "/32"
    }
}
