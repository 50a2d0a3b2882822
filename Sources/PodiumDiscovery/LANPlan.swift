import Glibc

/// What a performance publishes, and where: a surface listening on loopback is not on the LAN
/// and publishes nothing; one on `0.0.0.0` publishes on every interface; one on a LAN address
/// on the interface that holds that address.
public enum LANPlan {
    /// A listening surface: its DNS-SD service and the address it is bound to.
    public struct Listener: Sendable, Equatable {
        public var service: LANService
        public var bind: String
        public init(service: LANService, bind: String) {
            self.service = service
            self.bind = bind
        }
    }

    /// Each service and the interface to publish it on (nil: all), loopback ones left out.
    /// `interfaceIndex` finds the interface holding an address (nil: none here).
    // Thread: NRT
    public static func entries(_ listeners: [Listener], interfaceIndex: (String) -> Int32? = { LANPlan.interfaceIndex(of: $0) })
        -> [(interface: Int32?, service: LANService)] {
        listeners.compactMap { l in
            if isLoopback(l.bind) { return nil }
            if l.bind == "0.0.0.0" || l.bind == "::" { return (nil, l.service) }
            return interfaceIndex(l.bind).map { ($0, l.service) }
        }
    }

    /// 127.0.0.0/8, ::1 and `localhost`.
    // Thread: any
    public static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1" || address == "localhost"
    }

    /// The index of the interface that holds an IPv4 address (getifaddrs, if_nametoindex).
    // Thread: NRT
    public static func interfaceIndex(of address: String) -> Int32? {
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
}
