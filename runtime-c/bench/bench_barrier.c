/* What a barrier of two cores costs: the generated code's cores meet where a program of several variants changes
 * variant (docs/generate.md). Two threads pinned to CPU 0 and 1 pass R barriers back to back; ns per barrier:
 *   line       one cache line written alternately by the two threads, ns per one-way hand-off (the floor: in
 *              a barrier of two passed back to back, the last to arrive hands the round to the other)
 *   cf_barrier cacheflow/barrier.h, default spin budget (spins, then sleeps)
 *   cf-sleep   the same with a spin budget of 1: nearly every wait sleeps on the futex
 *   pthread    pthread_barrier_wait (glibc: sleeps at once), what generated code used before
 *   omp        libgomp's `#pragma omp barrier` (spins GOMP_SPINCOUNT times, then sleeps), when built with OpenMP
 * Trials interleaved, the line first in each round (bench_floor_table, cf_bench_util.h).
 *   bench_barrier [--quick] [--csv FILE] */
#include "cf_bench_util.h"

#include <pthread.h>
#ifdef CF_HAVE_OPENMP
#include <omp.h>
#endif

#include "arch/arch.h"
#include "cacheflow/barrier.h"

enum kind { LINE, CF, CF_SLEEP, PTHREAD, OMP, KINDS };
static const char *const kind_names[KINDS] = {"line", "cf_barrier", "cf-sleep", "pthread", "omp"};

typedef struct shared {
    cf_barrier barrier;
    __attribute__((aligned(128))) uint64_t line;
    __attribute__((aligned(128))) pthread_barrier_t pthread;
    pthread_barrier_t ready;
    enum kind kind;
    long rounds;
} shared;

static void rounds_of(shared *s, int first) {
    for (long i = 1; i <= s->rounds; i++) {
        switch (s->kind) {
        case LINE:
            if (first) {
                __atomic_store_n(&s->line, (uint64_t)(2 * i - 1), __ATOMIC_RELEASE);
                while (__atomic_load_n(&s->line, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i)) cf_arch_cpu_relax();
            } else {
                while (__atomic_load_n(&s->line, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i - 1)) cf_arch_cpu_relax();
                __atomic_store_n(&s->line, (uint64_t)(2 * i), __ATOMIC_RELEASE);
            }
            break;
        case CF:
        case CF_SLEEP:
            cf_barrier_wait(&s->barrier);
            break;
        default:
            pthread_barrier_wait(&s->pthread);
        }
    }
}

static void *second(void *arg) {
    shared *s = arg;
    bench_pin(1);
    pthread_barrier_wait(&s->ready);
    rounds_of(s, 0);
    return NULL;
}

/* One trial: ns per barrier (-1: the kind is not built in). */
static double trial(enum kind kind, long rounds) {
    static shared s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.rounds = rounds;
    if (kind == OMP) {
#ifdef CF_HAVE_OPENMP
        uint64_t start = 0, end = 0;
#pragma omp parallel num_threads(2)
        {
            bench_pin(omp_get_thread_num());
#pragma omp barrier
#pragma omp master
            start = bench_now_ns();
            for (long i = 0; i < rounds; i++) {
#pragma omp barrier
            }
#pragma omp master
            end = bench_now_ns();
        }
        bench_pin(0);
        return (double)(end - start) / (double)rounds;
#else
        return -1;
#endif
    }
    cf_barrier_init(&s.barrier, 2, kind == CF_SLEEP ? 1 : 0);
    pthread_barrier_init(&s.pthread, NULL, 2);
    pthread_barrier_init(&s.ready, NULL, 2);
    pthread_t thread;
    bench_spawn(&thread, second, &s);
    pthread_barrier_wait(&s.ready);
    uint64_t start = bench_now_ns();
    rounds_of(&s, 1);
    double ns = (double)(bench_now_ns() - start) / (double)(kind == LINE ? 2 * rounds : rounds);
    pthread_join(thread, NULL);
    pthread_barrier_destroy(&s.pthread);
    pthread_barrier_destroy(&s.ready);
    return ns;
}

static double trial_of(int kind, int quick) {
    long rounds = kind == LINE || kind == CF || kind == OMP ? (quick ? 20000 : 100000) : (quick ? 500 : 2000);
    return trial((enum kind)kind, rounds);
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "barrier of two cores: line floor, cf_barrier, pthread, libgomp",
                               "kind,metric,median,min,max,unit,trials");
    bench_print_load("before");
    bench_pin(0);
    bench_floor_table(&o, KINDS, kind_names, "ns/barrier", "per_barrier", trial_of);
    bench_print_load("after");
    if (o.csv) fclose(o.csv);
    return 0;
}
