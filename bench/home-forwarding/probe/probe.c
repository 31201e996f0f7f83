/* Placement probe for the home-forwarding benchmark: which of this VM's vCPU placements the measured programs
 * ran in. The two vCPUs move between placements within seconds, and a 2-core program's speed-up differs between
 * them; so measure.py runs this before and after every round and compares rounds within one placement:
 *   shared  the two vCPUs are the two hardware threads of one physical core: a one-line hand-off costs about
 *           15 ns one-way, and two threads of arithmetic each run about half as fast as one alone -- two vCPUs
 *           then give about one core's throughput, whatever the program;
 *   near    two cores close by (about 30-60 ns one-way), each running as fast alone as beside the other;
 *   far     two cores far apart (about 110-240 ns).
 * In the shared placement one thread alone has the whole core and runs 1.3-1.7x faster than in the others: the
 * 1-core reference's "fast state" of bench/RESULTS.md (session 14).
 *
 * Two measures, printed as two lines:
 *   "probe: one-way <ns> ns" -- two threads pinned to CPU 0 and 1 bounce one counter in one cache line,
 *     spinning without a pause (as runtime-c's bench_spsc probe does, so the two classify alike): thread 0
 *     writes an odd value and waits for the next even one, thread 1 the reverse. Each batch of ROUND_TRIPS
 *     round trips is timed; the median batch's one-way time.
 *   "probe: core sharing <x>" -- a throughput-bound integer loop (loads, multiplies, adds over 4 KiB in the L1)
 *     timed on CPU 0 alone, on CPU 1 alone, then on both at once; x = the mean over the two CPUs of
 *     (time beside the other / time alone), medians of SHARING_REPS runs each: about 1.0 on two cores, about
 *     2.0 on the two threads of one core.
 * Build: cc -O2 -pthread probe.c -o probe. Exit status 1 when the threads cannot be pinned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { BATCHES = 31, ROUND_TRIPS = 200, WARM_UP = 2000, SHARING_REPS = 7, SHARING_PASSES = 24, SHARING_WORDS = 1024 };

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

/* ---- core sharing: the same arithmetic alone and beside the other CPU's ---- */

static int words[SHARING_WORDS];
static volatile uint32_t sink; /* keeps the loop's result alive */
static volatile int go;        /* both CPUs' runs begin when it is set */

/* One timed run: SHARING_PASSES passes of a three-tap integer filter over words (about 50-100 us). */
static double arithmetic_ns(void) {
    double begin = now_ns();
    uint32_t sum = 0;
    for (int pass = 0; pass < SHARING_PASSES; pass++) {
        for (int i = 1; i < SHARING_WORDS - 1; i++) {
            sum += (uint32_t)(words[i - 1] * 3 + words[i] * 5 + words[i + 1] * 7) + (sum >> 3);
        }
    }
    sink = sum;
    return now_ns() - begin;
}

/* The median of SHARING_REPS runs, started when `go` is set. */
static double median_run_ns(void) {
    while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE)) {
    }
    double runs[SHARING_REPS];
    for (int r = 0; r < SHARING_REPS; r++) runs[r] = arithmetic_ns();
    qsort(runs, SHARING_REPS, sizeof runs[0], by_value);
    return runs[SHARING_REPS / 2];
}

static void *median_on_cpu1(void *result) {
    *(double *)result = median_run_ns();
    return NULL;
}

/* Runs median_run_ns on CPU 1 (beside CPU 0's when `beside`, else while CPU 0 sleeps in pthread_join). */
static int sharing_runs(pthread_attr_t *on_cpu1, int beside, double *cpu0, double *cpu1) {
    pthread_t other;
    __atomic_store_n(&go, 0, __ATOMIC_RELEASE);
    if (pthread_create(&other, on_cpu1, median_on_cpu1, cpu1) != 0) return -1;
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    if (beside) *cpu0 = median_run_ns();
    return pthread_join(other, NULL);
}

static double core_sharing(pthread_attr_t *on_cpu1) {
    for (int i = 0; i < SHARING_WORDS; i++) words[i] = (int)(i * 2654435761u);
    double alone0, alone1, beside0, beside1;
    __atomic_store_n(&go, 1, __ATOMIC_RELEASE);
    alone0 = median_run_ns();
    if (sharing_runs(on_cpu1, 0, NULL, &alone1) != 0 || sharing_runs(on_cpu1, 1, &beside0, &beside1) != 0) {
        return -1;
    }
    return (beside0 / alone0 + beside1 / alone1) / 2;
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
    double sharing = core_sharing(&attributes);
    if (sharing < 0) {
        fprintf(stderr, "probe: cannot run two threads on CPUs 0 and 1\n");
        return 1;
    }
    printf("probe: core sharing %.2f\n", sharing);
    return 0;
}
