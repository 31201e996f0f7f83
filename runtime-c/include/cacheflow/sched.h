/* Run-time dispatch of a single-rate graph's firings (dynamic and hybrid schedules; docs/schedule.md).
 *
 * The generated program describes its single-rate graph once (cf_sched_graph: one cf_sched_firing per
 * firing, with its actor function and argument, its successors and the number of its predecessors) and
 * runs it for N iterations with cf_sched_run. Every firing of iteration j runs once, after its
 * predecessors of iteration j (edges of distance 0) and of iteration j - d (edges of distance d, the
 * delays of the graph, e.g. an actor's state carried from one iteration to the next), and after every
 * firing of iteration j - slots (the FIFO buffers have `slots` copies, iteration j writes copy j % slots),
 * so up to `slots` iterations overlap.
 *
 *   CF_SCHED_DYNAMIC  every firing goes to a shared pool of ready firings when its last predecessor
 *                     completes; any worker takes the next one from the pool.
 *   CF_SCHED_HYBRID   firings without CF_SCHED_VARIABLE run on the core whose static order lists them,
 *                     in that order, iteration after iteration; CF_SCHED_VARIABLE firings go to the
 *                     pool, which every core takes from while its next static firing is not ready.
 *
 * Order of the pool (cf_sched_run_config.order):
 *   CF_SCHED_HRC   the ready firing with the highest `priority` first, the older iteration first among
 *                  equal priorities (the data-demand rule of HRC-LPEL, with the priority the generator
 *                  derives from the data still demanded downstream of the firing: docs/schedule.md);
 *   CF_SCHED_FIFO  in the order the firings became ready.
 *
 * Claiming a ready firing takes a short spin lock (no system call); a worker that finds nothing to do
 * spins, then sleeps on a futex, and is woken by the worker that makes a firing ready for it. Dependency
 * counters are atomic, one per firing and in-flight iteration.
 *
 * Threads: cf_sched_run uses the calling thread as worker 0 and starts threads - 1 more; a cf_sched runs
 * one cf_sched_run at a time. The description (firings, successor arrays, orders) must stay valid and
 * unchanged while the cf_sched exists. Errors are negative errno values. */
#ifndef CACHEFLOW_SCHED_H
#define CACHEFLOW_SCHED_H
#include <stdint.h>
#include <stdio.h>

#include "cacheflow/heap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cf_sched cf_sched;

/* What a firing is given when it runs. heap: the worker's local heap when the run has one (else NULL):
 * buffers a firing produces come from it, first touched by the core that writes them; whichever core
 * consumes them frees them with cf_heap_free(run heap, ctx->heap, p), a remote free when that is another
 * core (heap.h). */
typedef struct cf_sched_ctx {
    int64_t iteration;
    uint32_t firing;
    unsigned worker;
    cf_heap_local *heap;
} cf_sched_ctx;

typedef void (*cf_sched_actor)(void *arg, const cf_sched_ctx *ctx);

/* An edge to firing `to` of the iteration `distance` later (0: the same iteration). */
typedef struct cf_sched_edge {
    uint32_t to;
    uint32_t distance;
} cf_sched_edge;

enum {
    CF_SCHED_VARIABLE = 1u << 0, /* firing flag: its cost varies; in a hybrid run it goes to the pool */
    CF_SCHED_MAX_DISTANCE = 1024, /* largest edge distance */
    CF_SCHED_MAX_SLOTS = 1 << 20  /* most iterations in flight */
};

typedef struct cf_sched_firing {
    cf_sched_actor fn;           /* NULL: nothing runs (a firing that only orders others) */
    void *arg;
    const cf_sched_edge *succ;   /* its successors (an edge may appear once per (to, distance)) */
    uint32_t nsucc;
    uint32_t npred;              /* edges into it, of every distance; checked against the successor lists */
    uint32_t priority;           /* CF_SCHED_HRC: higher first */
    uint32_t flags;              /* CF_SCHED_VARIABLE */
} cf_sched_firing;

