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
    /// `interfaceIndex` finds the interface holding an address (nil: none here;
    /// `InterfaceAddresses.interfaceIndex(holding:)`).
    // Thread: NRT
    public static func entries(_ listeners: [Listener], interfaceIndex: (String) -> Int32?)
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
}
