import CLo
import Foundation
import Synchronization

/// An OSC argument, as Podium uses it.
public enum OSCValue: Equatable, Sendable {
    case int(Int64)
    case float(Double)
    case string(String)
    case bool(Bool)
    case other(Character)

    /// A number (ints, floats and booleans all count).
    public var number: Double? {
        switch self {
        case let .int(i): return Double(i)
        case let .float(f): return f
        case let .bool(b): return b ? 1 : 0
        default: return nil
        }
    }
    public var string: String? { if case let .string(s) = self { return s } else { return nil } }
}

/// One parsed OSC message, with the timetag of the bundle it came in (nil: immediate).
public struct OSCMessage: Sendable, Equatable {
    public var address: String
    public var arguments: [OSCValue]
    /// Seconds since 1900 (NTP), or nil for "now" (no bundle, or timetag 1).
    public var timetag: Double?
}

extension OSCMessage {
    /// The message as an OSC datagram (for senders in tests and benchmarks, and replies).
    public static func encode(_ address: String, _ arguments: [OSCValue]) -> [UInt8] {
        LoParser.serialize(address, arguments)
    }
}

/// liblo malformed-packet reports (its error handler has no user data: a process-wide count).
let libloErrors = Atomic<Int>(0)

/// The one file through which every liblo call passes: liblo parses datagrams (messages,
/// bundles, type tags) and builds replies; Podium owns the socket.
/// Thread: NRT (the OSC thread).
final class LoParser {
    private let server: lo_server
    private let socketPath: String
    /// Messages parsed from the datagram being dispatched.
    private var parsed: [OSCMessage] = []

    init() throws {
        socketPath = NSTemporaryDirectory() + "podium-lo-\(getpid())-\(UUID().uuidString.prefix(8))"
        guard let s = lo_server_new_with_proto(socketPath, LO_UNIX, { _, _, _ in libloErrors.add(1, ordering: .relaxed) }) else {
            throw OSCError.liblo("lo_server_new_with_proto failed")
        }
        server = s
        // Bundles are handed over at once with their timetag: Podium schedules by JACK frame.
        _ = lo_server_enable_queue(s, 0, 1)
        lo_server_add_method(s, nil, nil, { path, types, argv, argc, msg, user in
            guard let path, let user else { return 1 }
            let parser = Unmanaged<LoParser>.fromOpaque(user).takeUnretainedValue()
            parser.collect(path: path, types: types, argv: argv, argc: argc, msg: msg)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        lo_server_free(server)
        unlink(socketPath)
    }

    /// Parses one datagram; nil when liblo rejects it (malformed, bad type tags, truncated).
    func parse(_ bytes: UnsafeMutableRawBufferPointer) -> [OSCMessage]? {
        parsed.removeAll(keepingCapacity: true)
        let before = libloErrors.load(ordering: .relaxed)
        let rc = lo_server_dispatch_data(server, bytes.baseAddress, bytes.count)
        if rc < 0 || libloErrors.load(ordering: .relaxed) != before { return nil }
        return parsed
    }

    private func collect(path: UnsafePointer<CChar>, types: UnsafePointer<CChar>?, argv: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>?,
                         argc: Int32, msg: lo_message?) {
        var args: [OSCValue] = []
        args.reserveCapacity(Int(argc))
        // The type tags as bytes (liblo has checked them: one ASCII letter per argument).
        let tagCount = types.map { strlen($0) } ?? 0
        for i in 0..<Int(argc) {
            guard i < tagCount, let types, let a = argv?[i] else { break }
            // Each argument read at its own size: liblo allocates 4 bytes for an `i` or `f`, and
            // `a.pointee` would copy the whole 8-byte lo_arg union (the sanitizer's heap overflow).
            let raw = UnsafeRawPointer(a)
            switch UInt8(bitPattern: types[i]) {
            case UInt8(ascii: "i"): args.append(.int(Int64(raw.loadUnaligned(as: Int32.self))))
            case UInt8(ascii: "h"): args.append(.int(raw.loadUnaligned(as: Int64.self)))
            case UInt8(ascii: "f"): args.append(.float(Double(raw.loadUnaligned(as: Float.self))))
            case UInt8(ascii: "d"): args.append(.float(raw.loadUnaligned(as: Double.self)))
            case UInt8(ascii: "s"), UInt8(ascii: "S"): args.append(.string(String(cString: UnsafeRawPointer(a).assumingMemoryBound(to: CChar.self))))
            case UInt8(ascii: "T"): args.append(.bool(true))
            case UInt8(ascii: "F"): args.append(.bool(false))
            case let tag: args.append(.other(Character(Unicode.Scalar(tag))))
            }
        }
        var timetag: Double?
        if let msg {
            let t = lo_message_get_timestamp(msg)
            if !(t.sec == 0 && t.frac <= 1) { timetag = Double(t.sec) + Double(t.frac) / 4_294_967_296.0 }
        }
        parsed.append(OSCMessage(address: String(cString: path), arguments: args, timetag: timetag))
    }

    /// An OSC message as bytes (for replies and feedback).
    static func serialize(_ address: String, _ arguments: [OSCValue]) -> [UInt8] {
        guard let m = lo_message_new() else { return [] }
        defer { lo_message_free(m) }
        for a in arguments {
            switch a {
            case let .int(i): lo_message_add_int32(m, Int32(clamping: i))
            case let .float(f): lo_message_add_float(m, Float(f))
            case let .string(s): lo_message_add_string(m, s)
            case let .bool(b): if b { lo_message_add_true(m) } else { lo_message_add_false(m) }
            case .other: continue
            }
        }
        var size = 0
        guard let raw = lo_message_serialise(m, address, nil, &size) else { return [] }
        defer { free(raw) }
        return Array(UnsafeRawBufferPointer(start: raw, count: size))
    }

    /// Now, as an NTP time (seconds since 1900).
    static var ntpNow: Double {
        var t = lo_timetag()
        lo_timetag_now(&t)
        return Double(t.sec) + Double(t.frac) / 4_294_967_296.0
    }
}
