import CJack
import Foundation
import PodiumRealtime

/// Errors from JACK, naming the call that failed.
public enum JackError: Error, CustomStringConvertible, Equatable {
    case call(String, detail: String)
    case noServer(String)
    case nameTaken(String)
    case badKsmps(ksmps: Int, period: Int, valid: [Int])

    public var description: String {
        switch self {
        case let .call(name, detail): return "\(name) failed: \(detail)"
        case let .noServer(name): return "no JACK server \"\(name)\" is running"
        case let .nameTaken(name): return "jack_client_open failed: a client named \(name) already exists (--name to choose another)"
        case let .badKsmps(ksmps, period, valid):
            return "ksmps \(ksmps) does not divide the JACK period \(period); valid: \(valid.map(String.init).joined(separator: ", "))"
        }
    }
}

/// The one file through which every non-real-time JACK call passes.
/// Thread: NRT (the driver), unless a function says otherwise.
struct JackAPI {
    let client: OpaquePointer

    /// JACK prints its own complaints (e.g. "Cannot connect to server socket") to stderr;
    /// the driver reports failures itself, so those go to a handler instead.
    static func routeMessages(_ handler: @convention(c) (UnsafePointer<CChar>?) -> Void) {
        jack_set_error_function(handler)
        jack_set_info_function(handler)
    }

    /// Opens a client without ever starting a server (starting one is JackServer's job). With
    /// `exact` false and the name taken, JACK gives it a unique one (NAME-01; `clientName`).
    /// A server error (JackFailure | JackServerError, 0x21) that is not a taken name is tried
    /// again, up to `attempts` times 100 ms apart: JACK2 refuses a client now and then while
    /// other clients open at the same moment, on this server or another (measured: 2 of 4
    /// `podium play`s started at once on four dummy servers), and a show must not fail to
    /// start because another JACK program started beside it.
    static func open(name: String, server: String?, exact: Bool = true, attempts: Int = 6) throws -> JackAPI {
        var status = jack_status_t(rawValue: 0)
        let options = jack_options_t(rawValue: JackNoStartServer.rawValue | (exact ? JackUseExactName.rawValue : 0))
        let client = server.map { podium_jack_client_open(name, options, &status, $0) } ?? podium_jack_client_open(name, options, &status, nil)
        guard let client else {
            if status.rawValue & JackServerFailed.rawValue != 0 { throw JackError.noServer(server ?? JackAPI.defaultServerName) }
            if status.rawValue & JackNameNotUnique.rawValue != 0 { throw JackError.nameTaken(name) }
            // JACK2 answers an exact name that is taken with JackFailure | JackServerError (0x21),
            // not JackNameNotUnique: a client that may be renamed tells whether that was it.
            if exact, let other = try? open(name: name, server: server, exact: false, attempts: 1) {
                let renamed = other.clientName != name
                other.close()
                if renamed { throw JackError.nameTaken(name) }
            }
            if status.rawValue & JackServerError.rawValue != 0, attempts > 1 {
                Thread.sleep(forTimeInterval: 0.1)
                return try open(name: name, server: server, exact: exact, attempts: attempts - 1)
            }
            throw JackError.call("jack_client_open", detail: "status 0x\(String(status.rawValue, radix: 16))")
        }
        return JackAPI(client: client)
    }

    static var defaultServerName: String { ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"] ?? "default" }

    func close() { _ = jack_client_close(client) }

    var sampleRate: Int { Int(jack_get_sample_rate(client)) }
    var bufferSize: Int { Int(jack_get_buffer_size(client)) }
    var cpuLoad: Double { Double(jack_cpu_load(client)) }
    var frameTime: Int64 { Int64(jack_frame_time(client)) }
    var clientName: String { String(cString: jack_get_client_name(client)) }
    /// JACK's clock (µs) and its smoothed mapping to frames.
    var time: UInt64 { jack_get_time() }
    func frames(atTime usecs: UInt64) -> Int64 { Int64(jack_time_to_frames(client, usecs)) }

    func registerPort(_ name: String, input: Bool) throws -> OpaquePointer {
        let flags = UInt(input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue)
        guard let port = jack_port_register(client, name, JACK_DEFAULT_AUDIO_TYPE, flags, 0) else {
            throw JackError.call("jack_port_register", detail: "port \(name)")
        }
        return port
    }

    func registerMIDIPort(_ name: String, input: Bool = true) throws -> OpaquePointer {
        let flags = input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue
        guard let port = jack_port_register(client, name, JACK_DEFAULT_MIDI_TYPE, UInt(flags), 0) else {
            throw JackError.call("jack_port_register", detail: "MIDI port \(name)")
        }
        return port
    }

    func unregisterPort(_ port: OpaquePointer) { _ = jack_port_unregister(client, port) }
    /// Frames from this output port to the speakers, as JACK reports it (the range's maximum).
    func playbackLatency(_ port: OpaquePointer) -> Int {
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, JackPlaybackLatency, &range)
        return Int(range.max)
    }
    func portName(_ port: OpaquePointer) -> String { String(cString: jack_port_name(port)) }
    func isConnected(_ port: OpaquePointer) -> Bool { jack_port_connected(port) > 0 }

