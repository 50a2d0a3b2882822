import CCrashGuard
import Foundation
import Glibc
import PodiumHost

/// What is left when something faults anyway (Csound on the audio thread, a parser, Podium):
/// the session is kept and the process ends at once, never freezes. The fatal signal's handler
/// (Sources/CCrashGuard/crash_guard.c: static memory and async-signal-safe calls only, as the
/// heap may be corrupted) prints the signal, the faulting thread's name and address, wakes the
/// guard thread, prints the last inputs (`RecentInputs`, write(2) only), waits at most 4 s
/// while the guard thread saves the session (the journal's last lines, the audio the disk
/// thread still holds, session.json marked "crashed" with the inputs that preceded it), then
/// ends the process by that signal's default action; alarm(5) ends it within 5 s whatever
/// happens. Swift's backtracer is not chained to (on a corrupted heap it can hang).
///
/// Threads: the handler runs on the faulting thread (or the one a sent signal reached); the
/// fatal signals are blocked on the guard thread, so a signal sent to the process never lands
/// on the thread that must save; `onCrash` runs on the guard thread, an ordinary thread.
public enum CrashGuard {
    /// The signals that end a process by a fault (those crash_guard.c handles).
    public static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT]

    /// Installs the handler; `onCrash(signal)` saves what can be saved (on the guard thread).
    // Thread: NRT (main), once, before the performance
    public static func install(onCrash: @escaping @Sendable (Int32) -> Void) {
        RecentInputs.prepare()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        let readFD = fds[0]
        let thread = Thread {
            // Thread: the guard thread
            podium_crash_guard_thread()
            var byte: UInt8 = 0
            while true {
                let n = read(readFD, &byte, 1)
                if n == 1 { break }
                if n == 0 || errno != EINTR { return }  // the pipe is gone: nothing to wait for
            }
            onCrash(podium_crash_signal())
            podium_crash_saved()
        }
        thread.name = "podium-crash-guard"
        thread.start()
        // Thread: signal handler (the closure: a C function pointer, no captures)
        podium_crash_install(fds[1], { fd in RecentInputs.write(to: fd, prefix: "podium:   ") })
    }

    /// The signal's name, for reports.
    public static func name(_ sig: Int32) -> String {
        switch sig {
        case SIGSEGV: return "SIGSEGV"
        case SIGBUS: return "SIGBUS"
        case SIGILL: return "SIGILL"
        case SIGFPE: return "SIGFPE"
        case SIGABRT: return "SIGABRT"
        default: return "signal \(sig)"
        }
    }
}
