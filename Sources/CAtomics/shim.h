// Relaxed atomics on plain memory that Swift's Synchronization cannot reach (counters in a
// preallocated array, doubles inside C structs): shared by the audio thread and its readers.
#ifndef PODIUM_CATOMICS_SHIM_H
#define PODIUM_CATOMICS_SHIM_H
#include <stdint.h>

/// Relaxed 64-bit counters shared between the audio thread and readers (statistics).
static inline void podium_counter_add(uint64_t *p, uint64_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline void podium_counter_max(uint64_t *p, uint64_t v) {
  uint64_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (v > old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
}
static inline uint64_t podium_counter_load(const uint64_t *p) { return __atomic_load_n((uint64_t *)p, __ATOMIC_RELAXED); }
/* A count that hands memory back: the writer's earlier reads and writes happen before the
   reader that sees the count frees what they touched (staged table slices). */
static inline void podium_counter_add_release(uint64_t *p, uint64_t v) { __atomic_fetch_add(p, v, __ATOMIC_RELEASE); }
static inline uint64_t podium_counter_load_acquire(const uint64_t *p) { return __atomic_load_n((uint64_t *)p, __ATOMIC_ACQUIRE); }
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
#endif
