/* Placement probe for the home-forwarding benchmark: which of this VM's two vCPU placements the measured
 * programs ran in. The two vCPUs move between a "near" placement (one-way cache-line hand-off about 30-60 ns)
 * and a "far" one (about 110-240 ns) within seconds, and a 2-core program's speed-up differs between them; so
 * measure.py runs this before and after every round and compares rounds within one placement.
 *
 * Two threads pinned to CPU 0 and 1 bounce one counter in one cache line, spinning without a pause (as
 * runtime-c's bench_spsc probe does, so the two classify alike): thread 0 writes an odd value and
 * waits for the next even one, thread 1 the reverse. Each batch of ROUND_TRIPS round trips is timed; the
 * output is the median batch's one-way time: "probe: one-way <ns> ns".
 * Build: cc -O2 -pthread probe.c -o probe. Exit status 1 when the threads cannot be pinned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BATCHES = 31, ROUND_TRIPS = 200, WARM_UP = 2000 };

static _Alignas(128) volatile uint64_t line; /* the only shared word, alone in its 128-byte block */
static _Alignas(128) char pad[128];

static int pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void *echo(void *unused) {
    (void)unused;
    uint64_t total = (uint64_t)(WARM_UP + BATCHES * ROUND_TRIPS);
    for (uint64_t i = 0; i < total; i++) {
        while (__atomic_load_n(&line, __ATOMIC_ACQUIRE) != 2 * i + 1) {
        }
        __atomic_store_n(&line, 2 * i + 2, __ATOMIC_RELEASE);
    }
    return NULL;
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    (void)pad;
    /* The echo thread starts on CPU 1: pinned after it started, it could first be queued on CPU 0 behind the
     * spinning main thread, which under SCHED_FIFO (run.sh with CF_BENCH_RT=1) never yields to an equal priority. */
    pthread_t other;
    pthread_attr_t attributes;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(1, &set);
    if (pin(0) != 0 || pthread_attr_init(&attributes) != 0 ||
        pthread_attr_setaffinity_np(&attributes, sizeof set, &set) != 0 ||
        pthread_create(&other, &attributes, echo, NULL) != 0) {
        fprintf(stderr, "probe: cannot run two threads on CPUs 0 and 1\n");
        return 1;
    }
    double one_way[BATCHES];
    uint64_t i = 0;
    for (int batch = -1; batch < BATCHES; batch++) {
        int trips = batch < 0 ? WARM_UP : ROUND_TRIPS;
        double start = now_ns();
        for (int t = 0; t < trips; t++, i++) {
            __atomic_store_n(&line, 2 * i + 1, __ATOMIC_RELEASE);
            while (__atomic_load_n(&line, __ATOMIC_ACQUIRE) != 2 * i + 2) {
            }
        }
        if (batch >= 0) one_way[batch] = (now_ns() - start) / trips / 2;
    }
    pthread_join(other, NULL);
    qsort(one_way, BATCHES, sizeof one_way[0], by_value);
    printf("probe: one-way %.0f ns\n", one_way[BATCHES / 2]);
    return 0;
}
