// What Swift cannot import from <csound/csound.h> directly.
// Debian ships no pkg-config file for csound: the header is <csound/csound.h>
// and the library is libcsound64 (apt: libcsound64-dev).
#ifndef PODIUM_CCSOUND_SHIM_H
#define PODIUM_CCSOUND_SHIM_H
#if __has_include(<csound/csound.h>)
#include <csound/csound.h>
#else
#error "Csound's headers are missing: apt-get install libcsound64-dev (or run scripts/setup)"
#endif
#include <stdio.h>
#include <malloc.h>

/// MYFLT is a macro (double on Debian): give Swift a name for it.
typedef MYFLT podium_myflt;

/// Size of MYFLT in bytes, so Swift can refuse a float build of Csound.
static inline int podium_myflt_size(void) { return (int)sizeof(MYFLT); }

/// Atomic store/load of a control channel value, as csound.h asks of hosts
/// that write through csoundGetChannelPtr (Top/threadsafe.c does the same).
static inline void podium_channel_store(MYFLT *p, MYFLT v) {
  __atomic_store(p, &v, __ATOMIC_SEQ_CST);
}
static inline MYFLT podium_channel_load(const MYFLT *p) {
  MYFLT v;
  __atomic_load((MYFLT *)p, &v, __ATOMIC_SEQ_CST);
  return v;
}

/// A string channel's storage (csoundCore.h's STRINGDAT: what csoundGetChannelPtr returns
/// for a string channel).
typedef struct { char *data; int size; } podium_stringdat;

static inline int podium_string_capacity(const void *stringdat) {
  return ((const podium_stringdat *)stringdat)->size;
}

/// Stores a string into a channel whose storage already holds it (no allocation: the host
/// reserves the storage before the performance), under the channel's spin lock as
/// csoundSetStringChannel does — but never waiting for it: the lock is only tried.
/// Returns 1 when stored, 0 (nothing changed) when it does not fit, -1 (nothing changed) when
/// another thread holds the lock (the caller retries later).
static inline int podium_string_try_store(void *stringdat, int32_t *lock, const char *bytes, int n) {
  podium_stringdat *s = (podium_stringdat *)stringdat;
  int stored = 0;
  if (lock && csoundSpinTryLock(lock) != CSOUND_SUCCESS) return -1;
  if (s->data && n + 1 <= s->size) {
    for (int i = 0; i < n; i++) s->data[i] = bytes[i];
    s->data[n] = 0;
    stored = 1;
  }
  if (lock) csoundSpinUnLock(lock);
  return stored;
}

/// Keeps the blocks Csound allocates of `bytes` or more on mmap (glibc's malloc.h, which Swift's
/// Glibc module does not import): see LargeAllocations.swift.
static inline int podium_keep_large_blocks_on_mmap(int bytes) {
  return mallopt(M_MMAP_THRESHOLD, bytes);
}
#endif
