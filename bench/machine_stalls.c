// The machine's own stalls, charged to a real-time thread that was not running its code
// (`bench/run demo` runs this beside the demo, before it): a SCHED_FIFO thread (priority 10, as
// jackd -R's clients) reads CLOCK_MONOTONIC and its own CPU clock in a tight loop for SECONDS.
// An iteration of this loop takes well under a microsecond; one that took milliseconds and was
// charged to the thread's CPU clock is time the kernel (interrupts, with no IRQ time
// accounting) or the hypervisor took while the thread was on the CPU. The RT throttle's pause
// (sched_rt_runtime_us: 50 ms a second) is not charged, and is not counted here.
//   cc -O2 -o machine_stalls bench/machine_stalls.c && ./machine_stalls 60
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(clockid_t c) {
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 60;
    struct sched_param p = {.sched_priority = 10};
    if (sched_setscheduler(0, SCHED_FIFO, &p) != 0) perror("machine_stalls: SCHED_FIFO (the stalls of a normal thread are not charged to it)");
    double start = now(CLOCK_MONOTONIC), m0 = start, c0 = now(CLOCK_THREAD_CPUTIME_ID);
    long over1 = 0, over2 = 0;
    double worst = 0;
    while (m0 - start < seconds) {
        double m = now(CLOCK_MONOTONIC), c = now(CLOCK_THREAD_CPUTIME_ID);
        double charged = c - c0;
        if (charged > 0.001) over1++;
        if (charged > 0.00267) over2++;  // half of a 256-frame period at 48 kHz
        if (charged > worst) worst = charged;
        m0 = m;
        c0 = c;
    }
    printf("| %.0f | %ld | %ld | %.0f |\n", seconds, over1, over2, worst * 1e6);
    return 0;
}
