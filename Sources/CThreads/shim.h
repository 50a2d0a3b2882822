// Clocks and scheduling for Podium's threads and helper processes: monotonic time, a thread's CPU
// time, a helper thread's nice value, a child that ends with its parent.
#ifndef PODIUM_CTHREADS_SHIM_H
#define PODIUM_CTHREADS_SHIM_H
#include <stdint.h>

/// Monotonic nanoseconds (vDSO: no system call, no lock).
#include <time.h>
static inline uint64_t podium_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// CPU time the calling thread has used (not the time it waited to be scheduled).
static inline uint64_t podium_thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/// Lowers the calling thread's scheduling priority (nice), so that non-real-time helpers
/// (the console router) yield to the JACK threads when the server runs without -R.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
static inline int podium_nice_current_thread(int nice) {
  return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}

/// The calling thread at SCHED_FIFO priority 1 (above every ordinary thread, below JACK's),
/// when the process may (RLIMIT_RTPRIO, or root); `podium_fifo_end` puts back what it had (its
/// nice value too). For the few calls that hold a lock the audio thread may spin on.
#include <pthread.h>
#include <sched.h>
typedef struct { int policy; struct sched_param param; int changed; } podium_sched_saved;
static inline podium_sched_saved podium_fifo_begin(void) {
  podium_sched_saved s;
  s.changed = 0;
  if (pthread_getschedparam(pthread_self(), &s.policy, &s.param) == 0 && s.policy == SCHED_OTHER) {
    struct sched_param p;
    p.sched_priority = 1;
    s.changed = pthread_setschedparam(pthread_self(), SCHED_FIFO, &p) == 0;
  }
  return s;
}
static inline void podium_fifo_end(podium_sched_saved s) {
  if (s.changed) pthread_setschedparam(pthread_self(), s.policy, &s.param);
}

/// The calling process is killed when the *thread* that started it ends (prctl(2): not the whole
/// parent process), so only for a child forked by a process's one thread (prctl is variadic: not
/// importable).
#include <sys/prctl.h>
#include <signal.h>
static inline int podium_die_with_parent(void) {
  return prctl(PR_SET_PDEATHSIG, SIGKILL);
}

/// The default floating-point environment, for code that must see subnormal numbers as they are:
/// Csound's csoundCreate sets DAZ (denormals are zero) in the MXCSR of the thread that calls it
/// (measured: 0x1f80 before, 0x1fe0 after), so there 5e-324 compares equal to 0. `saved` keeps the
/// thread's own environment for `podium_fp_restore`. Register loads only (no lock, no allocation).
#include <fenv.h>
static inline void podium_fp_default(fenv_t *saved) { fegetenv(saved); fesetenv(FE_DFL_ENV); }
static inline void podium_fp_restore(const fenv_t *saved) { fesetenv(saved); }
#endif
