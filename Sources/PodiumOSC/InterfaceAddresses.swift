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

    /// The index of the interface that holds an IPv4 address (nil: none on this machine).
    // Thread: any (NRT)
    public static func interfaceIndex(holding address: String) -> Int32? {
        var target = in_addr()
        guard inet_pton(AF_INET, address, &target) == 1 else { return nil }
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var p: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = p {
            defer { p = entry.pointee.ifa_next }
            guard let addr = entry.pointee.ifa_addr, addr.pointee.sa_family == UInt16(AF_INET) else { continue }
            let held = addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            if held == target.s_addr {
                let index = if_nametoindex(entry.pointee.ifa_name)
                return index == 0 ? nil : Int32(index)
            }
        }
        return nil
    }

    /// This machine's host name (gethostname), lowercased; nil when it has none.
    public static var hostName: String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count) == 0 else { return nil }
        let s = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).lowercased()
        return s.isEmpty ? nil : s
    }
}
