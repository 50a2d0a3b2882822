import Foundation
import CThreads
import Glibc
import PodiumEngine

/// `podium check --serve`: the warm checker (WarmChecker.swift is the performance's side). One
/// process for the whole performance, with Csound and its plugins loaded once; each check is a
/// child forked from it, so a crash, a longjmp or a limit still ends only that child, but no
/// check pays a process start and Csound's plugin loading again. Requests and answers travel on
/// standard input and output (WarmCheckProtocol); it ends when its input does (the performance
/// stopped or died), also in the middle of a check.
/// Not by PR_SET_PDEATHSIG: that signal follows the *thread* that started the process (prctl(2)),
/// and the performance starts the server from whichever thread first needs it — a compile thread
/// that ends with its driver — which killed the server in the middle of later checks (each then
/// waited for the performance's deadline and a second server). A check's child does die with the
/// server: this process's one thread forks it.
/// Thread: the process's only one (fork needs that).
enum CheckServer {
    static func serve() {
        signal(SIGPIPE, SIG_IGN)
        // Csound's plugins, loaded once here, and the check's two engines, made before each fork
        // (again only when the Csound options change): a child finds them ready.
        CsoundPlugins.keepLoaded()
        var engines: TextCheck.Engines?
        while let request = WarmCheckProtocol.readRequest(from: 0) {
            if engines?.options != request.options { engines = try? TextCheck.prepare(csoundOptions: request.options) }
            let answer = check(request, engines: engines)
            guard WarmCheckProtocol.write(answer, to: 1) else { break }
        }
    }

    /// One check in a forked child: its output through a pipe, ended at the wall-time limit, or
    /// with this server when the performance is gone (its socket, standard input, hung up).
    static func check(_ r: WarmCheckProtocol.Request, engines: TextCheck.Engines?) -> WarmCheckProtocol.Answer {
        var pipeFDs: [Int32] = [-1, -1]
        guard pipe(&pipeFDs) == 0 else { return .init(kind: .status, code: 70, output: Array("pipe: \(String(cString: strerror(errno)))".utf8)) }
        fflush(nil)
        let server = getpid()
        let pid = fork()
        if pid == 0 {
            // Ends with the server (killed at the performance's deadline), even if asleep.
            _ = podium_die_with_parent()
            if getppid() != server { _exit(70) }
            close(pipeFDs[0])
            dup2(pipeFDs[1], 1)
            close(pipeFDs[1])
            let null = open("/dev/null", O_RDONLY)
            if null >= 0 { dup2(null, 0); close(null) }  // the performance's socket stays the server's
            TextCheck.limit(cpuSeconds: r.cpuSeconds, memoryMiB: r.memoryMiB)
            let code = TextCheck.run(r.text, csoundOptions: r.options, engines: engines)
            fflush(nil)
            _exit(code)
        }
        close(pipeFDs[1])
        defer { close(pipeFDs[0]) }
        guard pid > 0 else { return .init(kind: .status, code: 70, output: Array("fork: \(String(cString: strerror(errno)))".utf8)) }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = ContinuousClock.now + .milliseconds(r.wallMilliseconds)
        var timedOut = false
        while true {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { timedOut = true; break }
            // The child's output, and the performance's socket: hung up when it is gone.
            var p = [pollfd(fd: pipeFDs[0], events: Int16(POLLIN), revents: 0), pollfd(fd: 0, events: 0, revents: 0)]
            let ready = poll(&p, 2, WarmCheckProtocol.pollMilliseconds(left))
            if ready < 0 && errno != EINTR { break }
            if ready > 0 && p[1].revents & Int16(POLLHUP | POLLERR) != 0 {
                kill(pid, SIGKILL)
                _exit(0)
            }
            guard ready > 0, p[0].revents != 0 else { continue }
            let n = read(pipeFDs[0], &buffer, buffer.count)
            if n > 0 { output += buffer[0..<n] } else if n == 0 || errno != EINTR { break }
        }
        if timedOut { kill(pid, SIGKILL) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        if timedOut { return .init(kind: .timedOut, code: 0, output: output) }
        let signal = status & 0x7f
        return signal != 0 && signal != 0x7f ? .init(kind: .signal, code: signal, output: output)
            : .init(kind: .status, code: (status >> 8) & 0xff, output: output)
    }
}
