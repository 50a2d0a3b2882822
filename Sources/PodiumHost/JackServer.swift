import Foundation
import PodiumRealtime

/// A JACK server Podium started itself because none was running (`--jack-server auto`).
/// Thread: NRT (main).
public final class JackServer {
    public enum Backend: Equatable, Sendable { case alsa, dummy }
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
        case .dummy: args += ["-d", "dummy", "-r", "\(sampleRate)", "-p", "\(period)"]
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
