// SIGINT and SIGTERM for a performance, in C: a handler installed with sigaction(2) at once
// (libdispatch's signal sources ignore the signal until their handler is installed, later, on
// its own thread: a SIGTERM in between was lost and the performance never stopped), which only
// counts the signal and posts a semaphore (both async-signal-safe).
//
// Threads: podium_stop_signals_install on the NRT owner, once; podium_stop_signals_wait on the
// one thread that acts on them.
#ifndef PODIUM_STOP_SIGNALS_H
#define PODIUM_STOP_SIGNALS_H

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the handler for SIGINT and SIGTERM (idempotent), and unblocks them on the calling
/// thread (the one that stays for the whole performance).
void podium_stop_signals_install(void);

/// Waits for the next SIGINT or SIGTERM and returns it; returns 0 after
/// podium_stop_signals_release (the waiting thread ends).
int podium_stop_signals_wait(void);

/// Wakes the waiting thread without a signal (it returns 0).
void podium_stop_signals_release(void);

#ifdef __cplusplus
}
#endif
#endif
