import Foundation
import PodiumAudioFile
import PodiumProbe
import Testing

/// A PipeWire of the test's own, headless: a private D-Bus, its runtime and config directories,
/// pipewire and wireplumber, and a null sink (`podium-null-sink`, stereo, 48 kHz), all in one
/// temporary directory (Fixtures/pw-session.sh). JACK clients reach it through `pw-jack` with
/// `environment`; nothing is shared with the machine (jackd2 tests run beside it).
final class TestPipeWire: @unchecked Sendable {
    let directory: URL
    let environment: [String: String]
    static let script = Paths.fixture("pw-session.sh")

    /// pipewire, wireplumber, pw-jack, pw-record, pw-metadata and dbus-daemon are installed
    /// (scripts/setup … tests).
    static var available: Bool {
        ["pipewire", "wireplumber", "pw-jack", "pw-record", "pw-metadata", "dbus-daemon"].allSatisfy { which($0) != nil }
    }

    init(_ tag: String = #function) throws {
        directory = Paths.temporaryDirectory("pw-" + tag)
        let r = try run("/bin/sh", [TestPipeWire.script, "start", directory.path], timeout: 30)
        guard r.status == 0 else { throw TestFailure("PipeWire did not start: \(r.stderr)") }
        var env: [String: String] = [:]
        for line in r.stdout.split(separator: "\n") where line.hasPrefix("export ") {
            let assignment = line.dropFirst("export ".count)
            guard let eq = assignment.firstIndex(of: "=") else { continue }
            env[String(assignment[..<eq])] = String(assignment[assignment.index(after: eq)...]).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
        // PipeWire's libjack takes a server name as a PipeWire remote's: the default one.
        env["JACK_DEFAULT_SERVER"] = "default"
        environment = env
    }

    /// Kills pipewire and wireplumber (SIGKILL: as a crash), leaving the bus.
    func kill() throws {
        let r = try run("/bin/sh", [TestPipeWire.script, "kill-pw", directory.path], environment: environment, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Starts them again; returns when the sink's ports are there for JACK clients.
    func restart() throws {
        let r = try run("/bin/sh", [TestPipeWire.script, "start-pw", directory.path], environment: environment, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Starts pipewire alone: JACK clients connect, the sink has no ports until `startSessionManager`.
    func restartServerOnly() throws {
        let r = try run("/bin/sh", [TestPipeWire.script, "start-pipewire", directory.path], environment: environment, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// Starts wireplumber; returns when the sink's ports are there for JACK clients.
    func startSessionManager() throws {
        let r = try run("/bin/sh", [TestPipeWire.script, "start-wireplumber", directory.path], environment: environment, timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
    }

    func stop() {
        _ = try? run("/bin/sh", [TestPipeWire.script, "stop", directory.path], timeout: 30)
    }

    /// Forces PipeWire's quantum (0: back to its own choice).
    func forceQuantum(_ frames: Int) throws {
        let r = try run(try #require(which("pw-metadata")), ["-n", "settings", "0", "clock.force-quantum", "\(frames)"], environment: environment, timeout: 10)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// The sink's output for `seconds` (pw-record from its monitor), as mono floats: the peak.
    func recordSinkPeak(seconds: Double) throws -> Double {
        let file = directory.appendingPathComponent("sink-\(UUID().uuidString.prefix(6)).wav").path
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(which("pw-record")))
        p.arguments = ["--target", "podium-null-sink", "-P", "{ stream.capture.sink = true }", "--format", "f32", "--channels", "1", file]
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        Thread.sleep(forTimeInterval: seconds)
        p.interrupt()
        waitForExit(p)
        return try SoundFileContents(path: file).samples.map(abs).max() ?? 0
    }

    /// `pw-jack` running a program with this PipeWire's environment, its stderr collected.
    func launch(_ arguments: [String]) throws -> (Process, PipeReader) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try #require(which("pw-jack")))
        p.arguments = arguments
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try p.run()
        return (p, PipeReader(err.fileHandleForReading))
    }
}
