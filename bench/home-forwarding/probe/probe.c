/* Placement probe for the home-forwarding benchmark: which of this VM's vCPU placements the measured programs
 * ran in. The two vCPUs move between placements within seconds, and a 2-core program's speed-up differs between
 * them; so measure.py runs this before and after every round and compares rounds within one placement:
 *   shared  the two vCPUs are the two hardware threads of one physical core: a one-line hand-off costs about
 *           15 ns one-way, and two threads of arithmetic each run about half as fast as one alone -- two vCPUs
 *           then give about one core's throughput, whatever the program;
 *   near    two cores close by (about 30-60 ns one-way), each running as fast alone as beside the other;
 *   far     two cores far apart (about 110-240 ns).
 * In the shared placement one thread alone has the whole core and runs 1.3-1.7x faster than in the others
 * (bench/RESULTS.md, 2026-11-27 08:50-09:25). That is not the only fast state: the 1-core and the 2-core programs
 * also run fast in rounds the probe finds near before and after (bench/RESULTS.md, 2026-11-28 02:27-02:35), so
 * measure.py also compares rounds within one state.
 *
 * Two measures, printed as two lines:
 *   "probe: one-way <ns> ns" -- two threads pinned to CPU 0 and 1 bounce one counter in one cache line,
 *     spinning without a pause (as runtime-c's bench_spsc probe does, so the two classify alike): thread 0
 *     writes an odd value and waits for the next even one, thread 1 the reverse. Each batch of ROUND_TRIPS
 *     round trips is timed; the median batch's one-way time.
 *   "probe: core sharing <x>" -- a throughput-bound integer loop (loads, multiplies, adds over 4 KiB in the L1)
 *     timed on CPU 0 alone, on CPU 1 alone, then on both at once; x = the mean over the two CPUs of
 *     (time beside the other / time alone), medians of several runs each: about 1.0 on two cores, about
 *     2.0 on the two threads of one core (runtime-c/bench/cf_bench_sharing.h).
 * Build: cc -O2 -pthread probe.c -o probe. Exit status 1 when the threads cannot be pinned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../../runtime-c/bench/cf_bench_sharing.h" /* the core-sharing measure (shared with bench_spsc), bench_now_ns */

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
        uint64_t start = bench_now_ns();
        for (int t = 0; t < trips; t++, i++) {
            __atomic_store_n(&line, 2 * i + 1, __ATOMIC_RELEASE);
            while (__atomic_load_n(&line, __ATOMIC_ACQUIRE) != 2 * i + 2) {
            }
        }
        if (batch >= 0) one_way[batch] = (double)(bench_now_ns() - start) / trips / 2;
    }
    pthread_join(other, NULL);
    qsort(one_way, BATCHES, sizeof one_way[0], bench_cmp_double);
    printf("probe: one-way %.0f ns\n", one_way[BATCHES / 2]);
    double sharing = cf_core_sharing(1);
    if (sharing < 0) {
        fprintf(stderr, "probe: cannot run two threads on CPUs 0 and 1\n");
        return 1;
    }
    printf("probe: core sharing %.2f\n", sharing);
    return 0;
}
