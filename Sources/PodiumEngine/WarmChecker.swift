import Glibc
import Synchronization

/// What the warm checker (`podium check --serve`) and the performance say to each other: a
/// request (the limits, Csound's options, the text) and an answer (how the check's child
/// ended, and what it printed). Little-endian 32-bit lengths, UTF-8 text.
public enum WarmCheckProtocol {
    public struct Request: Sendable, Equatable {
        public var cpuSeconds: Int?
        public var memoryMiB: Int?
        public var wallMilliseconds: Int
        public var options: [String]
        public var text: String
    }

    public struct Answer: Sendable, Equatable {
        public enum Kind: UInt8, Sendable { case status = 0, signal = 1, timedOut = 2 }
        public var kind: Kind
        public var code: Int32
        public var output: [UInt8]
        public init(kind: Kind, code: Int32, output: [UInt8]) {
            self.kind = kind
            self.code = code
            self.output = output
        }
    }

    static func put(_ v: Int32, _ out: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { out += $0 } }
    static func put(_ s: String, _ out: inout [UInt8]) { let b = Array(s.utf8); put(Int32(b.count), &out); out += b }

    static func encode(_ r: Request) -> [UInt8] {
        var out: [UInt8] = []
        put(Int32(r.cpuSeconds ?? -1), &out)
        put(Int32(r.memoryMiB ?? -1), &out)
        put(Int32(r.wallMilliseconds), &out)
        put(Int32(r.options.count), &out)
        for o in r.options { put(o, &out) }
        put(r.text, &out)
        return out
    }

    static func encode(_ a: Answer) -> [UInt8] {
        var out: [UInt8] = [a.kind.rawValue]
        put(a.code, &out)
        put(Int32(a.output.count), &out)
        return out + a.output
    }

    /// A poll's timeout for `left` until a deadline: at least 1 ms, at most a second (so that a
    /// loop around it looks at the clock again).
    public static func pollMilliseconds(_ left: Duration) -> Int32 {
        Int32(min(1000, max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)))
    }

    /// Reads exactly `count` bytes (nil at the end of input, an error, or the deadline).
    static func read(_ fd: Int32, _ count: Int, deadline: ContinuousClock.Instant?) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            if let deadline {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { return nil }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&p, 1, pollMilliseconds(left))
                if ready < 0 && errno != EINTR { return nil }
                if ready <= 0 { continue }
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + got, count - got) }
            if n > 0 { got += n } else if n == 0 || errno != EINTR { return nil }
        }
        return bytes
    }

    static func int32(_ fd: Int32, deadline: ContinuousClock.Instant? = nil) -> Int32? {
        read(fd, 4, deadline: deadline).map { b in Int32(littleEndian: b.withUnsafeBytes { $0.loadUnaligned(as: Int32.self) }) }
    }

    static func string(_ fd: Int32) -> String? {
        guard let n = int32(fd), n >= 0, n < 1 << 28, let b = read(fd, Int(n), deadline: nil) else { return nil }
        return String(decoding: b, as: UTF8.self)
    }

    /// Writes all of `bytes` (false on an error: the other side is gone).
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            if n < 0 && errno == ENOTSOCK {
                let w = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
                if w > 0 { done += w; continue }
                if w < 0 && errno == EINTR { continue }
                return false
            }
            if n > 0 { done += n } else if n < 0 && errno == EINTR { continue } else { return false }
        }
        return true
    }

    /// The server's side: the next request (nil when the performance is gone).
    public static func readRequest(from fd: Int32) -> Request? {
        guard let cpu = int32(fd), let memory = int32(fd), let wall = int32(fd), let n = int32(fd), n >= 0, n < 1024 else { return nil }
        var options: [String] = []
        for _ in 0..<n { guard let o = string(fd) else { return nil }; options.append(o) }
        guard let text = string(fd) else { return nil }
        return Request(cpuSeconds: cpu >= 0 ? Int(cpu) : nil, memoryMiB: memory >= 0 ? Int(memory) : nil,
                       wallMilliseconds: Int(max(1, wall)), options: options, text: text)
    }

    public static func write(_ a: Answer, to fd: Int32) -> Bool { writeAll(fd, encode(a)) }

    static func readAnswer(from fd: Int32, deadline: ContinuousClock.Instant) -> Answer? {
        guard let kindByte = read(fd, 1, deadline: deadline), let kind = Answer.Kind(rawValue: kindByte[0]),
              let code = int32(fd, deadline: deadline), let n = int32(fd, deadline: deadline), n >= 0, n < 1 << 28,
              let output = read(fd, Int(n), deadline: deadline) else { return nil }
        return Answer(kind: kind, code: code, output: output)
    }
}

