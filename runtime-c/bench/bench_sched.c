/* Dispatch cost per firing of cf_sched (cacheflow/sched.h) with empty actors, beside the static program's
 * flag hand-off and two task runtimes on the same machine.
 *
 *   fan graph   per iteration a source, `width` (64) independent firings, a sink: 66 firings, empty actors
 *               (a call through a pointer the compiler cannot see through)
 *   sched       cf_sched_run, dynamic, HRC or FIFO, 1 or 2 workers (pinned to CPU 0, 1), 2 iterations in
 *               flight (also 1, the other runtimes' barrier per iteration)
 *   chain       cf_sched on a chain of 66 firings, 2 workers: every firing made ready by the previous one
 *   omp         GCC's libgomp: `omp parallel` + `omp single`, a task per firing, taskwait per iteration
 *   tbb         oneTBB task_group in a task_arena (when built with it: sched_tbb.cpp)
 *   flag        the static program's cross-core hand-off: a cf_flag ping-pong, one-way ns (bench_flag)
 *   probe       a one-line ping-pong, one-way ns: the placement of the two vCPUs (cf_bench_probe.h)
 * ns per firing = wall time / firings run (2 workers: the rate of the pair, not the cost on one core).
 * Rounds run every variant once, in a rotating order, after a probe; the table gives medians over rounds with
 * min-max, and each variant's median ratio to the flag hand-off of its own round.
 *   bench_sched [--quick] [--csv FILE] */
#include "cf_bench_probe.h"
#include "cf_bench_util.h"

#include <pthread.h>
#include <stdlib.h>

#include "cacheflow/flag.h"
#include "cacheflow/sched.h"

#ifdef _OPENMP
#include <omp.h>
#endif

enum { WIDTH = 64, FIRINGS = WIDTH + 2, MAX_ROUNDS = 15 };

#ifdef CF_HAVE_TBB
double cf_bench_tbb_fan(unsigned threads, long iterations, unsigned width, void (*actor)(void));
#endif

static void empty(void) { __asm__ __volatile__("" ::: "memory"); }
static void (*volatile empty_pointer)(void) = empty;
static void empty_actor(void *arg, const cf_sched_ctx *ctx) {
    (void)arg;
    (void)ctx;
    empty_pointer();
}

static cf_sched *fan, *chain;

static cf_sched *build(int is_chain) {
    static cf_sched_firing f[2][FIRINGS];
    static cf_sched_edge edges[2][2 * WIDTH];
    cf_sched_firing *g = f[is_chain];
    cf_sched_edge *e = edges[is_chain];
    for (int i = 0; i < FIRINGS; i++) g[i] = (cf_sched_firing){empty_actor, NULL, NULL, 0, 0, 0, 0};
    if (is_chain) {
        for (int i = 0; i + 1 < FIRINGS; i++) {
            e[i] = (cf_sched_edge){(uint32_t)i + 1, 0};
            g[i].succ = &e[i];
            g[i].nsucc = 1;
            g[i + 1].npred = 1;
            g[i].priority = (uint32_t)(FIRINGS - i);
        }
    } else {
        for (int i = 0; i < WIDTH; i++) {
            e[i] = (cf_sched_edge){(uint32_t)i + 1, 0};
            e[WIDTH + i] = (cf_sched_edge){FIRINGS - 1, 0};
            g[i + 1].succ = &e[WIDTH + i];
            g[i + 1].nsucc = 1;
            g[i + 1].npred = 1;
            g[i + 1].priority = 2;
        }
        g[0] = (cf_sched_firing){empty_actor, NULL, e, WIDTH, 0, 3, 0};
        g[FIRINGS - 1].npred = WIDTH;
        g[FIRINGS - 1].priority = 1;
    }
    cf_sched_graph d = {g, FIRINGS, 0, NULL, NULL};
    cf_sched *s;
    if (cf_sched_create(&s, &d) != 0) {
        fprintf(stderr, "cf_sched_create failed\n");
        exit(1);
    }
    return s;
}

