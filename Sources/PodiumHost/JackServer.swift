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
        let alsa = hasSoundCard
        let driver = alsa ? ["-d", "alsa", "-d", "hw:0", "-r", "\(sampleRate)", "-p", "\(period)", "-n", "2"]
                          : ["-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
        return try launch(name: name, backend: alsa ? .alsa : .dummy, args: ["-n", name, "-r"] + driver, timeout: 10,
                          ready: { _ in isRunning(name: name) }, notReady: { _ in "did not accept clients within 10 s" })
    }

    /// Runs `jackd args` (stopped when this process dies) and polls `ready` with its output so
    /// far until it holds; an early exit or `timeout` stops it and throws, naming the command.
    static func launch(name: String, backend: Backend, args: [String], timeout: Double,
                       ready: (String) -> Bool, notReady: (String) -> String) throws -> JackServer {
        guard let jackd = ["/usr/bin/jackd", "/usr/local/bin/jackd"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw JackError.call("jackd", detail: "not installed (apt: jackd2)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: jackd)
        process.arguments = args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        let output = ServerOutput(out.fileHandleForReading)
        do { try process.run() } catch { throw JackError.call("jackd", detail: "\(error)") }
        JackServer.stopWhenParentDies(server: process.processIdentifier)
        let server = JackServer(name: name, backend: backend, process: process, output: output)
        let command = "jackd \(args.joined(separator: " "))"
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if !process.isRunning {
                throw JackError.call(command, detail: "exited with status \(process.terminationStatus): \(output.text.suffix(300))")
            }
            if ready(output.text) { return server }
            Thread.sleep(forTimeInterval: 0.05)
        }
        server.stop()
        throw JackError.call(command, detail: notReady(output.text))
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
        // The first -n is jackd's server name; after -d net, the driver's client name.
        let args = ["-n", name, "-d", "net", "-l", "\(options.latency)", "-n", options.clientName] + (options.master.map { ["-a", $0] } ?? [])
        let server = try launch(name: name, backend: .net, args: args, timeout: timeout,
                                ready: { masterAnswered($0) != nil && isRunning(name: name) },
                                notReady: { _ in "no netJACK2 master answered within \(Int(timeout)) s at \(options.master ?? "225.3.19.154 (multicast)"):19000 (on the mixing machine: jack_load netmanager)" })
        server.netSummary = masterAnswered(server.output?.text ?? "")
        return server
    }

    /// "48000 Hz, period 256, netJACK2 latency 2 periods" from the block a netJACK2 slave prints
    /// once its master has answered ("Sample rate : …", "Period size : …", "Network latency : …").
    // Thread: any
    static func masterAnswered(_ text: String) -> String? {
        func value(_ key: String) -> String? {
            guard let r = text.range(of: key) else { return nil }
            return String(text[r.upperBound...].drop { $0 == " " || $0 == ":" }.prefix { $0.isNumber })
        }
        guard text.contains("Slave mode"), let rate = value("Sample rate"), let period = value("Period size"),
              let latency = value("Network latency") else { return nil }
        return "\(rate) Hz, period \(period), netJACK2 latency \(latency) periods"
    }

    /// What the server printed (its start-up lines; nil for a server made elsewhere).
    let output: ServerOutput?

    init(name: String, backend: Backend, process: Process, output: ServerOutput? = nil) {
        self.name = name
        self.backend = backend
        self.process = process
        self.output = output
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

/// A server's output (stdout and stderr), read on its own thread so that a chatty server never
/// blocks on a full pipe: what it said when it failed to start, and a net slave's start-up block.
final class ServerOutput: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    // Thread: NRT (the owner's), starts the reader
    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let chunk = handle.availableData   // blocks; empty at EOF
                if chunk.isEmpty { return }
                lock.withLock { data.append(chunk.prefix(max(0, 65536 - data.count))) }   // start-up lines only
            }
        }
    }

    // Thread: any
    var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
