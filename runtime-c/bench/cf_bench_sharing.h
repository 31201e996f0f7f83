/* Whether two CPUs are two cores or the two hardware threads of one core ("core sharing"), for the benchmarks
 * that classify this VM's vCPU placement: bench_spsc here and bench/home-forwarding/probe/probe.c (which includes
 * this header; it is the only copy).
 *
 * This VM's two vCPUs move between three placements within seconds: "shared" (the two hardware threads of one
 * physical core: a one-line hand-off about 33-36 ns one-way, and two threads of arithmetic each about half as fast
 * as one alone), "near" (two cores close by, 40-60 ns) and "far" (two cores far apart, 200-250 ns). The one-way
 * time alone cannot tell shared from near (33-36 against 40-60 ns, and both move); this measure can:
 *
 *   a throughput-bound integer loop (loads, multiplies, adds over 4 KiB in the L1) timed on the first CPU alone,
 *   on the second alone, then on both at once; the result is the mean over the two CPUs of (time beside the other
 *   / time alone), medians of CF_SHARING_REPS runs each: about 1.0 on two cores, about 2.0 on one core's two
 *   threads (bench/RESULTS.md, 2026-11-27 08:50-09:25). CF_SHARED_LIMIT (1.4) separates them.
 *
 * About 5 ms. Needs _GNU_SOURCE (pthread_attr_setaffinity_np) before the first system header. */
#ifndef CF_BENCH_SHARING_H
#define CF_BENCH_SHARING_H
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "cf_bench_util.h" /* bench_now_ns, bench_cmp_double */

enum { CF_SHARING_REPS = 7, CF_SHARING_PASSES = 24, CF_SHARING_WORDS = 1024 };
#define CF_SHARED_LIMIT 1.4 /* core sharing at or above this: one core's two hardware threads */

static int cf_sharing_words[CF_SHARING_WORDS];
static volatile uint32_t cf_sharing_sink; /* keeps the loop's result alive */
static volatile int cf_sharing_go;        /* both CPUs' runs begin when it is set */

/* One timed run: CF_SHARING_PASSES passes of a three-tap integer filter over the words (about 50-100 us). */
static double cf_sharing_run_ns(void) {
    uint64_t begin = bench_now_ns();
    uint32_t sum = 0;
    for (int pass = 0; pass < CF_SHARING_PASSES; pass++) {
        for (int i = 1; i < CF_SHARING_WORDS - 1; i++) {
            sum += (uint32_t)(cf_sharing_words[i - 1] * 3 + cf_sharing_words[i] * 5 + cf_sharing_words[i + 1] * 7) +
                   (sum >> 3);
        }
    }
    cf_sharing_sink = sum;
    return (double)(bench_now_ns() - begin);
}

/* The median of CF_SHARING_REPS runs, started when cf_sharing_go is set. */
static double cf_sharing_median_ns(void) {
    while (!__atomic_load_n(&cf_sharing_go, __ATOMIC_ACQUIRE)) {
    }
    double runs[CF_SHARING_REPS];
    for (int r = 0; r < CF_SHARING_REPS; r++) runs[r] = cf_sharing_run_ns();
    qsort(runs, CF_SHARING_REPS, sizeof runs[0], bench_cmp_double);
    return runs[CF_SHARING_REPS / 2];
}

static void *cf_sharing_other(void *result) {
    *(double *)result = cf_sharing_median_ns();
    return NULL;
}

/* Runs the median on `other_cpu`, beside the calling thread's when `beside`, else while the caller waits in
 * pthread_join. The thread starts pinned (pinned after it started, it could first be queued behind the spinning
 * caller, which under SCHED_FIFO never yields to an equal priority). */
static int cf_sharing_runs(int other_cpu, int beside, double *mine, double *theirs) {
    pthread_attr_t attributes;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(other_cpu, &set);
    pthread_t other;
    __atomic_store_n(&cf_sharing_go, 0, __ATOMIC_RELEASE);
    if (pthread_attr_init(&attributes) != 0 || pthread_attr_setaffinity_np(&attributes, sizeof set, &set) != 0 ||
        pthread_create(&other, &attributes, cf_sharing_other, theirs) != 0) {
        return -1;
    }
    pthread_attr_destroy(&attributes);
    __atomic_store_n(&cf_sharing_go, 1, __ATOMIC_RELEASE);
    if (beside) *mine = cf_sharing_median_ns();
    return pthread_join(other, NULL);
}

/* The core sharing of the calling thread's CPU (it must be pinned there) and `other_cpu`; -1 when no thread can
 * run there. */
static double cf_core_sharing(int other_cpu) {
    for (int i = 0; i < CF_SHARING_WORDS; i++) cf_sharing_words[i] = (int)((unsigned)i * 2654435761u);
    double alone0, alone1, beside0, beside1;
    __atomic_store_n(&cf_sharing_go, 1, __ATOMIC_RELEASE);
    alone0 = cf_sharing_median_ns();
    if (cf_sharing_runs(other_cpu, 0, NULL, &alone1) != 0 || cf_sharing_runs(other_cpu, 1, &beside0, &beside1) != 0) {
        return -1;
    }
    return (beside0 / alone0 + beside1 / alone1) / 2;
}

#endif
