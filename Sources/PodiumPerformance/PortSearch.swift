import Foundation
import PodiumOSC
import PodiumWeb

/// A port that is in use, for the search of the next free one (`Performance.firstFreePort`).
struct PortInUse: Error, CustomStringConvertible {
    var description: String { "the port is in use" }

    /// Whether `error` says that the port is taken (not another reason a surface did not start).
    static func means(_ error: Error) -> Bool {
        if error is PortInUse { return true }
        if case let OSCError.bind(_, _, e)? = error as? OSCError { return e == EADDRINUSE }
        if let web = error as? WebError { return web.portInUse }
        return false
    }
}

/// Whether a port could be bound now (`podium doctor`'s look at the OSC and page ports): TCP with
/// SO_REUSEADDR, as the page's server binds (a port in TIME_WAIT is free to it).
public enum PortProbe {
    // Thread: any
    public static func isFree(_ port: Int, udp: Bool, bind: String) -> Bool {
        let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var one: Int32 = 1
        if !udp { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        addr.sin_addr.s_addr = inet_addr(bind)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
