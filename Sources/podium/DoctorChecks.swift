import Foundation
import Glibc
import PodiumDiscovery
import PodiumHost
import PodiumPerformance

/// What `podium doctor` finds, one line each: what it is, what it means for a show, and the fix.
struct Finding {
    enum Level: String { case ok = "ok", note = "note", warning = "warning", problem = "PROBLEM" }
    var level: Level
    var check: String
    var found: String
    var fix: String? = nil

    var text: String {
        let mark = ["ok": "✔", "note": "·", "warning": "!", "PROBLEM": "✖"][level.rawValue]!
        return "\(mark) \(check): \(found)" + (fix.map { "\n    fix: \($0)" } ?? "")
    }
}

/// The checks, each on its own (realTimeConfigQuickScan and rtcqs check much the same; these say
/// what a problem costs a performance and the exact command that fixes it).
enum DoctorChecks {
    /// Real-time scheduling: what JACK's -R (and so Podium's callback) needs. Tried, not guessed:
    /// root may ignore the limit, a user needs it.
    static func realtime() -> Finding {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit)
        let soft = limit.rlim_cur == rlim_t.max ? "unlimited" : "\(limit.rlim_cur)"
        let me = pthread_self()
        var policy: Int32 = 0
        var old = sched_param()
        pthread_getschedparam(me, &policy, &old)
        var wanted = sched_param(sched_priority: 70)
        let allowed = pthread_setschedparam(me, SCHED_FIFO, &wanted) == 0
        if allowed { pthread_setschedparam(me, policy, &old) }
        if allowed {
            return Finding(level: .ok, check: "real-time priority", found: "this user may run threads at real-time priority 70 (limit \(soft)): jackd -R can schedule Podium's callback ahead of everything else")
        }
        return Finding(level: .problem, check: "real-time priority",
                       found: "this user may not use real-time scheduling (ulimit -r is \(soft)): JACK runs its callback like any program, and a busy machine makes xruns (clicks)",
                       fix: "echo '@audio - rtprio 95' | sudo tee /etc/security/limits.d/95-podium-audio.conf && sudo usermod -aG audio $USER, then log in again")
    }

    /// Locked memory: JACK locks its buffers so that the audio never waits for a page to come back.
    static func lockedMemory(root: Bool) -> Finding {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit)
        if root || limit.rlim_cur == rlim_t.max || limit.rlim_cur >= 256 << 20 {
            let what = root ? "root may lock any amount" : limit.rlim_cur == rlim_t.max ? "unlimited" : "\(limit.rlim_cur >> 20) MiB"
            return Finding(level: .ok, check: "locked memory", found: "\(what): JACK can keep its buffers in RAM")
        }
        return Finding(level: .warning, check: "locked memory",
                       found: "only \(limit.rlim_cur >> 10) KiB may be locked: JACK's buffers can be paged out, and a page fault in the callback is an xrun",
                       fix: "echo '@audio - memlock unlimited' | sudo tee -a /etc/security/limits.d/95-podium-audio.conf, then log in again")
    }

    /// The audio group: where distributions grant real-time priority and the sound devices.
    static func audioGroup(root: Bool) -> Finding {
        guard let group = getgrnam("audio") else {
            return Finding(level: .note, check: "audio group", found: "this system has no audio group (real-time priority comes from elsewhere here)")
        }
        let gid = group.pointee.gr_gid
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        _ = getgroups(count, &groups)
        if groups.contains(gid) || getegid() == gid {
            return Finding(level: .ok, check: "audio group", found: "this user is in the audio group")
        }
        if root { return Finding(level: .ok, check: "audio group", found: "root: not needed") }
        return Finding(level: .problem, check: "audio group",
                       found: "this user is not in the audio group: no real-time priority, and the sound cards may be refused",
                       fix: "sudo usermod -aG audio $USER, then log in again")
    }

    /// The CPU frequency governor: a CPU that slows down between callbacks is late for the next.
    static func governor() -> Finding {
        let cpus = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/devices/system/cpu"))?.filter { $0.hasPrefix("cpu") && $0.dropFirst(3).allSatisfy(\.isNumber) } ?? []
        let governors = cpus.compactMap { try? String(contentsOfFile: "/sys/devices/system/cpu/\($0)/cpufreq/scaling_governor", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) }
        if governors.isEmpty {
            return Finding(level: .note, check: "CPU frequency", found: "the CPUs' frequency is not exposed here (a virtual machine, or a fixed clock): nothing to set")
        }
        let slow = Set(governors).subtracting(["performance"])
        if slow.isEmpty { return Finding(level: .ok, check: "CPU frequency", found: "every CPU runs the performance governor") }
        return Finding(level: .warning, check: "CPU frequency",
                       found: "governor \(slow.sorted().joined(separator: ", ")) on \(governors.filter { $0 != "performance" }.count) of \(governors.count) CPUs: a CPU that has slowed down takes longer for the next callback",
                       fix: "sudo cpupower frequency-set -g performance (Debian: linux-cpupower)")
    }

    /// The kernel's preemption: how soon a real-time thread gets the CPU.
    static func kernel() -> Finding {
        var u = utsname()
        uname(&u)
        let version = withUnsafeBytes(of: &u.version) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let cmdline = (try? String(contentsOfFile: "/proc/cmdline", encoding: .utf8)) ?? ""
        if version.contains("PREEMPT_RT") { return Finding(level: .ok, check: "kernel", found: "a real-time kernel (PREEMPT_RT)") }
        if version.contains("PREEMPT_DYNAMIC") && !cmdline.contains("preempt=full") {
            return Finding(level: .warning, check: "kernel", found: "preemption is chosen at boot and this boot did not ask for full preemption: a real-time thread may wait for the kernel",
                           fix: "add preempt=full to GRUB_CMDLINE_LINUX in /etc/default/grub, sudo update-grub, reboot (or install a -rt kernel)")
        }
        if version.contains("PREEMPT") { return Finding(level: .ok, check: "kernel", found: "a preemptible kernel") }
        return Finding(level: .warning, check: "kernel", found: "a kernel without preemption: a real-time thread may wait for the kernel",
                       fix: "install a low-latency or -rt kernel (Debian: linux-image-rt-amd64)")
    }

    /// Swap: audio memory paged out comes back too late.
    static func swappiness() -> Finding {
        guard let text = try? String(contentsOfFile: "/proc/sys/vm/swappiness", encoding: .utf8), let v = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            return Finding(level: .note, check: "swappiness", found: "not readable here")
        }
        if v <= 10 { return Finding(level: .ok, check: "swappiness", found: "vm.swappiness is \(v)") }
        return Finding(level: .note, check: "swappiness", found: "vm.swappiness is \(v): under memory pressure the system swaps early",
                       fix: "echo 'vm.swappiness = 10' | sudo tee /etc/sysctl.d/90-podium.conf && sudo sysctl --system")
    }

    /// A JACK server, when one runs: its period and rate (the latency), whether it is real-time
    /// and at what priority, and the xruns it has over a short look.
    static func jackServer(name: String?, watch seconds: Double) -> Finding {
        guard let look = JackServerLook.look(server: name, seconds: seconds) else {
            if PipeWire.isJackLibrary {
                return Finding(level: .problem, check: "JACK server", found: "this doctor runs on PipeWire's JACK library (pw-jack), and PipeWire does not answer",
                               fix: "systemctl --user start pipewire wireplumber (or run podium without pw-jack, with jackd)")
            }
            if PipeWire.isRunning() {
                return Finding(level: .note, check: "JACK server", found: "none running; PipeWire is (podium play does not start jackd beside it): \(PipeWire.howToPlay)")
            }
            return Finding(level: .note, check: "JACK server", found: "none running\(name.map { " under the name \($0)" } ?? ""): podium play starts one (the sound card's, or the dummy backend)")
        }
        let ms = String(format: "%.1f", Double(look.period) / Double(look.sampleRate) * 1000)
        if PipeWire.isJackLibrary {
            // Its libjack answers max - 5 for the priority before activation (-6 here): not said.
            let what = "PipeWire \(PipeWire.version ?? "") through pw-jack: quantum \(look.period) frames at \(look.sampleRate) Hz (\(ms) ms a period; it changes when any application asks — Podium's ksmps \(PipeWire.defaultKsmps(period: look.period)) divides every quantum from \(PipeWire.defaultKsmps(period: look.period)) up, so a change restarts nothing), \(look.xruns) xrun\(look.xruns == 1 ? "" : "s") in \(String(format: "%g", seconds)) s"
            if look.xruns > 0 {
                return Finding(level: .problem, check: "JACK server", found: what + ": clicks already, with nothing of Podium's running",
                               fix: "a longer quantum: pw-jack -p \(look.period * 2) podium play … (or pw-metadata -n settings 0 clock.force-quantum \(look.period * 2))")
            }
            return Finding(level: .ok, check: "JACK server", found: what)
        }
        let what = "\(name ?? "the default server"): period \(look.period) frames at \(look.sampleRate) Hz (\(ms) ms a period), "
            + (look.realtime ? "real-time (priority \(look.priority))" : "not real-time")
            + ", \(look.xruns) xrun\(look.xruns == 1 ? "" : "s") in \(String(format: "%g", seconds)) s"
        if look.xruns > 0 {
            return Finding(level: .problem, check: "JACK server", found: what + ": clicks already, with nothing of Podium's running",
                           fix: "a longer period (jackd … -p \(look.period * 2)), real-time (jackd -R), and the other fixes above")
        }
        if !look.realtime {
            return Finding(level: .warning, check: "JACK server", found: what + ": without -R a busy machine delays the callback",
                           fix: "start jackd with -R (and see real-time priority above)")
        }
        return Finding(level: .ok, check: "JACK server", found: what)
    }

    /// The sound cards ALSA sees (what JACK's alsa backend can open).
    static func soundCards() -> Finding {
        guard let text = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8),
              case let cards = text.split(separator: "\n").filter({ $0.first == " " && $0.contains("]:") }), !cards.isEmpty else {
            if PipeWire.isJackLibrary || PipeWire.isRunning() {
                return Finding(level: .note, check: "sound cards", found: "none (no ALSA cards): PipeWire plays to its own sinks")
            }
            return Finding(level: .note, check: "sound cards", found: "none (no ALSA cards): podium play uses JACK's dummy backend and records the performance so that it can be heard")
        }
        let names = cards.compactMap { $0.split(separator: "]:", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) }
        return Finding(level: .ok, check: "sound cards", found: names.joined(separator: "; "))
    }

    /// Room for sessions: a take of stereo 32-bit audio is 1.4 GB an hour at 48 kHz.
    static func disk(sessions: String) -> Finding {
        // The nearest directory that exists on the way to it (a relative path from here).
        var dir = URL(fileURLWithPath: sessions).standardizedFileURL
        while !FileManager.default.fileExists(atPath: dir.path) && dir.path != "/" { dir.deleteLastPathComponent() }
        var s = statvfs()
        guard statvfs(dir.path, &s) == 0 else { return Finding(level: .note, check: "disk for sessions", found: "\(sessions): not readable") }
        let free = Double(s.f_bavail) * Double(s.f_frsize)
        let hours = free / (48000 * 2 * 4 * 3600)
        let text = "\(String(format: "%.1f", free / 1e9)) GB free for \(sessions): about \(String(format: "%.1f", hours)) hours of a stereo take (the journal alone is kilobytes a minute)"
        if free < 1e9 {
            return Finding(level: .problem, check: "disk for sessions", found: text + ": a take stops its audio at 16 MiB free",
                           fix: "free space, or keep sessions elsewhere: podium play --sessions DIR (or PODIUM_SESSIONS); podium sessions prune --keep 20")
        }
        return Finding(level: .ok, check: "disk for sessions", found: text)
    }

    /// LAN discovery: OSC and the page on a LAN address are published (TouchOSC's list of
    /// hosts, a browser's `.local` name) through the Avahi daemon, when one runs. Optional: the
    /// addresses work without it, so its absence is a note.
    static func lanDiscovery() -> Finding {
        let check = "LAN discovery"
        switch AvahiDaemon.look() {
        case let .success(look) where look.running:
            return Finding(level: .ok, check: check, found: "the Avahi daemon runs (\(look.version)) as \(look.hostName): OSC and the page on a LAN address are found by name")
        case let .success(look):
            return Finding(level: .note, check: check, found: "the Avahi daemon (\(look.version)) is still registering this machine's name: OSC and the page are published once it has one")
        case let .failure(error):
            return Finding(level: .note, check: check,
                           found: "no Avahi daemon (\(error)): OSC and the page on a LAN address are not found by name (TouchOSC's host list, .local); their addresses work, and podium play publishes them once a daemon starts",
                           fix: "sudo apt install avahi-daemon && sudo systemctl enable --now avahi-daemon")
        }
    }

    /// A port Podium listens on: free, or taken by whom.
    static func port(_ port: Int, udp: Bool, bind host: String, what: String, option: String) -> Finding {
        let name = "\(what) port \(udp ? "UDP" : "TCP") \(port)"
        if PortProbe.isFree(port, udp: udp, bind: host) { return Finding(level: .ok, check: name, found: "free on \(host)") }
        let owner = portOwner(port, udp: udp).map { " by \($0)" } ?? ""
        return Finding(level: .warning, check: name, found: "in use\(owner): podium play takes the next free port and says which",
                       fix: "to keep \(port), stop what uses it; or choose one: podium play \(option) N")
    }

    /// The process that has a socket bound to `port` (from /proc/net and /proc/*/fd; nil when not found).
    static func portOwner(_ port: Int, udp: Bool) -> String? {
        let table = (try? String(contentsOfFile: udp ? "/proc/net/udp" : "/proc/net/tcp", encoding: .utf8)) ?? ""
        let hex = String(format: ":%04X", port)
        let inodes = Set(table.split(separator: "\n").dropFirst().compactMap { line -> String? in
            let f = line.split(separator: " ")
            return f.count > 9 && f[1].hasSuffix(hex) ? String(f[9]) : nil
        })
        guard !inodes.isEmpty else { return nil }
        for pid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where pid.allSatisfy(\.isNumber) {
            for fd in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? [] {
                guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(fd)"),
                      link.hasPrefix("socket:["), inodes.contains(String(link.dropFirst(8).dropLast())) else { continue }
                let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
                return "\(comm) (pid \(pid))"
            }
        }
        return nil
    }
}
