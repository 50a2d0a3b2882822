import Glibc

/// An IPv4 address and port (the sender of a datagram, a reply target).
public struct Endpoint: Hashable, Sendable, CustomStringConvertible {
    /// Host byte order.
    public var address: UInt32
    public var port: UInt16

    public var isLoopback: Bool { address >> 24 == 127 }
    public var host: String {
        "\(address >> 24).\((address >> 16) & 255).\((address >> 8) & 255).\(address & 255)"
    }
    public var description: String { "\(host):\(port)" }

    /// Parses a dotted IPv4 address ("127.0.0.1").
    public static func parse(_ host: String) -> UInt32? {
        let parts = host.split(separator: ".")
        guard parts.count == 4 else { return nil }
        var a: UInt32 = 0
        for p in parts {
            guard let v = UInt8(p) else { return nil }
            a = a << 8 | UInt32(v)
        }
        return a
    }
}

/// A UDP socket Podium owns: bound to the address the performer chose, so the sender of
/// every datagram is known before liblo parses it.
/// Thread: NRT (the OSC thread).
final class UDPSocket {
    let fd: Int32
    let port: UInt16

    init(bind host: String, port: UInt16) throws {
        guard let address = Endpoint.parse(host) else { throw OSCError.badAddress(host) }
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw OSCError.system("socket", errno) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = port.bigEndian
        addr.sin_addr.s_addr = address.bigEndian
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else {
            let e = errno
            close(fd)
            throw OSCError.bind(host: host, port: port, errno: e)
        }
        // Room for bursts (a fader flood): 4 MiB; beyond net.core.rmem_max only with the privilege.
        var size: Int32 = 4 << 20
        if setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        self.fd = fd
        self.port = UInt16(bigEndian: bound.sin_port)
    }

    deinit { close(fd) }

    /// Waits up to `timeout` ms for a datagram; nil on timeout.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: Int32) -> (Int, Endpoint)? {
        // Drain without waiting while datagrams are queued; wait (poll) only when there are none.
        if let got = receiveNow(into: buffer) { return got }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, timeout) > 0 else { return nil }
        return receiveNow(into: buffer)
    }

    private func receiveNow(into buffer: UnsafeMutableRawBufferPointer) -> (Int, Endpoint)? {
        var from = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let n = withUnsafeMutablePointer(to: &from) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { recvfrom(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), $0, &len) }
        }
        guard n >= 0 else { return nil }
        return (n, Endpoint(address: UInt32(bigEndian: from.sin_addr.s_addr), port: UInt16(bigEndian: from.sin_port)))
    }

    func send(_ bytes: UnsafeRawBufferPointer, to endpoint: Endpoint) {
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = endpoint.port.bigEndian
        to.sin_addr.s_addr = endpoint.address.bigEndian
        _ = withUnsafePointer(to: &to) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes.baseAddress, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}

/// An allowed source range, e.g. 192.168.1.0/24.
public struct CIDR: Sendable, Equatable, CustomStringConvertible {
    public var network: UInt32
    public var prefix: Int

    public init?(_ text: String) {
        let parts = text.split(separator: "/")
        guard let base = parts.first, let a = Endpoint.parse(String(base)) else { return nil }
        let p = parts.count > 1 ? Int(parts[1]) : 32
        guard let p, (0...32).contains(p), parts.count <= 2 else { return nil }
        prefix = p
        network = a & CIDR.mask(p)
    }

    static func mask(_ p: Int) -> UInt32 { p == 0 ? 0 : ~UInt32(0) << (32 - p) }
    public func contains(_ address: UInt32) -> Bool { address & CIDR.mask(prefix) == network }
    public var description: String {
        "\(Endpoint(address: network, port: 0).host)/\(prefix)"
    }
    public static let loopback = CIDR("127.0.0.0/8")!
}

public enum OSCError: Error, CustomStringConvertible, Equatable {
    case badAddress(String)
    case bind(host: String, port: UInt16, errno: Int32)
    case system(String, Int32)
    case liblo(String)

    public var description: String {
        switch self {
        case let .badAddress(h): return "not an IPv4 address: \(h)"
        case let .bind(host, port, e): return "cannot listen for OSC on \(host):\(port): \(String(cString: strerror(e)))"
        case let .system(call, e): return "\(call) failed: \(String(cString: strerror(e)))"
        case let .liblo(what): return "liblo: \(what)"
        }
    }
}
