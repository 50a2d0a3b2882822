import Foundation
import PodiumHost
import PodiumProbe
import PodiumSession
import PodiumSurfaces
import Testing
import Synchronization

/// Where things are, for tests that use the real libcsound, the csound CLI and the podium binary.
enum Paths {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let orchestras = packageRoot.appendingPathComponent("Orchestras")
    static let fixtures = packageRoot.appendingPathComponent("Tests/PodiumTests/Fixtures")

    static func orchestra(_ name: String) -> String { orchestras.appendingPathComponent(name).path }
    static func fixture(_ name: String) -> String { fixtures.appendingPathComponent(name).path }

    /// Where `podium play` keeps sessions during the tests (every performance keeps one): a
    /// temporary directory, through $PODIUM_SESSIONS, which every podium the tests start
    /// inherits — never the repository's Sessions/.
    static let testSessions: String = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-tests-sessions-\(getpid())").path
        setenv("PODIUM_SESSIONS", dir, 1)
        return dir
    }()

    /// The podium binary built beside the test bundle (scripts/test builds it first).
    static var podium: String {
        _ = testSessions
        let bundleDir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for dir in [bundleDir, bundleDir.deletingLastPathComponent(), packageRoot.appendingPathComponent(".build/debug")] {
            let candidate = dir.appendingPathComponent("podium").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return packageRoot.appendingPathComponent(".build/debug/podium").path
    }

    /// A fresh directory for one test's files.
    static func temporaryDirectory(_ tag: String = #function) -> URL {
        let safe = tag.filter { $0.isLetter || $0.isNumber }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("podium-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

/// The result of running a program to completion.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs a program with arguments; output captured, stdin closed. A program still running after
/// `timeout` seconds is killed and the test records it: a hung child fails one test instead of
/// stalling the whole run. Output is collected until the program exits (plus a short grace for
/// the pipes), so a daemon that inherits them — tmux's server does — cannot block the caller.
func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
         timeout: TimeInterval = 120) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    let exited = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in exited.signal() }
    try process.run()
    let outBox = PipeReader(out.fileHandleForReading), errBox = PipeReader(err.fileHandleForReading)
    if exited.wait(timeout: .now() + timeout) == .timedOut {
        // Its whole tree: a browser left running by a killed Selenium script (chromedriver and
        // Chromium, orphaned) kept two pages busy and slowed a whole run by a third.
        for child in descendants(of: process.processIdentifier) { kill(child, SIGKILL) }
        kill(process.processIdentifier, SIGKILL)
        Issue.record("\(executable) \(arguments.joined(separator: " ")) still running after \(timeout) s: killed")
        // Foundation learns of the exit through a descriptor the child holds; a grandchild
        // that inherited it hides the exit. Give up on the status rather than hang.
        if exited.wait(timeout: .now() + 2) == .timedOut {
            return ProcessResult(status: -1, stdout: String(decoding: outBox.snapshot, as: UTF8.self),
                                 stderr: String(decoding: errBox.snapshot, as: UTF8.self))
        }
    }
    let deadline = DispatchTime.now() + 2
    _ = outBox.done.wait(timeout: deadline)
    _ = errBox.done.wait(timeout: deadline)
    return ProcessResult(status: process.terminationStatus,
                         stdout: String(decoding: outBox.snapshot, as: UTF8.self),
                         stderr: String(decoding: errBox.snapshot, as: UTF8.self))
}

/// Every process whose parent chain reaches `pid` (read from /proc), children first found.
func descendants(of pid: pid_t) -> [pid_t] {
    var parent: [pid_t: pid_t] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let p = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        // "pid (comm) state ppid …": the name may hold spaces and parentheses; read after its last ")".
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let pp = pid_t(fields[1]) { parent[p] = pp }
    }
    var found: [pid_t] = [], frontier: Set<pid_t> = [pid]
    while !frontier.isEmpty {
        let next = parent.filter { frontier.contains($0.value) }.map(\.key)
        found += next
        frontier = Set(next)
    }
    return found
}

