/* The placement probe and load line of bench_sched and bench_heap_alloc: this VM's two vCPUs move between a
 * "near" and a "far" placement within seconds (one-line hand-off about 40-60 ns against 200-250 ns one-way,
 * cf_bench_sharing.h), so each round of trials is bracketed by a short one-line ping-pong between CPU 0 and CPU 1,
 * and the tables print the probes' range next to the figures. The load average is printed before and after. */
#ifndef CF_BENCH_PROBE_H
#define CF_BENCH_PROBE_H
#include "cf_bench_util.h" /* first: it defines _GNU_SOURCE */

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "arch/arch.h"

typedef struct cf_probe_line {
    __attribute__((aligned(128))) uint64_t value;
    long rounds;
} cf_probe_line;

static inline void *cf_probe_echo(void *arg) {
    cf_probe_line *line = arg;
    bench_pin(1);
    for (long i = 1; i <= line->rounds; i++) {
        while (__atomic_load_n(&line->value, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i - 1)) cf_arch_cpu_relax();
        __atomic_store_n(&line->value, (uint64_t)(2 * i), __ATOMIC_RELEASE);
    }
    return NULL;
}

/* The CPUs the calling thread may run on when first called (the program's start), and restores them later:
 * runtimes that size or place their threads from the caller's affinity (cf_sched's pinning, libgomp, oneTBB)
 * must not see the single CPU a probe left the caller on. */
static inline void cf_probe_unpin(void) {
    static cpu_set_t initial;
    static int saved;
    if (!saved) {
        saved = sched_getaffinity(0, sizeof initial, &initial) == 0 ? 1 : -1;
        return;
    }
    if (saved > 0) sched_setaffinity(0, sizeof initial, &initial);
}

/* One-way ns of a one-line ping-pong between CPU 0 (the caller) and CPU 1; the mean over `rounds` round trips,
 * after the echo thread has answered once. The caller's CPUs are restored afterwards (cf_probe_unpin, which the
 * program calls first). */
static inline double cf_probe_one_way(long rounds) {
    static cf_probe_line line;
    memset(&line, 0, sizeof line);
    line.rounds = rounds + 1;
    bench_pin(0);
    pthread_t echo;
    if (pthread_create(&echo, NULL, cf_probe_echo, &line) != 0) return -1;
    uint64_t start = 0;
    for (long i = 1; i <= line.rounds; i++) {
        if (i == 2) start = bench_now_ns();
        __atomic_store_n(&line.value, (uint64_t)(2 * i - 1), __ATOMIC_RELEASE);
        while (__atomic_load_n(&line.value, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i)) cf_arch_cpu_relax();
    }
    double ns = (double)(bench_now_ns() - start) / (2.0 * (double)rounds);
    pthread_join(echo, NULL);
    cf_probe_unpin();
    return ns;
}

/* A benchmark's first call: saves the program's CPUs (cf_probe_unpin) and prints the load. */
static inline void cf_probe_start(void) {
    cf_probe_unpin();
    bench_print_load("before");
}

#endif
