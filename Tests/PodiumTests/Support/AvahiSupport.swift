import Foundation
import PodiumProbe
import Testing

/// An Avahi daemon of the test's own inside a network namespace: its own D-Bus daemon (a bus
/// at a socket in the test's directory, given to clients as `DBUS_SYSTEM_BUS_ADDRESS`) and a
/// private `/run` (its pid file and socket), so that two can run beside each other and nothing
/// touches the machine's own bus or network. Stopped by `stop()` (call it in a `defer`).
final class TestAvahi: @unchecked Sendable {
    let namespace: NetNamespace
    let directory: URL
    let hostName: String
    /// What a client of this daemon sets (podium, avahi-browse).
    var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=\(directory.path)/bus"] }
    /// The daemons started (dbus-daemon, avahi-daemon): this process's children.
    private var daemons: [pid_t] = []
    /// The Avahi daemon now running (`stopDaemon` ends it; the bus stays).
    private var avahi: pid_t?

    /// Starts the bus now; the Avahi daemon when `startDaemon()` is called.
    // Thread: the test's
    init(in namespace: NetNamespace, hostName: String) throws {
        self.namespace = namespace
        self.hostName = hostName
        directory = Paths.temporaryDirectory()
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>custom</type>
          <listen>unix:path=\(directory.path)/bus</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*"/>
            <allow receive_sender="*"/>
          </policy>
        </busconfig>
        """.write(to: directory.appendingPathComponent("bus.conf"), atomically: true, encoding: .utf8)
        try """
        [server]
        host-name=\(hostName)
        use-ipv4=yes
        use-ipv6=no
        enable-dbus=yes
        ratelimit-interval-usec=1000000
        ratelimit-burst=1000
        [wide-area]
        enable-wide-area=no
        [publish]
        publish-hinfo=no
        publish-workstation=no
        """.write(to: directory.appendingPathComponent("avahi.conf"), atomically: true, encoding: .utf8)
        try detached([TestAvahi.tool("dbus-daemon"), "--config-file=\(directory.path)/bus.conf", "--nofork", "--nopidfile"],
                               log: directory.appendingPathComponent("bus.log").path)
        guard eventually(5, { FileManager.default.fileExists(atPath: self.directory.path + "/bus") }) else {
            stop()
            throw TestFailure("dbus-daemon did not start: \(log("bus.log"))")
        }
    }

    /// The daemon, in the namespace with a private `/run` (its pid file and socket); returns
    /// when it says its start-up is complete.
    // Thread: the test's
    func startDaemon() throws {
        let script = "mount -t tmpfs none /run && exec \(TestAvahi.tool("avahi-daemon")) --no-chroot --no-drop-root --no-rlimits --no-proc-title -f \(directory.path)/avahi.conf"
        avahi = try detached(namespace.command(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script]),
                             log: directory.appendingPathComponent("avahi.log").path, environment: environment)
        guard eventually(10, { self.log("avahi.log").contains("Server startup complete") }) else {
            throw TestFailure("avahi-daemon did not start: \(log("avahi.log"))")
        }
    }

    /// Ends the Avahi daemon as `systemctl stop` does (SIGTERM: it says goodbye on the network and
    /// leaves the bus), and reaps it. The bus stays for the next `startDaemon()`.
    // Thread: the test's
    func stopDaemon() {
        guard let pid = avahi else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        daemons.removeAll { $0 == pid }
        avahi = nil
    }

    // Thread: the test's
    func log(_ name: String) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Starts a daemon with posix_spawn, not Foundation's `Process`: dbus-daemon and
    /// avahi-daemon close descriptors they inherit, the one through which `Process` learns of a
    /// child's end too (it then waits for that child, and notices no other child's end until it
    /// ends). A small Python step closes every descriptor past stderr first (so that no other
    /// child's is kept open) and execs the daemon with its output to `log`, in a session of its
    /// own, with no signal blocked. `stop()` kills it and reaps it.
    // Thread: the test's
    @discardableResult
    func detached(_ argv: [String], log: String, environment: [String: String] = [:]) throws -> pid_t {
        let python = TestAvahi.tool("python3")
        let full = [python, "-c", "import os, sys; os.closerange(3, 65536); os.execv(sys.argv[1], sys.argv[1:])"] + argv
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(0x80 /* POSIX_SPAWN_SETSID, glibc */ | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        var cArgs = full.map { strdup($0) } + [nil]
        var cEnv = env.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let r = posix_spawn(&pid, python, &actions, &attributes, &cArgs, &cEnv)
        guard r == 0 else { throw TestFailure("posix_spawn \(argv.joined(separator: " ")): \(String(cString: strerror(r)))") }
        daemons.append(pid)
        return pid
    }

    /// Resolved services of `type` this daemon knows (`avahi-browse -rpt`): name, address, port, TXT.
    // Thread: the test's
    func browse(_ type: String) throws -> [(name: String, address: String, port: Int, txt: String)] {
        let r = try run(TestAvahi.tool("avahi-browse"), ["-rpt", type], environment: environment, timeout: 20)
        return r.stdout.split(separator: "\n").compactMap { line in
            let f = line.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 10, f[0] == "=" else { return nil }
            return (TestAvahi.unescape(f[3]), f[7], Int(f[8]) ?? -1, f[9])
        }
    }

    /// avahi-browse's -p escapes: `\DDD` decimal bytes.
    // Thread: any
    static func unescape(_ s: String) -> String {
        var bytes: [UInt8] = []
        var u = Array(s.utf8)[...]
        while let c = u.first {
            if c == UInt8(ascii: "\\"), u.count >= 4, let v = UInt8(String(decoding: u.dropFirst().prefix(3), as: UTF8.self)) {
                bytes.append(v)
                u = u.dropFirst(4)
            } else {
                bytes.append(c)
                u = u.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Kills the daemons and reaps them; removes the directory. Idempotent.
    // Thread: the test's
    func stop() {
        for pid in daemons.reversed() {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        daemons = []
        try? FileManager.default.removeItem(at: directory)
    }

    static func tool(_ name: String) -> String {
        for dir in ["/usr/sbin", "/usr/bin", "/sbin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        return name
    }

    /// avahi-daemon, avahi-browse and dbus-daemon are installed (scripts/setup … tests).
    static var available: Bool {
        ["avahi-daemon", "avahi-browse", "dbus-daemon"].allSatisfy { tool($0).hasPrefix("/") }
    }
}

/// A LAN of two machines: network namespaces joined by a veth pair (10.77.`subnet`.1 the
/// stage, .2 the phone), each with a bus for its own Avahi daemon (not started yet). `stop()`
/// removes everything (call it in a `defer`).
final class TestLAN: @unchecked Sendable {
    let stage: NetNamespace, phone: NetNamespace
    let stageAvahi: TestAvahi, phoneAvahi: TestAvahi

    // Thread: the test's
    init(subnet: Int) throws {
        stage = try NetNamespace("mdns\(subnet)a")
        do {
            phone = try NetNamespace("mdns\(subnet)b")
        } catch {
            stage.remove()
            throw error
        }
        do {
            try stage.link(to: phone, subnet: subnet)
            stageAvahi = try TestAvahi(in: stage, hostName: "podium-stage")
        } catch {
            stage.remove()
            phone.remove()
            throw error
        }
        do {
            phoneAvahi = try TestAvahi(in: phone, hostName: "podium-phone")
        } catch {
            stageAvahi.stop()
            stage.remove()
            phone.remove()
            throw error
        }
    }

    // Thread: the test's
    func stop() {
        stageAvahi.stop()
        phoneAvahi.stop()
        stage.remove()
        phone.remove()
    }

    static var available: Bool { NetNamespace.available && TestAvahi.available }
}