typedef struct cf_sched_graph {
    const cf_sched_firing *firings;
    uint32_t nfirings;
    /* Hybrid only (else 0 / NULL): cores static orders; order[c] lists order_len[c] firing indices, each
     * firing without CF_SCHED_VARIABLE exactly once in all of them, none with it. Each core's order must be
     * a subsequence of one topological order of the distance-0 edges (the generator's orders are). */
    uint32_t cores;
    const uint32_t *const *order;
    const uint32_t *order_len;
} cf_sched_graph;

/* Checks the description (indices, npred, no cycle of distance-0 edges, distances, static orders) and
 * builds the counters. -EINVAL on a wrong description, -ENOMEM. */
int cf_sched_create(cf_sched **out, const cf_sched_graph *graph);
void cf_sched_destroy(cf_sched *sched);

enum cf_sched_mode { CF_SCHED_DYNAMIC = 0, CF_SCHED_HYBRID = 1 };
enum cf_sched_order { CF_SCHED_HRC = 0, CF_SCHED_FIFO = 1 };
enum {
    CF_SCHED_TIME = 1u << 0,   /* run flag: measure each worker's time working, dispatching and idle */
    CF_SCHED_NO_PIN = 1u << 1  /* run flag: do not pin worker w to the (w % n)-th of the n CPUs the calling
                                  thread may run on (the calling thread's own set is restored after the run) */
};

typedef struct cf_sched_run_config {
    int64_t iterations;
    uint32_t slots;            /* iterations in flight, 1 to CF_SCHED_MAX_SLOTS (the buffers' copies) */
    unsigned threads;          /* workers, >= 1; hybrid: equal to the graph's cores */
    enum cf_sched_mode mode;
    enum cf_sched_order order;
    uint32_t flags;            /* CF_SCHED_TIME | CF_SCHED_NO_PIN */
    uint32_t spin_limit;       /* pause iterations before an idle worker sleeps; 0: CF_FLAG_SPIN_DEFAULT (4096) */
    cf_heap *heap;             /* optional: each worker attaches a local heap for the run (cf_sched_ctx) */
} cf_sched_run_config;

/* Runs the iterations; returns when all have completed. -EINVAL (bad config), -ENOMEM, -EAGAIN (a thread
 * could not be started), or the error of attaching / detaching a worker's local heap (a firing that keeps
 * a block of it past the run makes detaching fail with -EBUSY; the run itself has completed then). */
int cf_sched_run(cf_sched *sched, const cf_sched_run_config *config);

/* Ends the running run early (a stop): the iterations from `end` on that are not admitted yet are skipped,
 * counted as completed without running a firing, so cf_sched_run returns once the iterations admitted so far
 * (at most `slots` beyond the oldest running one) have completed. Any thread may call it while the run goes
 * on, a firing too; a larger `end` than an earlier call's changes nothing. The next cf_sched_run runs all its
 * iterations again. */
void cf_sched_end(cf_sched *sched, int64_t end);

/* Per worker, of the last run. Times only with CF_SCHED_TIME (else 0): wall = working + dispatching +
 * idle, where working is time inside actor functions, idle is time with nothing ready (spinning or
 * asleep), dispatching the rest (claiming, counting, waking). */
typedef struct cf_sched_worker_stats {
    uint64_t firings;          /* firings this worker ran */
    uint64_t pool_firings;     /* of them, taken from the shared pool (hybrid: the variable ones) */
    uint64_t sleeps;           /* times it slept on the futex */
    uint64_t wall_ns, work_ns, dispatch_ns, idle_ns;
} cf_sched_worker_stats;

/* -EINVAL when worker is not one of the last run's. */
int cf_sched_worker_stats_get(const cf_sched *sched, unsigned worker, cf_sched_worker_stats *out);
/* Prints one line per worker of the last run ("sched core W: working X ms (P%), dispatching ..., idle ...,
 * N firings (M from the pool), S sleeps"), what a generated program prints with --time. */
void cf_sched_print_times(const cf_sched *sched, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
