// Podium's fatal-signal handler. If anything crashes, the session is kept and the process ends
// at once; it never freezes.
//
// Everything the handler touches is static (a fault may have corrupted the heap) and every call
// it makes is async-signal-safe: write, open, read, close, nanosleep, alarm, sigaction (with a
// struct on the stack), pthread_sigmask, raise, _exit, syscall(SYS_gettid).
//
// The first thread that faults (chosen by compare-exchange on its thread id):
//   1. notes the signal and arms alarm(5) with SIGALRM's default action: the process is gone
//      within 5 s whatever happens below;
//   2. prints the signal, its thread's name and the fault's address;
//   3. wakes the guard thread (one byte on its pipe) before anything riskier, so the save starts;
//   4. prints the last inputs (the callback given to podium_crash_install);
//   5. waits at most 4 s for podium_crash_saved (the journal, the take and session.json), then dies by the signal (its default action).
// Any other entry (a nested fault of the first thread, a fault of another thread) waits at most
// 4 s for the save, unless it is the guard thread itself, then dies by the first signal.
//
// The handler that was installed before (Swift's backtracer) is not chained to: it walks every
// thread's stack and allocates, and on a corrupted heap it can hang, which is what this handler
// exists to prevent.
#include "crash_guard.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};

static int wake_fd = -1;                      // the guard thread's pipe (write end)
static void (*inputs_writer)(int fd) = 0;     // prints the last inputs to fd
static int guard_tid = 0;                     // the guard thread (0: not started)
static int first_tid = 0;                     // the thread that faulted first (0: none)
static int first_signal = 0;                  // its signal
static int saved = 0;                         // 1: the guard thread has saved the session

static void put(const char *text, size_t count) {
  ssize_t r = write(2, text, count);
  (void)r;
}
#define PUT(literal) put(literal, sizeof(literal) - 1)

static int current_tid(void) { return (int)syscall(SYS_gettid); }

static void set_default(int s) {
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(s, &action, 0);
}

static void unblock(int s) {
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, s);
  pthread_sigmask(SIG_UNBLOCK, &only, 0);
}

// Ends the process by signal `s` (its default action), else by _exit.
static void die(int s) {
  set_default(s);
  unblock(s);
  raise(s);
  _exit(128 + s);
}

// At most 4 s, in steps of 10 ms, for the guard thread's podium_crash_saved.
static void wait_saved(void) {
  struct timespec step = {0, 10 * 1000 * 1000};
  for (int i = 0; i < 400 && !__atomic_load_n(&saved, __ATOMIC_ACQUIRE); i++) nanosleep(&step, 0);
}

// "podium: a fatal signal (11) on thread <name> at 0x<address>: saving the session. ..."
static void print_header(int s, const siginfo_t *info) {
  PUT("\npodium: a fatal signal (");
  char digits[2];
  size_t n = 0;
  if (s >= 10) digits[n++] = (char)('0' + s / 10 % 10);
  digits[n++] = (char)('0' + s % 10);
  put(digits, n);
  PUT(") on thread ");
  // The faulting thread's name: at most 15 bytes and a newline.
  int fd = open("/proc/thread-self/comm", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char name[16];
    ssize_t got = read(fd, name, sizeof name);
    if (got > 1) put(name, (size_t)got - 1);
    close(fd);
  }
  PUT(" at 0x");
  uintptr_t address = info ? (uintptr_t)info->si_addr : 0;
  char hex[16];
  for (int i = 15; i >= 0; i--) {
    hex[i] = "0123456789abcdef"[address & 15];
    address >>= 4;
  }
  put(hex, sizeof hex);
  PUT(": saving the session. The last inputs before it:\n");
}

// Thread: signal handler (the faulting thread, any; or the thread a sent signal reached)
static void handler(int s, siginfo_t *info, void *context) {
  (void)context;
  int tid = current_tid();
  int guard = __atomic_load_n(&guard_tid, __ATOMIC_ACQUIRE);
  int expected = 0;
  if (!__atomic_compare_exchange_n(&first_tid, &expected, tid, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    // A nested fault (the first thread's own, while it reports) or another thread's: the first
    // thread decides the end; the guard thread cannot wait for its own save.
    if (tid != guard) wait_saved();
    int first = __atomic_load_n(&first_signal, __ATOMIC_ACQUIRE);
    die(first != 0 ? first : s);
  }
  __atomic_store_n(&first_signal, s, __ATOMIC_RELEASE);
  // Whatever happens below, the process ends within 5 s (SIGALRM's default action).
  set_default(SIGALRM);
  unblock(SIGALRM);
  alarm(5);
  print_header(s, info);
  int wake = __atomic_load_n(&wake_fd, __ATOMIC_ACQUIRE);
  int can_save = wake >= 0 && tid != guard;
  if (can_save) {
    char one = 1;
    ssize_t r = write(wake, &one, 1);
    (void)r;
  }
  void (*writer)(int) = __atomic_load_n(&inputs_writer, __ATOMIC_ACQUIRE);
  if (writer) writer(2);
  if (can_save) wait_saved();
  die(s);
}

// Thread: NRT (owner), once, before the performance
void podium_crash_install(int pipe_fd, void (*write_inputs)(int)) {
  __atomic_store_n(&inputs_writer, write_inputs, __ATOMIC_RELEASE);
  __atomic_store_n(&wake_fd, pipe_fd, __ATOMIC_RELEASE);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    // SA_NODEFER: a fault inside the handler (printing the inputs, say) enters it again and
    // waits for the save, rather than the kernel killing the process while the guard saves.
    // SA_ONSTACK: a thread that has an alternate signal stack runs it there (stack overflows).
    action.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    sigaction(fatal_signals[i], &action, 0);
  }
}

// Thread: the guard thread, first
void podium_crash_guard_thread(void) {
  __atomic_store_n(&guard_tid, current_tid(), __ATOMIC_RELEASE);
  // A signal sent to the process (kill(2)) goes to a thread that does not block it: never this
  // one, which must be free to save. Its own faults still end the process (the kernel delivers
  // a fault's signal even when blocked, by its default action).
  sigset_t fatal;
  sigemptyset(&fatal);
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++) sigaddset(&fatal, fatal_signals[i]);
  pthread_sigmask(SIG_BLOCK, &fatal, 0);
}

// Thread: the guard thread
int podium_crash_signal(void) { return __atomic_load_n(&first_signal, __ATOMIC_ACQUIRE); }

// Thread: the guard thread
void podium_crash_saved(void) { __atomic_store_n(&saved, 1, __ATOMIC_RELEASE); }