    func activate() throws {
        let rc = jack_activate(client)
        if rc != 0 { throw JackError.call("jack_activate", detail: "code \(rc)") }
    }

    func deactivate() { _ = jack_deactivate(client) }

    /// Physical ports: playback (`input: true`, we send to them) or capture.
    func physicalPorts(input: Bool) -> [String] {
        let flags = UInt(JackPortIsPhysical.rawValue | (input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue))
        guard let list = jack_get_ports(client, nil, JACK_DEFAULT_AUDIO_TYPE, flags) else { return [] }
        defer { jack_free(UnsafeMutableRawPointer(mutating: list)) }
        var names: [String] = []
        var i = 0
        while let p = list[i] { names.append(String(cString: p)); i += 1 }
        return names
    }

    func connect(_ source: String, _ destination: String) throws {
        let rc = jack_connect(client, source, destination)
        if rc != 0 && rc != EEXIST { throw JackError.call("jack_connect", detail: "\(source) → \(destination) (code \(rc))") }
    }
}

extension JackAPI {
    /// Installs the process, xrun and shutdown callbacks; `state` is the `RTState`. The functions
    /// registered here live in PodiumRealtime, each marked `@_noLocks @_noAllocation` and checked
    /// by the compiler: `podiumProcess` (ProcessCallback.swift), `podiumXrun` and `podiumShutdown`
    /// (JackCallbacks.swift); `podiumTimebase` below (Transport.swift). This call itself is not RT.
    // Thread: NRT (the driver), before jack_activate
    func setCallbacks(state: UnsafeMutableRawPointer) throws {
        var rc = jack_set_process_callback(client, podiumProcess, state)
        if rc != 0 { throw JackError.call("jack_set_process_callback", detail: "code \(rc)") }
        rc = jack_set_xrun_callback(client, podiumXrun, state)
        if rc != 0 { throw JackError.call("jack_set_xrun_callback", detail: "code \(rc)") }
        // Both: jackd2 calls only the info callback when both are set; pipewire-jack 0.3.65
        // calls only the plain one (pipewire-jack.c, on_error), and never the info one.
        jack_on_info_shutdown(client, podiumShutdown, state)
        jack_on_shutdown(client, podiumPlainShutdown, state)
    }
}

// MARK: JACK transport (Transport.swift has the callback side)

extension JackAPI {
    /// Master mode, before activation: Podium's timebase callback (unconditionally: it takes
    /// over from another master).
    // Thread: NRT (the driver)
    func becomeTimebaseMaster(state: UnsafeMutableRawPointer) throws {
        let rc = jack_set_timebase_callback(client, 0, podiumTimebase, state)
        if rc != 0 { throw JackError.call("jack_set_timebase_callback", detail: "code \(rc)") }
    }

    // Thread: NRT (the driver)
    func releaseTimebase() { _ = jack_release_timebase(client) }

    /// Starts the transport rolling (followers move).
    // Thread: NRT (the driver)
    func startTransport() { jack_transport_start(client) }

    /// Whether the transport this client sees is stopped.
    // Thread: NRT (the supervisor)
    var transportIsStopped: Bool {
        var pos = jack_position_t()
        return jack_transport_query(client, &pos) == JackTransportStopped
    }

    /// The transport's frame while it waits in `Starting` for its clients; nil in any other state.
    // Thread: NRT (the supervisor)
    var transportStartingFrame: UInt32? {
        var pos = jack_position_t()
        return jack_transport_query(client, &pos) == JackTransportStarting ? pos.frame : nil
    }

    /// Asks for the transport at `frame` (JACK makes every client take part in a new start).
    // Thread: NRT (the supervisor)
    func locateTransport(_ frame: UInt32) { _ = jack_transport_locate(client, frame) }
}