/// Waits for a started process to end; one still running after `timeout` seconds is killed and
/// the test records it.
func waitForExit(_ process: Process, timeout: TimeInterval = 30) {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
    if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
        Issue.record("\(process.executableURL?.lastPathComponent ?? "child") still running after \(timeout) s: killed")
    }
    process.waitUntilExit()
}

/// Drains one pipe on its own thread, so a chatty child never blocks on a full pipe.
final class PipeReader: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                lock.withLock { data.append(chunk) }
            }
            done.signal()
        }.start()
    }

    var snapshot: Data { lock.withLock { data } }
}

/// A tmux server of the test's own (`-L`), so tests neither depend on nor disturb the user's
/// tmux, and no server outlives the test.
struct Tmux {
    let executable: String
    let socket = "podium-tests-\(getpid())-\(UUID().uuidString.prefix(6))"
    let session = "podium"

    init() throws {
        executable = try #require(which("tmux"), "tmux (apt: tmux)")
    }

    @discardableResult
    func callAsFunction(_ arguments: String...) throws -> String {
        try run(executable, ["-L", socket] + arguments, timeout: 10).stdout
    }

    /// Starts `command` in a detached session of `width`×`height`.
    /// The first tmux command forks the server, which would inherit every descriptor of this
    /// process's child — including the one Foundation's `Process` watches to learn that the
    /// child exited — and keep it open for its whole life. python's subprocess closes all
    /// descriptors but 0–2 in the child, so the server starts clean.
    func start(_ command: String, width: Int = 120, height: Int = 40) throws {
        let python = which("python3") ?? "/usr/bin/python3"
        let launch = "import subprocess, sys; sys.exit(subprocess.run(sys.argv[1:], close_fds=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode)"
        let r = try run(python, ["-c", launch, executable, "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", session,
                                 "-x", "\(width)", "-y", "\(height)", command], timeout: 10)
        #expect(r.status == 0, "tmux new-session: \(r.stderr)")
    }

    func keys(_ keys: String...) throws { try self.keys(keys) }

    /// Types `keys` (tmux key names or text) and gives the program a moment to answer.
    func keys(_ keys: [String]) throws {
        _ = try run(executable, ["-L", socket, "send-keys", "-t", session] + keys, timeout: 10)
        Thread.sleep(forTimeInterval: 0.3)
    }

    func screen() throws -> String { try self("capture-pane", "-t", session, "-p") }

    func kill() { _ = try? self("kill-server") }
}

/// Finds a program on PATH.
func which(_ name: String) -> String? {
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// Runs `body` with file descriptors 1 and 2 sent to a file; returns what was written there.
func capturingStandardOutputAndError(_ body: () throws -> Void) rethrows -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("podium-fd-\(UUID().uuidString)").path
    let fd = open(path, O_CREAT | O_RDWR | O_TRUNC, 0o600)
    precondition(fd >= 0)
    fflush(nil)
    let savedOut = dup(1), savedErr = dup(2)
    dup2(fd, 1); dup2(fd, 2)
    defer {
        fflush(nil)
        dup2(savedOut, 1); dup2(savedErr, 2)
        close(savedOut); close(savedErr); close(fd)
        unlink(path)
    }
    try body()
    fflush(nil)
    return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
}

/// Where two sample arrays first differ (nil when identical). Cheap to report, unlike a
/// diff of two million-element arrays.
func firstDifference(_ a: [Double], _ b: [Double]) -> Int? {
    if a.count != b.count { return min(a.count, b.count) }
    return zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset
}

/// A live take on `driver` (started here, its loops' scheduler with it): `play` runs while the
/// session records; the session's directory is returned once recording has stopped.
func recordedTake(_ driver: JackDriver, in root: URL, _ play: (LiveLoops, CommandProducer) throws -> Void) throws -> URL {
    try driver.start()
    defer { driver.stop() }
    let loops = LiveLoops(driver: driver)
    loops.start()
    defer { loops.stopScheduler() }
    let recording = Recording(driver: driver, sessions: root, podiumVersion: "test")
    let dir = URL(fileURLWithPath: try recording.startRecording())
    try play(loops, driver.makeProducer())
    _ = recording.stopRecording()
    return dir
}

