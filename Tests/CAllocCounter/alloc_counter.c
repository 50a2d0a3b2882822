#include "alloc_counter.h"
#include <pthread.h>
#include <stddef.h>
#include <errno.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static unsigned long watched = 0;
static uint64_t count = 0;

static inline void note(void) {
  unsigned long w = __atomic_load_n(&watched, __ATOMIC_RELAXED);
  if (w != 0 && (unsigned long)pthread_self() == w) __atomic_fetch_add(&count, 1, __ATOMIC_RELAXED);
}

void podium_alloc_watch(unsigned long thread) {
  __atomic_store_n(&count, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&watched, thread, __ATOMIC_RELEASE);
}
uint64_t podium_alloc_count(void) { return __atomic_load_n(&count, __ATOMIC_RELAXED); }

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PODIUM_ASAN 1
#endif
#endif

#ifdef PODIUM_ASAN
// Under the address sanitizer (scripts/test --sanitize) its allocator is the one in use:
// counted through its hooks instead of by replacing malloc (which would hand it memory it
// does not own).
#include <sanitizer/allocator_interface.h>
static void podium_malloc_hook(const volatile void *p, size_t n) { (void)p; (void)n; note(); }
__attribute__((constructor)) static void podium_install_hooks(void) {
  __sanitizer_install_malloc_and_free_hooks(podium_malloc_hook, 0);
}
#else
void *malloc(size_t n) { note(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { note(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { note(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
void *aligned_alloc(size_t a, size_t n) { note(); return __libc_memalign(a, n); }
int posix_memalign(void **out, size_t a, size_t n) {
  note();
  void *p = __libc_memalign(a, n);
  if (!p) return ENOMEM;
  *out = p;
  return 0;
}
#endif
