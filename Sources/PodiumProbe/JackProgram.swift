import Foundation

/// One of JACK's own command-line clients (jackd2's `jack_midi_dump`, Debian `jack-midi-clock`'s
/// `jack_midi_clock` and `jack_mclk_dump` …) running against a test server, its standard output
/// collected; and `jack_connect` for connecting ports by name.
public final class JackProgram: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var collected = Data()
    private let finished = DispatchSemaphore(value: 0)

    // Thread: the caller's
    public init(server: String, _ path: String, _ arguments: [String] = []) throws {
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server, "JACK_NO_START_SERVER": "1"]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { collected.append(chunk) }
            }
            finished.signal()
        }.start()
    }

    /// What it printed so far.
    public var output: String { lock.withLock { String(decoding: collected, as: UTF8.self) } }

    /// Ends it (SIGINT, as a terminal's Ctrl-C; then SIGKILL) and returns everything it printed.
    // Thread: the caller's
    @discardableResult
    public func stop() -> String {
        if process.isRunning {
            process.interrupt()
            let deadline = Date().addingTimeInterval(2)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        _ = finished.wait(timeout: .now() + 2)
        return output
    }

    deinit { stop() }

    /// `jack_connect FROM TO` on `server`, retried until the ports exist (a client just started
    /// registers them a moment later); throws when it never succeeds.
    // Thread: the caller's
    public static func connect(server: String, _ from: String, _ to: String, within seconds: Double = 3) throws {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        repeat {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/jack_connect")
            p.arguments = [from, to]
            p.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server, "JACK_NO_START_SERVER": "1"]) { $1 }
            let err = Pipe()
            p.standardError = err
            p.standardOutput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            if p.terminationStatus == 0 { return }
            last = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        throw TestFailure("jack_connect \(from) \(to): \(last.trimmingCharacters(in: .whitespacesAndNewlines))")
    }
}
