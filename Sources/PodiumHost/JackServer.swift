import Foundation
import PodiumRealtime

/// A JACK server Podium started itself because none was running (`--jack-server auto`), or a
/// netJACK2 slave that plays into a master's graph on the LAN (`--jack-server net`).
/// Thread: NRT (main).
public final class JackServer {
    public enum Backend: Equatable, Sendable { case alsa, dummy, net }
    public let name: String
    public let backend: Backend
    let process: Process

    /// Starts `jackd` for the named server: the ALSA default device when the machine has a
    /// sound card, otherwise the dummy backend. Waits until clients can connect.
    public static func start(name: String, sampleRate: Int = 48000, period: Int = 256) throws -> JackServer {
        guard let jackd = ["/usr/bin/jackd", "/usr/local/bin/jackd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw JackError.call("jackd", detail: "not installed (apt: jackd2)")
        }
        let backend: Backend = hasSoundCard ? .alsa : .dummy
        let process = Process()
        process.executableURL = URL(fileURLWithPath: jackd)
        var args = ["-n", name, "-r"]
        switch backend {
        case .alsa: args += ["-d", "alsa", "-d", "hw:0", "-r", "\(sampleRate)", "-p", "\(period)", "-n", "2"]
        case .dummy, .net: args += ["-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]   // (.net: startNet)
        }
        process.arguments = args
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { throw JackError.call("jackd", detail: "\(error)") }
        JackServer.stopWhenParentDies(server: process.processIdentifier)
        let server = JackServer(name: name, backend: backend, process: process)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if !process.isRunning { throw JackError.call("jackd \(args.joined(separator: " "))", detail: "exited with status \(process.terminationStatus)") }
            if isRunning(name: name) { return server }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        throw JackError.call("jackd \(args.joined(separator: " "))", detail: "did not accept clients within 10 s")
    }

    /// What a netJACK2 slave is told: the master (nil: found by multicast, 225.3.19.154:19000),
    /// the latency netJACK2 adds (in periods) and the client name it takes in the master's graph.
    public struct NetOptions: Sendable, Equatable {
        public var master: String?
        public var latency: Int
        public var clientName: String
        public init(master: String? = nil, latency: Int = 5, clientName: String) {
            self.master = master
            self.latency = latency
            self.clientName = clientName
        }
    }

    /// What a slave learnt from its master: sample rate, period, latency (its start-up lines).
    public private(set) var netSummary: String?

    /// Starts `jackd -d net`: a slave that finds the master, takes its sample rate and period,
    /// and appears in its graph as a client whose ports carry this machine's system ports.
    /// Returns when the master has answered (the slave's clients then run at the master's
    /// rate and period); a master that does not answer within `timeout` is an error.
    public static func startNet(name: String, options: NetOptions, timeout: Double = 15) throws -> JackServer {
        guard let jackd = ["/usr/bin/jackd", "/usr/local/bin/jackd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw JackError.call("jackd", detail: "not installed (apt: jackd2)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: jackd)
        // The first -n is jackd's server name; after -d net, the driver's client name.
        let args = ["-n", name, "-d", "net", "-l", "\(options.latency)", "-n", options.clientName] + (options.master.map { ["-a", $0] } ?? [])
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        let lines = NetStartLines(out.fileHandleForReading)
        do { try process.run() } catch { throw JackError.call("jackd", detail: "\(error)") }
        JackServer.stopWhenParentDies(server: process.processIdentifier)
        let server = JackServer(name: name, backend: .net, process: process)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !process.isRunning {
                throw JackError.call("jackd \(args.joined(separator: " "))", detail: "exited with status \(process.terminationStatus): \(lines.text.suffix(300))")
            }
            if let summary = lines.masterAnswered, isRunning(name: name) {
                server.netSummary = summary
                return server
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        throw JackError.call("jackd \(args.joined(separator: " "))", detail: "no netJACK2 master answered within \(Int(timeout)) s at \(options.master ?? "225.3.19.154 (multicast)"):19000 (on the mixing machine: jack_load netmanager)")
    }

    init(name: String, backend: Backend, process: Process) {
        self.name = name
        self.backend = backend
        self.process = process
    }

    /// True when a client can connect to the named server now.
    public static func isRunning(name: String) -> Bool {
        guard let probe = try? JackAPI.open(name: "podium-probe-\(getpid())", server: name) else { return false }
        probe.close()
        return true
    }

    /// A card listed by ALSA (and its device nodes present).
    static var hasSoundCard: Bool {
        guard let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return false }
        return !cards.contains("no soundcards") && !cards.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            && FileManager.default.fileExists(atPath: "/dev/snd")
    }

    public var pid: Int32 { process.processIdentifier }

    /// A server started for this process must not outlive it, even if it crashes: a small
    /// watchdog shell kills the server once this process is gone (it exits by itself when the
    /// server stops first).
    public static func stopWhenParentDies(server pid: Int32) {
        let watchdog = Process()
        watchdog.executableURL = URL(fileURLWithPath: "/bin/sh")
        watchdog.arguments = ["-c", "while kill -0 \(getpid()) 2>/dev/null && kill -0 \(pid) 2>/dev/null; do sleep 1; done; kill -9 \(pid) 2>/dev/null; true"]
        watchdog.standardInput = FileHandle.nullDevice
        watchdog.standardOutput = FileHandle.nullDevice
        watchdog.standardError = FileHandle.nullDevice
        try? watchdog.run()
    }

    /// Stops the server and waits for it.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    deinit { stop() }
}

/// A netJACK2 slave's output, read on its own thread: the block it prints once its master has
/// answered ("Sample rate : …", "Period size : …", "Network latency : …").
final class NetStartLines: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    // Thread: NRT (the owner's), starts the reader
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData   // blocks; empty at EOF
                if chunk.isEmpty { return }
                lock.withLock { data.append(chunk) }
            }
        }
    }

    // Thread: any
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

    /// "48000 Hz, period 256, netJACK2 latency 2 periods" once the master has answered.
    // Thread: any
    var masterAnswered: String? {
        let t = text
        func value(_ key: String) -> String? {
            guard let r = t.range(of: key) else { return nil }
            let rest = t[r.upperBound...].drop { $0 == " " || $0 == ":" }
            return String(rest.prefix { $0.isNumber })
        }
        guard t.contains("Slave mode"), let rate = value("Sample rate"), let period = value("Period size"), let latency = value("Network latency") else { return nil }
        return "\(rate) Hz, period \(period), netJACK2 latency \(latency) periods"
    }
}