/// Csound's plugins loaded into this process for good, by a bare Csound instance that is never
/// destroyed (csoundCreate loads every plugin; destroying it would unload them): the warm
/// checker's server does this once, and each child it forks finds them mapped. No `Engine`: its
/// console takes a Swift `Mutex`, whose owner check would trap in a forked child (it keeps the
/// parent's thread id).
public enum CsoundPlugins {
    // Thread: the process's only one (before any fork)
    public static func keepLoaded() {
        _ = try? CsoundAPI.create(hostData: nil)
    }
}

/// The performance's side of the warm checker: one `podium check --serve` process, started with
/// the performance (`start`) or at the first check, which forks a child per check (CheckServer);
/// restarted when it dies. One check at a time (the compile queue asks for one at a time).
public final class WarmChecker: @unchecked Sendable {
    public static let shared = WarmChecker()

    private struct Server { var pid: pid_t; var fd: Int32 }
    private let server = Mutex<Server?>(nil)

    /// The server's process id (tests: one that is killed is started again).
    public var pid: pid_t? { server.withLock { $0?.pid } }

    /// Starts the server now, so that the first check does not wait for it (podium play does).
    // Thread: NRT (owner)
    public func start() throws(ChildProcess.SpawnError) {
        try server.withLock { s throws(ChildProcess.SpawnError) in if s == nil { s = try WarmChecker.launch() } }
    }

    /// Stops the server (it ends with its input).
    public func stop() {
        server.withLock { s in
            guard let current = s else { return }
            close(current.fd)
            kill(current.pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(current.pid, &status, 0) < 0 && errno == EINTR {}
            s = nil
        }
    }

    /// One check: how its child ended and what it printed. A server that died (or never
    /// answers) is started again and asked once more.
    // Thread: NRT (the compile queue's)
    func check(_ request: WarmCheckProtocol.Request) throws(ChildProcess.SpawnError) -> (exit: ChildProcess.Exit, output: [UInt8]) {
        try server.withLock { s throws(ChildProcess.SpawnError) -> (exit: ChildProcess.Exit, output: [UInt8]) in
            for attempt in 0..<2 {
                if s == nil { s = try WarmChecker.launch() }
                let current = s!
                // The server ends the child at the wall limit; two more seconds for the server itself.
                let deadline = ContinuousClock.now + .milliseconds(request.wallMilliseconds + 2000)
                if WarmCheckProtocol.writeAll(current.fd, WarmCheckProtocol.encode(request)),
                   let answer = WarmCheckProtocol.readAnswer(from: current.fd, deadline: deadline) {
                    switch answer.kind {
                    case .status: return (.status(answer.code), answer.output)
                    case .signal: return (.signal(answer.code), answer.output)
                    case .timedOut: return (.timedOut, answer.output)
                    }
                }
                // Gone or stuck: a new server.
                close(current.fd)
                kill(current.pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(current.pid, &status, 0) < 0 && errno == EINTR {}
                s = nil
                if attempt == 1 { return (.timedOut, []) }
            }
            return (.timedOut, [])
        }
    }

    private static func launch() throws(ChildProcess.SpawnError) -> Server {
        guard let checker = OrchestraCheck.checker else { throw ChildProcess.SpawnError(call: "podium (the checker) beside this program", errno: ENOENT) }
        let (pid, fd) = try ChildProcess.launch(checker, arguments: ["check", "--serve"], environment: ["SWIFT_BACKTRACE": "enable=no"])
        return Server(pid: pid, fd: fd)
    }
}
