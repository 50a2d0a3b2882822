// See stop_signals.h.
#include "stop_signals.h"

#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>

static sem_t pending;
static volatile sig_atomic_t interrupts, terminations, released;
static int installed;

// Thread: whichever the kernel chose (async-signal-safe only)
static void on_signal(int s) {
  int saved = errno;
  if (s == SIGINT) interrupts++; else terminations++;
  sem_post(&pending);
  errno = saved;
}

// Thread: NRT (owner)
void podium_stop_signals_install(void) {
  if (installed) return;
  installed = 1;
  sem_init(&pending, 0, 0);
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGINT, &action, 0);
  sigaction(SIGTERM, &action, 0);
  // A process may start with them blocked (a parent's thread that blocked every signal, as
  // libdispatch's workers do, passes its mask on): the calling thread takes them.
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, SIGINT);
  sigaddset(&wanted, SIGTERM);
  pthread_sigmask(SIG_UNBLOCK, &wanted, 0);
}

// Thread: the signals' thread
int podium_stop_signals_wait(void) {
  static sig_atomic_t seen_interrupts, seen_terminations;
  for (;;) {
    while (sem_wait(&pending) != 0 && errno == EINTR) {}
    if (terminations != seen_terminations) { seen_terminations++; return SIGTERM; }
    if (interrupts != seen_interrupts) { seen_interrupts++; return SIGINT; }
    if (released) return 0;
  }
}

// Thread: NRT (owner)
void podium_stop_signals_release(void) {
  released = 1;
  sem_post(&pending);
}
