import Glibc
import Synchronization

/// Starts the warm checker (`podium check --serve`, WarmChecker.swift) with posix_spawn directly.
/// Foundation's `Process.run` crashed inside itself (a read past a page in memmove) when several
/// surfaces started checks at once under the fuzz of issue 18; and a pipe to a child that died
/// while its text was being written would raise SIGPIPE in the performing process. Here the
/// child talks over one end of a socket pair, written with MSG_NOSIGNAL, and the environment is
/// read once.
public enum ChildProcess {
    public enum Exit: Equatable, Sendable { case status(Int32), signal(Int32), timedOut }

    public struct SpawnError: Error, Sendable { let call: String; let errno: Int32 }

    /// The environment the children get, read from `environ` once, before any of them runs.
    private static let inherited: [String] = {
        var list: [String] = []
        var p = environ
        while let entry = p.pointee { list.append(String(cString: entry)); p += 1 }
        return list
    }()

    /// Starts a program whose standard input and output are one end of a socket pair (the other
    /// end is returned: write requests to it, read answers from it); standard error is /dev/null.
    /// The descriptor is not inherited by programs started later.
    // Thread: NRT (the compile queue's, or the owner's)
    static func launch(_ path: String, arguments: [String], environment extra: [String: String]) throws(SpawnError) -> (pid: pid_t, fd: Int32) {
        let envp = inherited.filter { entry in !extra.keys.contains { entry.hasPrefix($0 + "=") } } + extra.map { "\($0.key)=\($0.value)" }
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw SpawnError(call: "socketpair", errno: errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArgs = ([path] + arguments).map { strdup($0) } + [nil]
        let cEnv = envp.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, cArgs, cEnv)
        close(pair[1])
        guard spawned == 0 else {
            close(pair[0])
            throw SpawnError(call: "posix_spawn \(path)", errno: spawned)
        }
        return (pid, pair[0])
    }
}
