import CJack
import Foundation
import Glibc

/// PipeWire, the sound server of today's Linux desktops, plays JACK clients through its own
/// libjack (`pw-jack podium play …`). What differs from jackd2 (pipewire-jack 0.3.65, measured;
/// REFERENCE.md): only `jack_on_shutdown` is called when it goes away; each driver has its own
/// transport, and a client moves to the sink's driver when its ports connect; the period (its
/// quantum) changes whenever any application asks; `jack_client_real_time_priority` answers
/// max − 5 before activation; and a server name is a PipeWire remote's.
public enum PipeWire {
    /// The libjack this process runs on is PipeWire's (its version string says so:
    /// "3.0.0.0 (using PipeWire 0.3.65)").
    // Thread: any
    public static let isJackLibrary: Bool = versionString.contains("PipeWire")

    /// PipeWire's version, from its libjack's version string (nil under jackd2's libjack).
    public static var version: String? {
        guard let r = versionString.range(of: "using PipeWire ") else { return nil }
        return String(versionString[r.upperBound...].prefix { $0 != ")" })
    }

    static var versionString: String { jack_get_version_string().map { String(cString: $0) } ?? "" }

    /// A PipeWire server answers for this user: its socket ($PIPEWIRE_RUNTIME_DIR, else
    /// $XDG_RUNTIME_DIR, and $PIPEWIRE_REMOTE or pipewire-0) accepts a connection. The file alone
    /// says nothing: a killed PipeWire leaves it behind.
    // Thread: any
    public static func isRunning(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let dir = environment["PIPEWIRE_RUNTIME_DIR"] ?? environment["XDG_RUNTIME_DIR"] else { return false }
        let path = dir + "/" + (environment["PIPEWIRE_REMOTE"] ?? "pipewire-0")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// How to play through PipeWire (said by `podium play` and `podium doctor`).
    public static let howToPlay = "play through it with pw-jack: pw-jack podium play FILE (a shorter period: pw-jack -p 256 podium play FILE, or PIPEWIRE_QUANTUM=256/48000)"

    /// The ksmps a performance on PipeWire takes by default: the largest power of two up to 32
    /// that divides the period. PipeWire's quanta are powers of two from its min-quantum (32 by
    /// default) to 8192, and change whenever an application asks, so ksmps keeps dividing them:
    /// no engine restart, the notes, loops, patterns and the score go on across a change (an
    /// engine rebuilt for a period ksmps does not divide starts its score again). jackd keeps
    /// ksmps = its period, which changes only when its user asks.
    public static func defaultKsmps(period: Int) -> Int {
        var k = 1
        while k < 32, period % (k * 2) == 0 { k *= 2 }
        return k
    }
}
