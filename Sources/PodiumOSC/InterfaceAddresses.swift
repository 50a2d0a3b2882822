import Glibc

/// This machine's IPv4 addresses, from its interfaces that are up (getifaddrs).
public enum InterfaceAddresses {
    /// Dotted addresses in the interfaces' order; loopback's only when asked for.
    // Thread: any (NRT)
    public static func ipv4(loopback: Bool = false) -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var out: [String] = []
        var p: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = p {
            defer { p = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == UInt16(AF_INET), flags & Int32(IFF_UP) != 0,
                  loopback || flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(addr, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                out.append(String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return out
    }

    /// This machine's host name (gethostname), lowercased; nil when it has none.
    public static var hostName: String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let s = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return s.isEmpty ? nil : s
    }
}
