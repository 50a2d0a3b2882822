// Podium's fatal-signal handler, in C so that it touches only static memory: a heap that a
// fault may have corrupted is never read on the way out. See crash_guard.c for what it does.
//
// Threads: podium_crash_install on the NRT owner, once, before the performance;
// podium_crash_guard_thread, podium_crash_signal and podium_crash_saved on the guard thread.
#ifndef PODIUM_CRASH_GUARD_H
#define PODIUM_CRASH_GUARD_H

#include "stop_signals.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the handler for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT. On a fatal signal the
/// handler writes one byte to `wake_fd` (the guard thread's pipe), calls `write_inputs(2)` to
/// print the last inputs (it must be async-signal-safe: write(2) only), waits at most 1.5 s
/// for podium_crash_saved, then ends the process by that signal.
void podium_crash_install(int wake_fd, void (*write_inputs)(int fd));

/// Called first by the guard thread (the one that saves the session): records it, and blocks
/// the fatal signals on it so that a signal sent to the process (kill(2)) is never handled on
/// the thread that must save.
void podium_crash_guard_thread(void);

/// The first fatal signal (0: none yet).
int podium_crash_signal(void);

/// The session is saved: the handler ends the process now.
void podium_crash_saved(void);

#ifdef __cplusplus
}
#endif
#endif
