import Foundation
import Glibc
import PodiumHost
import Synchronization

/// What is left when something faults anyway (Csound on the audio thread, a parser, Podium):
/// the fatal signal's handler prints the signal and the last inputs (`RecentInputs`) with
/// write(2) only, wakes the guard thread and waits up to five seconds while that thread saves
/// the session (the journal's last lines, the audio the disk thread still holds, session.json
/// marked "crashed" with the inputs that preceded it); then the handler that was there before
/// (Swift's backtracer, which prints every thread's stack; else the default action) takes a
/// fault, and a fatal signal sent by another process ends the process by its default action.
/// The faulting thread's name and address are printed first.
///
/// Threads: the handler runs on the faulting thread and only writes, sleeps and uses atomics
/// on state made before `install`; `onCrash` runs on the guard thread, an ordinary thread.
public enum CrashGuard {
    /// The signals that end a process by a fault.
    public static let signals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT]

    /// Installs the handlers; `onCrash(signal)` saves what can be saved (on the guard thread).
    // Thread: NRT (main), once, before the performance
    public static func install(onCrash: @escaping @Sendable (Int32) -> Void) {
        RecentInputs.prepare()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        crashState.pointee.wakeFD = fds[1]
        let readFD = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while read(readFD, &byte, 1) != 1 {}
            onCrash(crashState.pointee.signal.load(ordering: .acquiring))
            crashState.pointee.saved.store(true, ordering: .releasing)
        }
        thread.name = "podium-crash-guard"
        thread.start()
        for (i, sig) in signals.enumerated() where i < CrashState.handlers {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = podiumFatalSignal
            action.sa_flags = SA_SIGINFO
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, crashState.pointee.previous + i)
        }
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

/// What the handler touches: made once, never freed.
struct CrashState: ~Copyable {
    let entered = Atomic<Bool>(false)
    let saved = Atomic<Bool>(false)
    let signal = Atomic<Int32>(0)
    var wakeFD: Int32 = -1
    /// The handlers installed before ours, one per signal of `CrashGuard.signals`.
    static var handlers: Int { 8 }
    let previous: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: CrashState.handlers)
        p.initialize(repeating: sigaction(), count: CrashState.handlers)
        return p
    }()
}

nonisolated(unsafe) let crashState: UnsafeMutablePointer<CrashState> = {
    let p = UnsafeMutablePointer<CrashState>.allocate(capacity: 1)
    p.initialize(to: CrashState())
    return p
}()

/// The fatal-signal handler. Async-signal-safe by construction: write(2), nanosleep, atomics on
/// `crashState` (made by `install`), then the default action.
// Thread: the faulting thread (any)
func podiumFatalSignal(_ sig: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    let state = crashState
    if state.pointee.entered.exchange(true, ordering: .acquiringAndReleasing) {
        // A second fault (the guard thread's own, say): the first handler decides the end.
        while true { pause() }
    }
    state.pointee.signal.store(sig, ordering: .releasing)
    let head: StaticString = "\npodium: a fatal signal ("
    _ = write(2, head.utf8Start, head.utf8CodeUnitCount)
    var digits: (UInt8, UInt8) = (UInt8(48 + sig / 10 % 10), UInt8(48 + sig % 10))
    withUnsafeBytes(of: &digits) { _ = write(2, $0.baseAddress!, 2) }
    // The faulting thread's name (read(2) of /proc/thread-self/comm) and the address (si_addr).
    let on: StaticString = ") on thread "
    _ = write(2, on.utf8Start, on.utf8CodeUnitCount)
    let comm: StaticString = "/proc/thread-self/comm"
    let fd = open(UnsafeRawPointer(comm.utf8Start).assumingMemoryBound(to: CChar.self), O_RDONLY)
    if fd >= 0 {
        var name = (UInt64(0), UInt64(0))  // a thread's name is at most 15 bytes and a newline
        withUnsafeMutableBytes(of: &name) { b in
            let n = read(fd, b.baseAddress!, 16)
            if n > 1 { _ = write(2, b.baseAddress!, n - 1) }
        }
        close(fd)
    }
    let at: StaticString = " at 0x"
    _ = write(2, at.utf8Start, at.utf8CodeUnitCount)
    var address = UInt(bitPattern: info.map { $0.pointee._sifields._sigfault.si_addr } ?? nil)
    var hex: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &hex) { b in
        for i in (0..<16).reversed() {
            let d = UInt8(address & 15)
            b[i] = d < 10 ? 48 + d : 87 + d
            address >>= 4
        }
        _ = write(2, b.baseAddress!, 16)
    }
    let tail: StaticString = ": saving the session. The last inputs before it:\n"
    _ = write(2, tail.utf8Start, tail.utf8CodeUnitCount)
    RecentInputs.write(to: 2, prefix: "podium:   ")
    var one: UInt8 = 1
    _ = write(state.pointee.wakeFD, &one, 1)
    var pause = timespec(tv_sec: 0, tv_nsec: 10_000_000)
    for _ in 0..<500 where !state.pointee.saved.load(ordering: .acquiring) { nanosleep(&pause, nil) }
    // The handler that was there before (Swift's backtracer prints the stacks; else the default
    // action) takes a fault or abort(3) as this one returns: the faulting instruction faults
    // again, abort(3) raises again. A signal another process sent (kill(2), sigqueue(3)) faulted
    // nowhere, and a handler that returns would let the performance go on: it ends the process
    // now, by its default action (unblocked here: a signal is blocked in its own handler).
    let code = info?.pointee.si_code ?? Int32(SI_USER)
    let sent = code == Int32(SI_USER) || code == Int32(SI_QUEUE)
    if !sent, let i = CrashGuard.signals.firstIndex(of: sig), i < CrashState.handlers {
        sigaction(sig, state.pointee.previous + i, nil)
    } else {
        signal(sig, SIG_DFL)
    }
    if sent {
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, sig)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
    }
    raise(sig)
}
