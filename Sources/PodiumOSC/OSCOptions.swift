import Foundation

/// Where and from whom Podium takes OSC.
public struct OSCOptions: Sendable {
    public static let defaultPort: UInt16 = 7770
    public var port: UInt16 = OSCOptions.defaultPort
    /// When the port is in use: try the next ones, this many ports in all (the default port, for a
    /// second performance on this machine); 1: that port or an error.
    public var portTries = 1
    /// The address to listen on: loopback unless the performer says otherwise.
    public var bind = "127.0.0.1"
    /// Sources allowed besides loopback (only meaningful with a non-loopback `bind`).
    public var allow: [CIDR] = []
    /// Orchestra code from a non-loopback sender (Csound's `system` opcode makes it a remote shell).
    public var allowRemoteCode = false
    /// `/podium/link 1` joins the Link session only when the performer started with `--link`:
    /// joining sends multicast on the LAN, which a controller must not switch on by itself.
    /// Leaving and asking are always allowed.
    public var allowLinkJoin = false

    /// Datagrams are taken from loopback and the allowed ranges only.
    public func allows(_ source: Endpoint) -> Bool {
        source.isLoopback || allow.contains { $0.contains(source.address) }
    }

    /// Orchestra code is taken from loopback only, unless remote code is allowed.
    public func acceptsCode(from source: Endpoint) -> Bool {
        source.isLoopback || allowRemoteCode
    }

    public init(port: UInt16 = OSCOptions.defaultPort, bind: String = "127.0.0.1", allow: [CIDR] = [], allowRemoteCode: Bool = false,
                allowLinkJoin: Bool = false) {
        self.port = port
        self.bind = bind
        self.allow = allow
        self.allowRemoteCode = allowRemoteCode
        self.allowLinkJoin = allowLinkJoin
    }
}

/// What the OSC surface counted.
public struct OSCStats: Sendable, Equatable {
    public var datagrams = 0
    /// Datagrams the kernel dropped before Podium could read them (the socket's 4 MiB receive
    /// buffer was full): lost, and said so.
    public var kernelDropped = 0
    /// Datagrams read: by liblo (a bundle may hold several messages), or in place (`notesInPlace`).
    public var parsed = 0
    /// Notes read in place (`NumericMessage`), without liblo's parse.
    public var notesInPlace = 0
    public var messages = 0
    public var malformed = 0
    public var refusedSources = 0
    public var unknownAddresses = 0
    public var badArguments = 0
    public var unknownTargets = 0
    public var lateBundles = 0
    public var refusedCode = 0
    public var ringFull = 0
    /// Messages dropped because SurfaceLane.capacity of the sender's already waited for its compile.
    public var behindCompile = 0
    /// The way through the OSC thread of the last datagram that came after a quiet moment, and
    /// of the slowest such (one queued behind others in a burst is not timed).
    public var lastPath: OSCPathTiming?
    public var slowestPath: OSCPathTiming?

    public var summary: String {
        "datagrams \(datagrams)" + (kernelDropped > 0 ? " (and \(kernelDropped) dropped by the kernel: the receive buffer was full)" : "") + " (parsed \(parsed), notes read in place \(notesInPlace)), messages \(messages), malformed \(malformed), refused sources \(refusedSources), "
            + "unknown addresses \(unknownAddresses), bad arguments \(badArguments), unknown channels/instruments \(unknownTargets), "
            + "late bundles \(lateBundles), refused code \(refusedCode), ring full \(ringFull), dropped behind a compile \(behindCompile)"
            + (slowestPath.map { ", slowest datagram \($0)" } ?? "")
    }
}

/// One datagram's way through the OSC thread, in microseconds.
public struct OSCPathTiming: Sendable, Equatable, CustomStringConvertible {
    /// From the kernel's arrival until the OSC thread had it: the thread's wake-up, or the end
    /// of what it was doing.
    public var waited: Double
    /// liblo's parse.
    public var parse: Double
    /// Its messages carried out: checked, routed and posted to the ring (or handed to the
    /// compile queue), replies sent.
    public var carriedOut: Double

    public var total: Double { waited + parse + carriedOut }
    public var description: String {
        String(format: "%.0f µs (waited %.0f µs, parse %.0f µs, carried out %.0f µs)", total, waited, parse, carriedOut)
    }
}
