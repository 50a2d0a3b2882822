import Foundation
import PodiumProbe
import Testing

/// A network namespace of the test's own, so that Link's multicast never leaves this machine:
/// loopback up, multicast on, a route for 224.0.0.0/4. Removed by `remove()` (call it in a
/// `defer`). Root only (`ip netns`).
final class NetNamespace: @unchecked Sendable {
    let name: String
    private var removed = false

    // Thread: the test's
    init(_ tag: String) throws {
        name = "podl-\(tag.prefix(6))-\(UUID().uuidString.prefix(6).lowercased())"
        try NetNamespace.ip(["netns", "add", name])
        do {
            try exec(["ip", "link", "set", "lo", "up"])
            try exec(["ip", "link", "set", "lo", "multicast", "on"])
        } catch {
            remove()
            throw error
        }
    }

    /// The argument vector that runs `command` inside this namespace.
    // Thread: any
    func command(_ command: [String]) -> [String] { ["/usr/sbin/ip", "netns", "exec", name] + command }

    // Thread: the test's
    func exec(_ command: [String]) throws {
        let r = try run("/usr/sbin/ip", ["netns", "exec", name] + command, timeout: 10)
        guard r.status == 0 else { throw TestFailure("ip netns exec \(name) \(command.joined(separator: " ")): \(r.stderr)") }
    }

    /// Multicast to loopback: for peers in this namespace only.
    // Thread: the test's
    func routeMulticastToLoopback() throws { try exec(["ip", "route", "add", "224.0.0.0/4", "dev", "lo"]) }

    /// A veth pair between this namespace and `other` (10.77.N.1 and .2/24), multicast routed over it.
    // Thread: the test's
    func link(to other: NetNamespace, subnet: Int) throws {
        let a = "pa\(subnet)-\(UUID().uuidString.prefix(4).lowercased())", b = "pb\(subnet)-\(UUID().uuidString.prefix(4).lowercased())"
        try NetNamespace.ip(["link", "add", a, "netns", name, "type", "veth", "peer", "name", b, "netns", other.name])
        for (ns, dev, host) in [(self, a, 1), (other, b, 2)] {
            try ns.exec(["ip", "addr", "add", "10.77.\(subnet).\(host)/24", "dev", dev])
            try ns.exec(["ip", "link", "set", dev, "multicast", "on"])
            try ns.exec(["ip", "link", "set", dev, "up"])
            try ns.exec(["ip", "route", "add", "224.0.0.0/4", "dev", dev])
        }
    }

    /// Deletes the namespace (its veth ends go with it). Idempotent.
    // Thread: the test's
    func remove() {
        guard !removed else { return }
        removed = true
        _ = try? run("/usr/sbin/ip", ["netns", "delete", name], timeout: 10)
    }

    // Thread: the test's
    static func ip(_ args: [String]) throws {
        let r = try run("/usr/sbin/ip", args, timeout: 10)
        guard r.status == 0 else { throw TestFailure("ip \(args.joined(separator: " ")): \(r.stderr)") }
    }

    /// Whether this machine can make namespaces (root, iproute2).
    // Thread: any
    static var available: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/sbin/ip")
    }
}

/// A long-running child driven line by line: stdin written, stdout and stderr collected.
final class LineChild: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let out: PipeReader
    private let err: PipeReader

    // Thread: the test's
    init(_ argv: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: argv[0])
        process.arguments = Array(argv.dropFirst())
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let o = Pipe(), e = Pipe()
        process.standardInput = input
        process.standardOutput = o
        process.standardError = e
        try process.run()
        out = PipeReader(o.fileHandleForReading)
        err = PipeReader(e.fileHandleForReading)
    }

    // Thread: the test's
    func say(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    var stdout: String { String(decoding: out.snapshot, as: UTF8.self) }
    var stderr: String { String(decoding: err.snapshot, as: UTF8.self) }
    var lines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// Sends `line` every `every` seconds until a line printed after the first send satisfies
    /// `match`; that line, or nil after `timeout`.
    // Thread: the test's
    func ask(_ line: String?, every: Double = 0.05, timeout: Double, until match: (String) -> Bool) -> String? {
        let start = lines.count
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let line { say(line) }
            Thread.sleep(forTimeInterval: every)
            if let hit = lines.dropFirst(start).last(where: match) { return hit }
        }
        return nil
    }

    /// Where each thread of the child is (name, state, kernel wait channel; with gdb present, its
    /// stack too): said when a child stays silent, so that a hang names its place.
    // Thread: the test's
    func whereStuck() -> String {
        let pid = process.processIdentifier, dir = "/proc/\(pid)/task"
        var lines: [String] = []
        for t in ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted() {
            let read = { (f: String) in ((try? String(contentsOfFile: "\(dir)/\(t)/\(f)", encoding: .utf8)) ?? "?").trimmingCharacters(in: .whitespacesAndNewlines) }
            let stat = read("stat"), state = stat.lastIndex(of: ")").map { String(stat[stat.index($0, offsetBy: 2)]) } ?? "?"
            lines.append("\(t) \(read("comm")) \(state) \(read("wchan"))")
        }
        if let gdb = which("gdb"), let r = try? run(gdb, ["-p", "\(pid)", "-batch", "-ex", "thread apply all bt 12"], timeout: 30) {
            lines += r.stdout.split(separator: "\n").filter { $0.hasPrefix("#") || $0.hasPrefix("Thread") }.map(String.init)
        }
        return "pid \(pid) threads:\n" + lines.joined(separator: "\n")
    }

    /// Sends `quit` (`:quit` for podium, whose piped REPL plays on after the end of input),
    /// closes stdin and waits; killed after `timeout`.
    // Thread: the test's
    func finish(_ quit: String, timeout: Double = 10) {
        say(quit)
        try? input.fileHandleForWriting.close()
        waitForExit(process, timeout: timeout)
    }
}

/// The first number after `key ` in `line` (`tempo 137.00006 BPM` → 137.00006).
// Thread: any
func number(after key: String, in line: String) -> Double? {
    guard let r = line.range(of: key + " ") else { return nil }
    return Double(line[r.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" })
}
