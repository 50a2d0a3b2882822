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
        // The kernel's arrival time on each datagram (SCM_TIMESTAMPNS): how long a datagram
        // waited for this thread is part of the surface's own statistics.
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<Int32>.size))
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        self.fd = fd
        self.port = UInt16(bigEndian: bound.sin_port)
    }

    deinit {
        close(fd)
        control.deallocate()
    }

    /// A datagram in the buffer: its length, its sender, and when the kernel received it
    /// (CLOCK_REALTIME nanoseconds) if it came after the queue ran dry or `timesEvery` is set;
    /// else 0 for one behind others in a burst (the time costs the kernel a copy per datagram).
    struct Received {
        var count: Int
        var source: Endpoint
        var arrival: Int64
    }

    /// Waits up to `timeout` ms for a datagram; nil on timeout.
    func receive(into buffer: UnsafeMutableRawBufferPointer, timeout: Int32) -> Received? {
        // Drain without waiting while datagrams are queued; wait (poll) only when there are none.
        // The first datagram after the queue ran dry is timed; those behind it in a burst are not.
        if let got = receiveNow(into: buffer, timed: timesEvery || !inBurst) { inBurst = true; return got }
        inBurst = false
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, timeout) > 0, let got = receiveNow(into: buffer, timed: true) else { return nil }
        inBurst = true
        return got
    }

    /// True while datagrams come one behind another (the last receive found one queued).
    private var inBurst = false

    /// Every datagram gets its arrival time, bursts too (the SuperDirt surface: a late bundle
    /// is told apart as late on arrival, the sender's, or late in Podium's hands).
    var timesEvery = false

    /// Room for one SCM_TIMESTAMPNS control message (a cmsghdr and a timespec), reused.
    private let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)

    private func receiveNow(into buffer: UnsafeMutableRawBufferPointer, timed: Bool) -> Received? {
        var from = sockaddr_in()
        var io = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        let n = withUnsafeMutablePointer(to: &from) { fromPointer in
            withUnsafeMutablePointer(to: &io) { ioPointer in
                var header = msghdr(msg_name: UnsafeMutableRawPointer(fromPointer), msg_namelen: socklen_t(MemoryLayout<sockaddr_in>.size),
                                    msg_iov: ioPointer, msg_iovlen: 1, msg_control: timed ? control.baseAddress : nil, msg_controllen: timed ? control.count : 0, msg_flags: 0)
                let n = recvmsg(fd, &header, Int32(MSG_DONTWAIT))
                return (n, header.msg_controllen)
            }
        }
        guard n.0 >= 0 else { return nil }
        return Received(count: n.0, source: Endpoint(address: UInt32(bigEndian: from.sin_addr.s_addr), port: UInt16(bigEndian: from.sin_port)),
                        arrival: arrival(controlLength: n.1))
    }

    /// The SCM_TIMESTAMPNS time among the control messages recvmsg filled in.
    private func arrival(controlLength: Int) -> Int64 {
        let headerSize = MemoryLayout<cmsghdr>.size
        var offset = 0
        while offset + headerSize <= controlLength {
            let h = control.load(fromByteOffset: offset, as: cmsghdr.self)
            if h.cmsg_level == SOL_SOCKET && h.cmsg_type == SO_TIMESTAMPNS && Int(h.cmsg_len) >= headerSize + MemoryLayout<timespec>.size {
                let t = control.load(fromByteOffset: offset + headerSize, as: timespec.self)
                return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
            }
            guard h.cmsg_len > 0 else { break }
            offset += (Int(h.cmsg_len) + 7) & ~7
        }
        return 0
    }

    /// Datagrams the kernel dropped for this socket since it was opened: its receive buffer was
    /// full (the OSC thread did not get the CPU in time for a burst). Linux's SO_MEMINFO
    /// (SK_MEMINFO_DROPS); 0 where the kernel does not answer.
    /// Thread: any (a getsockopt on the descriptor).
    var kernelDrops: Int {
        let soMeminfo: Int32 = 55, drops = 8, vars = 9  // <asm-generic/socket.h>, <linux/sock_diag.h>
        var info = [UInt32](repeating: 0, count: vars)
        var len = socklen_t(MemoryLayout<UInt32>.size * vars)
        let rc = info.withUnsafeMutableBytes { getsockopt(fd, SOL_SOCKET, soMeminfo, $0.baseAddress, &len) }
        return rc == 0 && Int(len) > drops * MemoryLayout<UInt32>.size ? Int(info[drops]) : 0
    }

    /// CLOCK_REALTIME in nanoseconds, the kernel's arrival times' clock.
    static func realtimeNanos() -> Int64 {
        var t = timespec()
        clock_gettime(CLOCK_REALTIME, &t)
        return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
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