/// `podium replay`'s engine renders the take in `dir` to replay.wav: it is heard (a sample past
/// `heard`) and identical, sample for sample, to what the performance recorded.
func expectReplayIdentical(_ dir: URL, heard: Double, _ what: String) throws {
    _ = try SessionReplayer(directory: dir).run(output: dir.appendingPathComponent("replay.wav").path)
    let recorded = try samples(dir.appendingPathComponent("audio.wav").path)
    #expect(recorded.contains { abs($0) > heard }, "\(what) was heard")
    let diff = firstDifference(recorded, try samples(dir.appendingPathComponent("replay.wav").path))
    #expect(diff == nil, "replay differs at sample \(diff ?? -1)")
}

/// Runs `work` on another thread; after `wait()`, `value` is its result (nil when it threw).
final class InBackground<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let over = Atomic<Bool>(false)
    private var result: T?
    init(_ work: @escaping @Sendable () throws -> T) {
        Thread.detachNewThread { [self] in
            result = try? work()
            over.store(true, ordering: .releasing)
            done.signal()
        }
    }
    func wait() { done.wait() }
    /// Whether the work has finished (without waiting for it).
    var finished: Bool { over.load(ordering: .acquiring) }
    var value: T? { result }
}

/// Whether xruns counted since `before` can be Podium's doing. An xrun is the callback's fault
/// when a callback ran long on the CPU; when every callback's own CPU time stayed well inside the
/// period (the longest is recorded with its CPU time), the xruns came from this shared 2-core
/// machine's scheduling — the dummy server is not real-time, and tests run beside builds and
/// stress-ng. A long CPU time is not the callback's either when the whole machine ran slowly
/// then: `twin` (a client on the same server doing a fixed job every cycle) took several times its
/// usual CPU time for that job in the same cycles (see `MachineTwin` for why a virtual machine
/// does this). Returns nil when Podium caused none, else what the stats say.
func xrunsCausedByPodium(_ stats: DriverStats, since before: DriverStats, twin: MachineTwin) -> String? {
    guard stats.xruns > before.xruns else { return nil }
    if stats.maxCallbackCPUMicroseconds < 0.8 * stats.periodMicroseconds { return nil }
    let slowdown = twin.slowdown(atLongestCallbackOf: stats)
    let twinSaw = slowdown.map { "the twin's fixed job took \(String(format: "%.1f", $0))× its usual CPU time then" } ?? "no twin cycle then"
    if let slowdown, slowdown >= MachineTwin.slowMachine {
        print("xruns not Podium's: the longest callback used \(stats.maxCallbackCPUMicroseconds) µs of CPU and \(twinSaw): the machine was slow")
        return nil
    }
    return "\(stats.xruns - before.xruns) xruns, the longest callback used \(stats.maxCallbackCPUMicroseconds) µs of CPU in a \(stats.periodMicroseconds) µs period (\(twinSaw)): \(stats)"
}

/// The machine's CPU time, from /proc/stat's first line (all cores): idle (idle + iowait) and
/// total, in clock ticks. `IdleCPU.since(before)` is the idle share of the time since `before`.
struct IdleCPU {
    var idle = 0, total = 0

    static func now() -> IdleCPU {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = text.split(separator: "\n").first, line.hasPrefix("cpu ") else { return IdleCPU() }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Int($0) }
        guard ticks.count >= 5 else { return IdleCPU() }
        return IdleCPU(idle: ticks[3] + ticks[4], total: ticks.prefix(8).reduce(0, +))
    }

    func since(_ before: IdleCPU) -> Double {
        total > before.total ? Double(idle - before.idle) / Double(total - before.total) : 0
    }
}
