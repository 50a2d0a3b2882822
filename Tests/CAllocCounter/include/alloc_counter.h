// Counts heap allocations made by one watched thread (tests only).
// The test binary defines malloc & co. itself, so every allocation in the process passes
// through here on its way to glibc's allocator.
#ifndef PODIUM_ALLOC_COUNTER_H
#define PODIUM_ALLOC_COUNTER_H
#include <stdint.h>
/// Start counting allocations made by the thread with this pthread_t value (0 stops).
void podium_alloc_watch(unsigned long thread);
/// Allocations counted since the last watch call.
uint64_t podium_alloc_count(void);
#endif