static double run_sched(cf_sched *s, unsigned threads, enum cf_sched_order order, uint32_t slots, long iterations) {
    cf_sched_run_config c = {iterations, slots, threads, CF_SCHED_DYNAMIC, order, 0, 0, NULL};
    uint64_t begin = bench_now_ns();
    if (cf_sched_run(s, &c) != 0) {
        fprintf(stderr, "cf_sched_run failed\n");
        exit(1);
    }
    return (double)(bench_now_ns() - begin) / ((double)iterations * FIRINGS);
}

#ifdef _OPENMP
static double run_omp(unsigned threads, long iterations) {
    uint64_t begin = bench_now_ns();
#pragma omp parallel num_threads(threads)
#pragma omp single
    for (long i = 0; i < iterations; i++) {
        empty_pointer();
        for (int k = 0; k < WIDTH; k++) {
#pragma omp task
            empty_pointer();
        }
#pragma omp taskwait
        empty_pointer();
    }
    return (double)(bench_now_ns() - begin) / ((double)iterations * FIRINGS);
}
#endif

/* The static program's hand-off: rdy raised by CPU 0 and waited for on CPU 1, ack back (bench_flag's "flag"). */
typedef struct flag_pair {
    cf_flag rdy, ack;
    long rounds;
    pthread_barrier_t homed;
} flag_pair;

static void *flag_echo(void *arg) {
    flag_pair *p = arg;
    bench_pin(1);
    cf_flag_init(&p->rdy, 0, 0);
    pthread_barrier_wait(&p->homed);
    for (long i = 1; i <= p->rounds; i++) {
        cf_flag_wait(&p->rdy, i);
        cf_flag_raise(&p->ack, i);
    }
    return NULL;
}

static double run_flag(long rounds) {
    static flag_pair p;
    memset(&p, 0, sizeof p);
    p.rounds = rounds;
    bench_pin(0);
    cf_flag_init(&p.ack, 0, 0);
    pthread_barrier_init(&p.homed, NULL, 2);
    pthread_t echo;
    if (pthread_create(&echo, NULL, flag_echo, &p) != 0) exit(1);
    pthread_barrier_wait(&p.homed);
    uint64_t begin = bench_now_ns();
    for (long i = 1; i <= rounds; i++) {
        cf_flag_raise(&p.rdy, i);
        cf_flag_wait(&p.ack, i);
    }
    double ns = (double)(bench_now_ns() - begin) / (2.0 * (double)rounds);
    pthread_join(echo, NULL);
    pthread_barrier_destroy(&p.homed);
    cf_probe_unpin();
    return ns;
}

enum variant {
    V_FLAG, V_HRC1, V_FIFO1, V_HRC2, V_FIFO2, V_HRC2_S1, V_CHAIN2, V_OMP1, V_OMP2, V_TBB1, V_TBB2, VARIANTS
};
static const struct {
    const char *name;
    unsigned threads;
    const char *unit;
} variants[VARIANTS] = {
    {"flag hand-off (one-way)", 2, "ns/hand-off"}, {"sched HRC", 1, "ns/firing"},     {"sched FIFO", 1, "ns/firing"},
    {"sched HRC", 2, "ns/firing"},                 {"sched FIFO", 2, "ns/firing"},    {"sched HRC, 1 slot", 2, "ns/firing"},
    {"sched chain HRC", 2, "ns/firing"},           {"libgomp tasks", 1, "ns/firing"}, {"libgomp tasks", 2, "ns/firing"},
    {"oneTBB task_group", 1, "ns/firing"},         {"oneTBB task_group", 2, "ns/firing"},
};

static int available(int v) {
#ifndef _OPENMP
    if (v == V_OMP1 || v == V_OMP2) return 0;
#endif
#ifndef CF_HAVE_TBB
    if (v == V_TBB1 || v == V_TBB2) return 0;
#endif
    (void)v;
    return 1;
}

