import Glibc
import Synchronization

/// Runs a program with a text on its standard input and collects its standard output, within a
/// deadline: the orchestra check's child (`podium check --stdin`).
///
/// posix_spawn directly, one child at a time. Foundation's `Process.run` crashed inside itself
/// (a read past a page in memmove) when several surfaces started checks at once under the
/// fuzz of issue 18; and a pipe to a child that died while its text was being written would
/// raise SIGPIPE in the performing process. Here the child's standard input is one end of a
/// socket pair written with MSG_NOSIGNAL, and the environment is read once.
enum ChildProcess {
    enum Exit: Equatable { case status(Int32), signal(Int32), timedOut }

    struct SpawnError: Error { let call: String; let errno: Int32 }

    /// One check at a time: a flood of code from a surface queues instead of forking a child
    /// per message on a 2-core machine.
    private static let serial = Mutex(())

    /// The environment the children get, read from `environ` once, before any of them runs.
    private static let inherited: [String] = {
        var list: [String] = []
        var p = environ
        while let entry = p.pointee { list.append(String(cString: entry)); p += 1 }
        return list
    }()

    // Thread: NRT (a surface's thread, or the file watcher)
    static func run(_ path: String, arguments: [String], environment extra: [String: String], input: [UInt8],
                    timeout: Double) throws(SpawnError) -> (exit: Exit, output: [UInt8]) {
        let environment = inherited.filter { entry in !extra.keys.contains { entry.hasPrefix($0 + "=") } }
            + extra.map { "\($0.key)=\($0.value)" }
        return try serial.withLock { _ throws(SpawnError) in
            try spawn(path, [path] + arguments, environment, input, timeout)
        }
    }

    private static func spawn(_ path: String, _ argv: [String], _ envp: [String], _ input: [UInt8],
                              _ timeout: Double) throws(SpawnError) -> (exit: Exit, output: [UInt8]) {
        var stdinPair: [Int32] = [-1, -1], stdoutPair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &stdinPair) == 0 else {
            throw SpawnError(call: "socketpair", errno: errno)
        }
        guard pipe(&stdoutPair) == 0 else {
            let e = errno
            close(stdinPair[0]); close(stdinPair[1])
            throw SpawnError(call: "pipe", errno: e)
        }
        // Not inherited by children other surfaces start meanwhile (the copies posix_spawn makes stay).
        for fd in stdoutPair { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPair[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = envp.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArgs, cEnv)
        close(stdinPair[1]); close(stdoutPair[1])
        let toChild = stdinPair[0], fromChild = stdoutPair[0]
        defer { close(toChild); close(fromChild) }
        guard spawned == 0 else { throw SpawnError(call: "posix_spawn \(path)", errno: spawned) }

        // Write the text and read the answer together: a large text must not fill a pipe both wait on.
        _ = fcntl(toChild, F_SETFL, fcntl(toChild, F_GETFL) | O_NONBLOCK)
        var written = 0, writing = true, output: [UInt8] = []
        if input.isEmpty { shutdown(toChild, Int32(SHUT_WR)); writing = false }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .seconds(timeout)
        var timedOut = false
        while true {
            let remaining = deadline - ContinuousClock.now
            let left = Double(remaining.components.seconds) + Double(remaining.components.attoseconds) * 1e-18
            if left <= 0 { timedOut = true; break }
            var fds = [pollfd(fd: fromChild, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: writing ? toChild : -1, events: Int16(POLLOUT), revents: 0)]
            let ready = poll(&fds, 2, Int32(min(left, 1) * 1000))
            if ready < 0 && errno != EINTR { break }
            if writing, fds[1].revents != 0 {
                let n = input.withUnsafeBytes { send(toChild, $0.baseAddress! + written, input.count - written, Int32(MSG_NOSIGNAL)) }
                if n > 0 { written += n }
                if n < 0 && errno != EAGAIN && errno != EINTR { writing = false }  // the child stopped reading
                if written == input.count || !writing { shutdown(toChild, Int32(SHUT_WR)); writing = false }
            }
            if fds[0].revents != 0 {
                let n = read(fromChild, &buffer, buffer.count)
                if n > 0 { output += buffer[0..<n] } else if n == 0 || errno != EINTR { break }
            }
        }
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if timedOut { return (.timedOut, output) }
        // WIFSIGNALED / WEXITSTATUS, spelled out (the C macros do not import).
        let signal = status & 0x7f
        return (signal != 0 && signal != 0x7f ? .signal(signal) : .status((status >> 8) & 0xff), output)
    }
}
