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
 *
 * A second table compares the schedules on an irregular graph, 2 workers: per iteration a split, 16 tiles whose
 * cost varies from 1 to 8 units with the data (a hash of tile and iteration), 4 reducers of 4 tiles, a chain of 4
 * steady firings of 3 units (stateful: each depends on its own previous iteration), a sink (stateful); a unit is
 * 10 us of arithmetic. Variants: static (every firing in a static order per core, balanced by mean costs: what a
 * static schedule from the scenario's timings does), hybrid (the tiles in the pool), dynamic HRC and FIFO, with
 * 1 and 2 iterations in flight. Figures: time per iteration, the speed-up over static, and the efficiency, i.e.
 * the ideal time (the actors' measured working time / 2) over the time taken.
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

/* ---- the irregular graph ---------------------------------------------------------------------------- */

enum { TILES = 16, REDUCERS = 4, CHAIN = 4, IRR = 1 + TILES + REDUCERS + CHAIN + 1 };
enum { SPLIT = 0, TILE0 = 1, REDUCER0 = TILE0 + TILES, CHAIN0 = REDUCER0 + REDUCERS, SINK = CHAIN0 + CHAIN };

static double steps_per_unit;
static volatile uint64_t burn_sink;

static void burn(uint64_t steps) {
    uint64_t x = burn_sink;
    for (uint64_t i = 0; i < steps; i++) x = x * 6364136223846793005u + i;
    burn_sink = x;
}

static void calibrate_unit(void) { /* steps of burn() in 10 us: the median of 7 timings of 2^20 steps */
    double ns[7];
    for (int i = 0; i < 7; i++) {
        uint64_t begin = bench_now_ns();
        burn(1u << 20);
        ns[i] = (double)(bench_now_ns() - begin);
    }
    steps_per_unit = 10000.0 * (double)(1u << 20) / bench_summarize(ns, 7).median;
}

static uint32_t units(uint32_t firing, int64_t iteration) {
    if (firing >= TILE0 && firing < TILE0 + TILES) { /* data dependent: 1-8 units */
        uint64_t h = (uint64_t)firing * 0x9e3779b97f4a7c15u ^ (uint64_t)iteration * 0xc2b2ae3d27d4eb4fu;
        h ^= h >> 29;
        h *= 0xbf58476d1ce4e5b9u;
        return 1 + (uint32_t)((h >> 32) % 8);
    }
    return firing >= CHAIN0 && firing < CHAIN0 + CHAIN ? 3 : 1;
}

static void irregular_actor(void *arg, const cf_sched_ctx *ctx) {
    (void)arg;
    burn((uint64_t)(units(ctx->firing, ctx->iteration) * steps_per_unit));
}

/* variable: the tiles go to the pool (hybrid); all_static: every firing in a static order; else dynamic. */
static cf_sched *irregular_graph(int variable, int with_orders) {
    static cf_sched_firing f[3][IRR];
    static cf_sched_edge e[3][IRR + TILES + 8];
    static uint32_t order[3][2][IRR];
    static uint32_t len[3][2];
    static const uint32_t *orders[3][2];
    int which = with_orders ? (variable ? 1 : 2) : 0;
    cf_sched_firing *g = f[which];
    cf_sched_edge *edges = e[which];
    uint32_t used = 0;
    for (int i = 0; i < IRR; i++) g[i] = (cf_sched_firing){irregular_actor, NULL, NULL, 0, 0, 0, 0};
    /* Successors in index order; priorities: the bottom level in mean units (tiles 4.5, counted as 5). */
    g[SPLIT].succ = &edges[used];
    for (int t = 0; t < TILES; t++) edges[used++] = (cf_sched_edge){TILE0 + (uint32_t)t, 0};
    edges[used++] = (cf_sched_edge){CHAIN0, 0};
    g[SPLIT].nsucc = TILES + 1;
    for (int t = 0; t < TILES; t++) {
        g[TILE0 + t].succ = &edges[used];
        edges[used++] = (cf_sched_edge){REDUCER0 + (uint32_t)(t / 4), 0};
        g[TILE0 + t].nsucc = 1;
        g[TILE0 + t].npred = 1;
        g[TILE0 + t].priority = 5 + 2;
        g[TILE0 + t].flags = variable ? CF_SCHED_VARIABLE : 0;
    }
    for (int r = 0; r < REDUCERS; r++) {
        g[REDUCER0 + r].succ = &edges[used];
        edges[used++] = (cf_sched_edge){SINK, 0};
        g[REDUCER0 + r].nsucc = 1;
        g[REDUCER0 + r].npred = 4;
        g[REDUCER0 + r].priority = 2;
    }
    for (int c = 0; c < CHAIN; c++) {
        g[CHAIN0 + c].succ = &edges[used];
        edges[used++] = (cf_sched_edge){c + 1 < CHAIN ? CHAIN0 + (uint32_t)c + 1 : SINK, 0};
        edges[used++] = (cf_sched_edge){CHAIN0 + (uint32_t)c, 1}; /* its state */
        g[CHAIN0 + c].nsucc = 2;
        g[CHAIN0 + c].npred = 2;
        g[CHAIN0 + c].priority = (uint32_t)(3 * (CHAIN - c) + 1);
    }
    g[SINK].succ = &edges[used];
    edges[used++] = (cf_sched_edge){SINK, 1};
    g[SINK].nsucc = 1;
    g[SINK].npred = REDUCERS + 1 + 1;
    g[SINK].priority = 1;
    g[SPLIT].priority = g[CHAIN0].priority + 1;
    cf_sched_graph d = {g, IRR, 0, NULL, NULL};
    if (with_orders) {
        /* One topological order: split, the chain, the tiles, the reducers, the sink. Mean costs per core: 0 takes
         * the split, the odd tiles and tile 16, reducers 0 and 2, the sink (44.5 units); 1 the chain, the other
         * even tiles, reducers 1 and 3 (45.5). */
        len[which][0] = len[which][1] = 0;
        uint32_t *o0 = order[which][0], *o1 = order[which][1];
        o0[len[which][0]++] = SPLIT;
        for (int c = 0; c < CHAIN; c++) o1[len[which][1]++] = CHAIN0 + (uint32_t)c;
        for (int t = 0; t < TILES && !variable; t++) {
            if (t % 2 == 0 || t == TILES - 1)
                o0[len[which][0]++] = TILE0 + (uint32_t)t;
            else
                o1[len[which][1]++] = TILE0 + (uint32_t)t;
        }
        for (int r = 0; r < REDUCERS; r++)
            (r % 2 ? o1 : o0)[len[which][r % 2]++] = REDUCER0 + (uint32_t)r;
        o0[len[which][0]++] = SINK;
        orders[which][0] = o0;
        orders[which][1] = o1;
        d.cores = 2;
        d.order = orders[which];
        d.order_len = len[which];
    }
    cf_sched *s;
    if (cf_sched_create(&s, &d) != 0) {
        fprintf(stderr, "cf_sched_create (irregular graph) failed\n");
        exit(1);
    }
    return s;
}

enum irregular_variant { I_STATIC, I_HYBRID, I_HRC, I_FIFO, I_HRC1, I_FIFO1, I_STATIC1, IRREGULAR_VARIANTS };
static const struct {
    const char *name;
    enum cf_sched_mode mode;
    enum cf_sched_order order;
    uint32_t slots;
} irregular_variants[IRREGULAR_VARIANTS] = {
    {"static", CF_SCHED_HYBRID, CF_SCHED_HRC, 2},       {"hybrid (tiles pooled)", CF_SCHED_HYBRID, CF_SCHED_HRC, 2},
    {"dynamic HRC", CF_SCHED_DYNAMIC, CF_SCHED_HRC, 2}, {"dynamic FIFO", CF_SCHED_DYNAMIC, CF_SCHED_FIFO, 2},
    {"dynamic HRC", CF_SCHED_DYNAMIC, CF_SCHED_HRC, 1}, {"dynamic FIFO", CF_SCHED_DYNAMIC, CF_SCHED_FIFO, 1},
    {"static", CF_SCHED_HYBRID, CF_SCHED_HRC, 1},
};

static void irregular(const bench_opts *o, int rounds) {
    calibrate_unit();
    cf_sched *graphs[3] = {irregular_graph(0, 0), irregular_graph(1, 1), irregular_graph(0, 1)};
    long iterations = o->quick ? 40 : 200;
    double ms[IRREGULAR_VARIANTS][MAX_ROUNDS], speedup[IRREGULAR_VARIANTS][MAX_ROUNDS],
        efficiency[IRREGULAR_VARIANTS][MAX_ROUNDS], probes[2 * MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        probes[2 * r] = cf_probe_one_way(20000);
        for (int k = 0; k < IRREGULAR_VARIANTS; k++) {
            int v = (k + r) % IRREGULAR_VARIANTS;
            cf_sched *s = v == I_STATIC || v == I_STATIC1 ? graphs[2] : v == I_HYBRID ? graphs[1] : graphs[0];
            cf_sched_run_config c = {iterations, irregular_variants[v].slots, 2, irregular_variants[v].mode,
                                     irregular_variants[v].order, CF_SCHED_TIME, 0, NULL};
            uint64_t begin = bench_now_ns();
            if (cf_sched_run(s, &c) != 0) exit(1);
            double wall = (double)(bench_now_ns() - begin);
            double work = 0;
            for (unsigned w = 0; w < 2; w++) {
                cf_sched_worker_stats st;
                cf_sched_worker_stats_get(s, w, &st);
                work += (double)st.work_ns;
            }
            ms[v][r] = wall / 1e6 / (double)iterations;
            efficiency[v][r] = work / 2 / wall;
        }
        probes[2 * r + 1] = cf_probe_one_way(20000);
        for (int v = 0; v < IRREGULAR_VARIANTS; v++)
            speedup[v][r] = ms[v == I_HRC1 || v == I_FIFO1 || v == I_STATIC1 ? I_STATIC1 : I_STATIC][r] / ms[v][r];
    }
    bench_summary p = bench_summarize(probes, (size_t)(2 * rounds));
    printf("\nirregular graph (%d firings: split, %d tiles of 1-8 units, %d reducers, a chain of %d x 3 units, sink; a unit"
           " = 10 us), 2 workers, %ld iterations per trial, %d rounds\n",
           IRR, TILES, REDUCERS, CHAIN, iterations, rounds);
    printf("placement probe: median %.1f ns, %.1f-%.1f ns\n", p.median, p.min, p.max);
    printf("%-24s %5s %10s %17s %14s %11s\n", "variant", "slots", "ms/iter", "min-max", "vs static", "efficiency");
    for (int v = 0; v < IRREGULAR_VARIANTS; v++) {
        bench_summary s = bench_summarize(ms[v], (size_t)rounds), q = bench_summarize(speedup[v], (size_t)rounds),
                      e = bench_summarize(efficiency[v], (size_t)rounds);
        char range[40];
        snprintf(range, sizeof range, "%.3f-%.3f", s.min, s.max);
        printf("%-24s %5u %10.3f %17s %13.2fx %11.2f\n", irregular_variants[v].name, irregular_variants[v].slots,
               s.median, range, q.median, e.median);
        bench_csv(o, "irregular %s slots %u,2,ms_per_iteration,%.4f,%.4f,%.4f,ms,%d", irregular_variants[v].name,
                  irregular_variants[v].slots, s.median, s.min, s.max, rounds);
        bench_csv(o, "irregular %s slots %u,2,speedup_vs_static,%.3f,%.3f,%.3f,x,%d", irregular_variants[v].name,
                  irregular_variants[v].slots, q.median, q.min, q.max, rounds);
        bench_csv(o, "irregular %s slots %u,2,efficiency,%.3f,%.3f,%.3f,x,%d", irregular_variants[v].name,
                  irregular_variants[v].slots, e.median, e.min, e.max, rounds);
    }
    for (int i = 0; i < 3; i++) cf_sched_destroy(graphs[i]);
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
    irregular(&o, rounds);
    bench_print_load("after");
    cf_sched_destroy(fan);
    cf_sched_destroy(chain);
    if (o.csv) fclose(o.csv);
    return 0;
}
