// What Swift cannot import from JACK directly (apt: libjack-jackd2-dev).
#ifndef PODIUM_CJACK_SHIM_H
#define PODIUM_CJACK_SHIM_H
#if !__has_include(<jack/jack.h>)
#error "jack/jack.h is missing: apt-get install libjack-jackd2-dev (or run scripts/setup)"
#endif
#include <jack/jack.h>
#include <jack/ringbuffer.h>
#include <jack/midiport.h>
#include <jack/statistics.h>

/// jack_client_open is variadic; this names the server explicitly
/// (NULL: the default server, JACK_DEFAULT_SERVER honoured).
static inline jack_client_t *podium_jack_client_open(const char *name,
                                                     jack_options_t options,
                                                     jack_status_t *status,
                                                     const char *server) {
  if (server) {
    return jack_client_open(name, (jack_options_t)(options | JackServerName), status, server);
  }
  return jack_client_open(name, options, status);
}

/// Relaxed 64-bit counters shared between the audio thread and readers (statistics).
static inline void podium_counter_add(uint64_t *p, uint64_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline void podium_counter_max(uint64_t *p, uint64_t v) {
  uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}
static inline uint64_t podium_counter_load(const uint64_t *p) { return __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED); }
static inline void podium_counter_store(uint64_t *p, uint64_t v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
/// A double shared between the audio thread and others (relaxed atomic).
static inline void podium_counter_store_double(double *p, double v) { __atomic_store(p, &v, __ATOMIC_RELAXED); }
static inline double podium_counter_load_double(double *p) { double v; __atomic_load(p, &v, __ATOMIC_RELAXED); return v; }

/// Output levels (meters): the audio thread raises a peak and adds to a sum; a reader takes
/// (reads and zeroes) them. Lock-free compare-and-swap loops on plain doubles.
static inline void podium_level_raise(double *p, double v) {
  double old;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  while (v > old && !__atomic_compare_exchange(p, &old, &v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}
static inline void podium_level_add(double *p, double v) {
  double old, sum;
  __atomic_load(p, &old, __ATOMIC_RELAXED);
  do { sum = old + v; } while (!__atomic_compare_exchange(p, &old, &sum, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
}
static inline double podium_level_take(double *p) { double zero = 0, v; __atomic_exchange(p, &zero, &v, __ATOMIC_RELAXED); return v; }
static inline uint64_t podium_counter_take(uint64_t *p) { return __atomic_exchange_n(p, 0, __ATOMIC_RELAXED); }

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
#endif