static double measure(int v, long iterations) {
    switch (v) {
    case V_FLAG: return run_flag(iterations * 10);
    case V_HRC1: return run_sched(fan, 1, CF_SCHED_HRC, 2, iterations);
    case V_FIFO1: return run_sched(fan, 1, CF_SCHED_FIFO, 2, iterations);
    case V_HRC2: return run_sched(fan, 2, CF_SCHED_HRC, 2, iterations);
    case V_FIFO2: return run_sched(fan, 2, CF_SCHED_FIFO, 2, iterations);
    case V_HRC2_S1: return run_sched(fan, 2, CF_SCHED_HRC, 1, iterations);
    case V_CHAIN2: return run_sched(chain, 2, CF_SCHED_HRC, 2, iterations);
#ifdef _OPENMP
    case V_OMP1: return run_omp(1, iterations);
    case V_OMP2: return run_omp(2, iterations);
#endif
#ifdef CF_HAVE_TBB
    case V_TBB1: return cf_bench_tbb_fan(1, iterations, WIDTH, empty) * 1e9 / ((double)iterations * FIRINGS);
    case V_TBB2: return cf_bench_tbb_fan(2, iterations, WIDTH, empty) * 1e9 / ((double)iterations * FIRINGS);
#endif
    default: return -1;
    }
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "dispatch cost per firing: cf_sched, flag hand-off, libgomp tasks, oneTBB",
                               "variant,threads,metric,median,min,max,unit,rounds");
    cf_probe_start();
#ifndef _OPENMP
    printf("libgomp: not built (no OpenMP support found by CMake)\n");
#endif
#ifndef CF_HAVE_TBB
    printf("oneTBB: not built (TBB not found by CMake; Debian package libtbb-dev)\n");
#endif
    fan = build(0);
    chain = build(1);
    int rounds = o.quick ? 3 : 11;
    long iterations = o.quick ? 300 : 3000;
    double value[VARIANTS][MAX_ROUNDS], ratio[VARIANTS][MAX_ROUNDS], probes[2 * MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        probes[2 * r] = cf_probe_one_way(20000);
        for (int k = 0; k < VARIANTS; k++) {
            int v = (k + r) % VARIANTS;
            value[v][r] = available(v) ? measure(v, iterations) : -1;
        }
        probes[2 * r + 1] = cf_probe_one_way(20000);
        for (int v = 0; v < VARIANTS; v++) ratio[v][r] = value[v][r] / value[V_FLAG][r];
    }
    bench_summary p = bench_summarize(probes, (size_t)(2 * rounds));
    printf("placement probe (one-line ping-pong, one-way): median %.1f ns, %.1f-%.1f ns over %d probes\n", p.median,
           p.min, p.max, 2 * rounds);
    printf("fan graph: %d firings per iteration (source, %d empty, sink), %ld iterations per trial, %d rounds\n",
           FIRINGS, WIDTH, iterations, rounds);
    printf("%-26s %7s %12s %17s %11s\n", "variant", "threads", "median", "min-max", "vs flag");
    for (int v = 0; v < VARIANTS; v++) {
        if (!available(v)) continue;
        bench_summary s = bench_summarize(value[v], (size_t)rounds);
        bench_summary q = bench_summarize(ratio[v], (size_t)rounds);
        char range[40];
        snprintf(range, sizeof range, "%.1f-%.1f", s.min, s.max);
        printf("%-26s %7u %8.1f %-3s %17s %10.2fx  (%s)\n", variants[v].name, variants[v].threads, s.median, "ns",
               range, q.median, variants[v].unit);
        bench_csv(&o, "%s,%u,time,%.2f,%.2f,%.2f,%s,%d", variants[v].name, variants[v].threads, s.median, s.min, s.max,
                  variants[v].unit, rounds);
        bench_csv(&o, "%s,%u,ratio_vs_flag,%.3f,%.3f,%.3f,x,%d", variants[v].name, variants[v].threads, q.median,
                  q.min, q.max, rounds);
    }
    bench_csv(&o, "probe,2,one_way,%.1f,%.1f,%.1f,ns,%d", p.median, p.min, p.max, 2 * rounds);
    bench_print_load("after");
    cf_sched_destroy(fan);
    cf_sched_destroy(chain);
    if (o.csv) fclose(o.csv);
    return 0;
}
