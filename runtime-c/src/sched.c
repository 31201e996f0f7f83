/* Run-time dispatch of a single-rate graph's firings (include/cacheflow/sched.h, docs/schedule.md).
 *
 * COUNTERS. Firing g of iteration k has one cell {count, ready} in a ring of R rows, R the power of two at
 * or above slots + dmax (dmax: the largest edge distance), row k & (R - 1): a mask, not a division, on every
 * arrival. It becomes ready when `count` reaches its expected number of
 * arrivals: one per edge into it (distance-d edges only once k >= d) plus one from the admission of
 * iteration k, which happens when iteration k - slots has completed (the buffer copy is free). So a firing
 * that only has edges from earlier iterations still waits for its buffers. The arrival that completes the
 * count resets it to 0 (no more arrivals can come for that (g, k)) and makes the firing ready.
 * Why R rows suffice: iterations in flight are [lo, lo + slots); arrivals go to an iteration at most dmax
 * later, so every iteration that can receive arrivals lies in [lo, lo + slots + dmax) and owns its row; row
 * k & (R - 1) is next used by k + R, whose arrivals come from iterations >= k + R - dmax >= k + slots,
 * admitted only after iteration k completed, i.e. after (g, k)'s reset. The iterations' completion states
 * are a ring of P rows likewise (P the power of two at or above slots).
 *
 * ITERATION COMPLETION. An iteration has completed when its sinks (firings without distance-0 successors)
 * have: every other firing is an ancestor of one, and a firing counts as completed only after it has
 * delivered all its arrivals. `remaining` counts the sinks down; the one reaching 0 stamps the iteration
 * done, and whoever then finds the oldest iteration stamped moves `lo` on by a compare-and-swap and admits
 * iteration lo + slots (exactly one thread wins each step). Iterations may complete out of order; they are
 * admitted in order.
 *
 * THE POOL. Ready firings that any worker may run wait in one pool: a binary heap (CF_SCHED_HRC: priority,
 * then the older iteration) or a ring (CF_SCHED_FIFO), under a test-and-test-and-set spin lock held for a
 * few dozen instructions. A worker that completes a firing goes on with the best (HRC) or first (FIFO) of the
 * firings it made ready, when the pool holds nothing that would go first; it pushes the others and, if it
 * kept none, takes the pool's best in the same critical section. So a firing costs at most one lock round,
 * and none when it makes exactly one successor ready that it may keep (a chain runs without the lock). A
 * worker with nothing to do spins on the pool's size (a load that hits its own shared copy of the line
 * until someone writes it), then sleeps on the futex word `epoch`: under the lock it counts itself in
 * `sleepers` and reads `epoch`; every push under the lock that sees sleepers bumps `epoch` and wakes after
 * unlocking. The lock orders the two sides, so no wake-up is
 * lost and a push costs no system call while nobody sleeps.
 *
 * HYBRID. A static firing's readiness is the stamp `ready` = k + 1 in its cell, which its core waits for.
 * The arrival that makes it ready stores the stamp and then loads `sleepers` (both sequentially
 * consistent); a sleeper increments `sleepers` and then re-reads the stamp before sleeping (Dekker's
 * pattern: one of the two sees the other). The stamp needs no reset: only the core of that firing reads
 * it, comparing with the iteration it waits for.
 *
 * CACHE LINES. Cells are packed, 8 per 64-byte line: an arrival moves the line to the arriving core
 * whatever the packing, and padding would multiply the ring's size by 8 (n firings x R rows). The lock,
 * sleepers and epoch share one block (taken together); what idle workers spin on (size, the best priority,
 * finished) has another, so that spinning does not take the lock's line away from its holder; `lo` and each
 * iteration's completion state have blocks of their own, as does each worker's state (written only by it,
 * read after the run). */
#define _GNU_SOURCE
#include "cacheflow/sched.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch/arch.h"
#include "cacheflow/flag.h"

#define BLOCK 128
#define MAX_THREADS 1024u

enum { GATE_WAIT, GATE_GO, GATE_ABORT };

typedef struct cell {
    uint32_t count; /* arrivals so far */
    uint32_t ready; /* hybrid, static firings: iteration + 1 once ready */
} cell;

typedef struct entry {
    uint32_t priority;
    uint32_t firing;
    int64_t iteration;
} entry;

typedef struct slot_state {
    uint32_t remaining; /* sinks of the iteration still to complete */
    int64_t done;       /* iteration + 1 once it has completed */
    char pad[BLOCK - 16];
} slot_state;

typedef struct pool {
    /* Block 1: the lock holder's. */
    uint32_t locked;
    uint32_t sleepers; /* written under the lock; read without it by the hybrid stamp's Dekker check */
    uint32_t epoch;    /* futex word */
    uint32_t pad0;
    uint64_t head;     /* FIFO: next to pop (free-running) */
    entry *items;      /* heap or ring, `capacity` entries (read-only pointer) */
    uint64_t capacity; /* FIFO: a power of two */
    char pad1[BLOCK - 40];
    /* Block 2: what workers read without the lock (written under it, rarely re-read by its holder). */
    uint64_t size;
    uint32_t top;      /* HRC: the priority of the best pooled firing, when size > 0 */
    uint32_t finished; /* 1 once the last iteration has completed */
    char pad2[BLOCK - 16];
} pool;

typedef struct worker {
    cf_sched_worker_stats stats;
    unsigned index;
    cf_heap_local *heap;
    entry *batch;   /* firings this worker made ready, to be pushed */
    uint64_t nbatch;
    struct run *run;
} __attribute__((aligned(BLOCK))) worker;

typedef struct run {
    int64_t lo;     /* oldest iteration not completed */
    int64_t decided; /* iterations admitted or skipped so far: decided in order (cf_sched_end) */
    int64_t skipped; /* the first iteration skipped after cf_sched_end (config.iterations while none) */
    char pad_lo[BLOCK - 24];
    pool pool;
    const cf_sched *s;
    cf_sched_run_config config;
    uint32_t R, P, spin; /* rows of the counters' ring and of the completion states': powers of two */
    cell *cells;
    slot_state *slots;
    worker *workers;
    uint32_t gate;         /* futex word: GATE_WAIT until every thread exists, then GATE_GO or GATE_ABORT */
    cpu_set_t cpus;        /* the process's CPUs, for pinning */
    int ncpus;
} run;

struct cf_sched {
    const cf_sched_firing *f;
    uint32_t n, dmax, nsinks, max_succ;
    uint32_t *expected;       /* steady state (k >= dmax): npred + 1 */
    uint32_t *expected_early; /* [dmax][n]: iterations k < dmax, whose distance-d edges with d > k are absent */
    uint8_t *is_sink;
    uint8_t *variable;
    uint32_t cores;
    const uint32_t *const *order;
    const uint32_t *order_len;
    worker *last;              /* the last run's workers (stats) */
    int64_t end;               /* cf_sched_end: iterations from here on not admitted yet are skipped */
    unsigned last_threads;
};

/* ---- description ---------------------------------------------------------------------------------- */

static int check_graph(const cf_sched_graph *g, uint32_t *npred0, uint32_t *incoming) {
    uint32_t n = g->nfirings;
    for (uint32_t i = 0; i < n; i++) {
        const cf_sched_firing *f = &g->firings[i];
        if (f->nsucc && !f->succ) return -EINVAL;
        if (f->flags & ~(uint32_t)CF_SCHED_VARIABLE) return -EINVAL;
        for (uint32_t e = 0; e < f->nsucc; e++) {
            if (f->succ[e].to >= n || f->succ[e].distance > CF_SCHED_MAX_DISTANCE) return -EINVAL;
            incoming[f->succ[e].to]++;
            if (f->succ[e].distance == 0) npred0[f->succ[e].to]++;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        if (incoming[i] != g->firings[i].npred) return -EINVAL;
    /* No cycle of distance-0 edges (Kahn): it would never become ready. */
    uint32_t *left = malloc(n * sizeof *left), *queue = malloc(n * sizeof *queue);
    if (!left || !queue) {
        free(left);
        free(queue);
        return -ENOMEM;
    }
    uint32_t head = 0, tail = 0;
    for (uint32_t i = 0; i < n; i++) {
        left[i] = npred0[i];
        if (!left[i]) queue[tail++] = i;
    }
    while (head < tail) {
        const cf_sched_firing *f = &g->firings[queue[head++]];
        for (uint32_t e = 0; e < f->nsucc; e++)
            if (f->succ[e].distance == 0 && --left[f->succ[e].to] == 0) queue[tail++] = f->succ[e].to;
    }
    free(left);
    free(queue);
    return tail == n ? 0 : -EINVAL;
}

static int check_orders(const cf_sched_graph *g) {
    if (!g->cores) return 0;
    if (!g->order || !g->order_len) return -EINVAL;
    uint32_t n = g->nfirings;
    uint32_t *core = malloc(n * sizeof *core), *pos = malloc(n * sizeof *pos);
    if (!core || !pos) {
        free(core);
        free(pos);
        return -ENOMEM;
    }
    int rc = 0;
    for (uint32_t i = 0; i < n; i++) core[i] = UINT32_MAX;
    for (uint32_t c = 0; c < g->cores && !rc; c++) {
        if (g->order_len[c] && !g->order[c]) rc = -EINVAL;
        for (uint32_t p = 0; p < g->order_len[c] && !rc; p++) {
            uint32_t f = g->order[c][p];
            if (f >= n || core[f] != UINT32_MAX || (g->firings[f].flags & CF_SCHED_VARIABLE)) rc = -EINVAL;
            else core[f] = c, pos[f] = p;
        }
    }
    for (uint32_t i = 0; i < n && !rc; i++) {
        const cf_sched_firing *f = &g->firings[i];
        if (!(f->flags & CF_SCHED_VARIABLE) && core[i] == UINT32_MAX) rc = -EINVAL;
        /* On one core, a distance-0 successor listed before its predecessor could never run. */
        for (uint32_t e = 0; e < f->nsucc && !rc; e++) {
            uint32_t t = f->succ[e].to;
            if (f->succ[e].distance == 0 && core[i] != UINT32_MAX && core[i] == core[t] && pos[t] < pos[i]) rc = -EINVAL;
        }
    }
    free(core);
    free(pos);
    return rc;
}

int cf_sched_create(cf_sched **out, const cf_sched_graph *g) {
    if (!out) return -EINVAL;
    *out = NULL;
    if (!g || !g->firings || !g->nfirings || g->nfirings > UINT32_MAX / 2) return -EINVAL;
    uint32_t n = g->nfirings;
    uint32_t *npred0 = calloc(n, sizeof *npred0), *incoming = calloc(n, sizeof *incoming);
    cf_sched *s = calloc(1, sizeof *s);
    int rc = -ENOMEM;
    if (!npred0 || !incoming || !s) goto fail;
    if ((rc = check_graph(g, npred0, incoming)) != 0 || (rc = check_orders(g)) != 0) goto fail;
    rc = -ENOMEM;
    s->f = g->firings;
    s->n = n;
    s->cores = g->cores;
    s->order = g->order;
    s->order_len = g->order_len;
    for (uint32_t i = 0; i < n; i++) {
        if (g->firings[i].nsucc > s->max_succ) s->max_succ = g->firings[i].nsucc;
        for (uint32_t e = 0; e < g->firings[i].nsucc; e++)
            if (g->firings[i].succ[e].distance > s->dmax) s->dmax = g->firings[i].succ[e].distance;
    }
    s->expected = malloc(n * sizeof *s->expected);
    s->is_sink = calloc(n, 1);
    s->variable = calloc(n, 1);
    s->expected_early = s->dmax ? calloc((size_t)s->dmax * n, sizeof *s->expected_early) : NULL;
    if (!s->expected || !s->is_sink || !s->variable || (s->dmax && !s->expected_early)) goto fail;
    for (uint32_t i = 0; i < n; i++) {
        s->expected[i] = g->firings[i].npred + 1;
        s->variable[i] = (g->firings[i].flags & CF_SCHED_VARIABLE) != 0;
        s->is_sink[i] = 1;
        for (uint32_t k = 0; k < s->dmax; k++) s->expected_early[(size_t)k * n + i] = 1;
    }
    for (uint32_t i = 0; i < n; i++) {
        for (uint32_t e = 0; e < g->firings[i].nsucc; e++) {
            cf_sched_edge edge = g->firings[i].succ[e];
            if (edge.distance == 0) s->is_sink[i] = 0;
            for (uint32_t k = edge.distance; k < s->dmax; k++) s->expected_early[(size_t)k * n + edge.to]++;
        }
    }
    for (uint32_t i = 0; i < n; i++) s->nsinks += s->is_sink[i];
    free(npred0);
    free(incoming);
    *out = s;
    return 0;
fail:
    free(npred0);
    free(incoming);
    cf_sched_destroy(s);
    return rc;
}

void cf_sched_destroy(cf_sched *s) {
    if (!s) return;
    free(s->expected);
    free(s->expected_early);
    free(s->is_sink);
    free(s->variable);
    free(s->last);
    free(s);
}

/* ---- time and sleeping ---------------------------------------------------------------------------- */

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void futex_wait(uint32_t *word, uint32_t seen) {
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
}

static void futex_wake_all(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0); }

/* ---- the pool ------------------------------------------------------------------------------------- */

static void pool_lock(pool *p) {
    for (unsigned spins = 1;; spins++) {
        if (!__atomic_load_n(&p->locked, __ATOMIC_RELAXED) && !__atomic_exchange_n(&p->locked, 1, __ATOMIC_ACQUIRE))
            return;
        cf_arch_cpu_relax();
        /* The holder may have lost its vCPU: let it run. */
        if (spins % 1024 == 0) sched_yield();
    }
}

static void pool_unlock(pool *p) { __atomic_store_n(&p->locked, 0, __ATOMIC_RELEASE); }

/* HRC: a goes before b. */
static int before(const entry *a, const entry *b) {
    return a->priority != b->priority ? a->priority > b->priority : a->iteration < b->iteration;
}

static void pool_push(pool *p, enum cf_sched_order order, entry e) {
    uint64_t i = p->size;
    if (order == CF_SCHED_FIFO) {
        p->items[(p->head + i) & (p->capacity - 1)] = e;
    } else {
        while (i > 0 && before(&e, &p->items[(i - 1) / 2])) {
            p->items[i] = p->items[(i - 1) / 2];
            i = (i - 1) / 2;
        }
        p->items[i] = e;
    }
    __atomic_store_n(&p->size, p->size + 1, __ATOMIC_RELAXED);
}

static entry pool_pop(pool *p, enum cf_sched_order order) {
    entry top;
    uint64_t size = p->size - 1;
    if (order == CF_SCHED_FIFO) {
        top = p->items[p->head & (p->capacity - 1)];
        p->head++;
    } else {
        top = p->items[0];
        entry last = p->items[size];
        uint64_t i = 0;
        for (;;) {
            uint64_t child = 2 * i + 1;
            if (child >= size) break;
            if (child + 1 < size && before(&p->items[child + 1], &p->items[child])) child++;
            if (!before(&p->items[child], &last)) break;
            p->items[i] = p->items[child];
            i = child;
        }
        p->items[i] = last;
    }
    __atomic_store_n(&p->size, size, __ATOMIC_RELAXED);
    return top;
}

/* Whether the worker may go on with `e`, a firing it made ready itself, without the pool: when the pool holds
 * nothing that goes first (FIFO: nothing at all; HRC: nothing of higher priority). Read without the lock, so a
 * hint: a firing pushed at the same moment may wait one firing longer. */
static int may_keep(run *r, const entry *e) {
    pool *p = &r->pool;
    if (!__atomic_load_n(&p->size, __ATOMIC_RELAXED)) return 1;
    return r->config.order == CF_SCHED_HRC && e->priority >= __atomic_load_n(&p->top, __ATOMIC_RELAXED);
}

/* Pushes the worker's batch and, when take, gives the next firing for it in *e: the best (HRC) or first (FIFO)
 * of those it made ready itself if may_keep allows -- no lock at all when that was the only one -- else the
 * pool's best. Returns 1 if *e was set. */
static int pool_exchange(run *r, worker *w, int take, entry *e) {
    pool *p = &r->pool;
    int got = 0;
    uint64_t first = 0;
    if (take && w->nbatch) {
        uint64_t best = 0;
        if (r->config.order == CF_SCHED_HRC)
            for (uint64_t i = 1; i < w->nbatch; i++)
                if (before(&w->batch[i], &w->batch[best])) best = i;
        if (may_keep(r, &w->batch[best])) {
            *e = w->batch[best];
            w->batch[best] = w->batch[0]; /* FIFO: best is 0, the rest keep their order from index 1 */
            first = 1;
            got = 1;
        }
    }
    if (first == w->nbatch && (got || !take || !__atomic_load_n(&p->size, __ATOMIC_RELAXED))) {
        w->nbatch = 0;
        return got;
    }
    pool_lock(p);
    for (uint64_t i = first; i < w->nbatch; i++) pool_push(p, r->config.order, w->batch[i]);
    w->nbatch = 0;
    if (!got && take && p->size > 0) {
        *e = pool_pop(p, r->config.order);
        got = 1;
    }
    if (r->config.order == CF_SCHED_HRC && p->size) __atomic_store_n(&p->top, p->items[0].priority, __ATOMIC_RELAXED);
    int wake = p->size > 0 && __atomic_load_n(&p->sleepers, __ATOMIC_RELAXED) > 0;
    if (wake) __atomic_store_n(&p->epoch, p->epoch + 1, __ATOMIC_RELAXED);
    pool_unlock(p);
    if (wake) futex_wake_all(&p->epoch);
    return got;
}

static void wake_all(run *r, int finish) {
    pool *p = &r->pool;
    pool_lock(p);
    if (finish) __atomic_store_n(&p->finished, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&p->epoch, p->epoch + 1, __ATOMIC_RELAXED);
    pool_unlock(p);
    futex_wake_all(&p->epoch);
}

/* Something for this worker: a pooled firing, the end, or (stamp != NULL) its static firing's stamp. */
static int has_work(run *r, const uint32_t *stamp, uint32_t want, int memorder) {
    return __atomic_load_n(&r->pool.size, __ATOMIC_RELAXED) || __atomic_load_n(&r->pool.finished, __ATOMIC_RELAXED) ||
           (stamp && __atomic_load_n(stamp, memorder) == want);
}

/* Nothing ready for w: spin, then sleep until has_work. */
static void idle_wait(run *r, worker *w, const uint32_t *stamp, uint32_t want) {
    pool *p = &r->pool;
    uint64_t begin = (r->config.flags & CF_SCHED_TIME) ? now_ns() : 0;
    int found = 0;
    for (uint32_t spin = 0; spin < r->spin && !found; spin++) {
        cf_arch_cpu_relax();
        found = has_work(r, stamp, want, __ATOMIC_RELAXED);
    }
    if (!found) {
        pool_lock(p);
        __atomic_fetch_add(&p->sleepers, 1, __ATOMIC_SEQ_CST);
        uint32_t seen = __atomic_load_n(&p->epoch, __ATOMIC_RELAXED);
        pool_unlock(p);
        if (!has_work(r, stamp, want, __ATOMIC_SEQ_CST)) {
            w->stats.sleeps++;
            futex_wait(&p->epoch, seen); /* returns at once if epoch moved on; spurious returns re-check outside */
        }
        pool_lock(p);
        __atomic_fetch_sub(&p->sleepers, 1, __ATOMIC_RELAXED);
        pool_unlock(p);
    }
    if (begin) w->stats.idle_ns += now_ns() - begin;
}

/* ---- firing and completing ------------------------------------------------------------------------ */

static uint32_t expected(const cf_sched *s, uint32_t g, int64_t k) {
    return k >= (int64_t)s->dmax ? s->expected[g] : s->expected_early[(size_t)k * s->n + g];
}

static cell *cell_of(run *r, uint32_t g, int64_t k) {
    return &r->cells[(size_t)((uint64_t)k & (r->R - 1)) * r->s->n + g];
}

static slot_state *slot_of(run *r, int64_t k) { return &r->slots[(uint64_t)k & (r->P - 1)]; }

static void make_ready(run *r, worker *w, uint32_t g, int64_t k, cell *c) {
    const cf_sched *s = r->s;
    __atomic_store_n(&c->count, 0, __ATOMIC_RELAXED);
    if (r->config.mode == CF_SCHED_DYNAMIC || s->variable[g]) {
        w->batch[w->nbatch++] = (entry){s->f[g].priority, g, k};
        return;
    }
    __atomic_store_n(&c->ready, (uint32_t)(k + 1), __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&r->pool.sleepers, __ATOMIC_SEQ_CST)) wake_all(r, 0);
}

static void arrive(run *r, worker *w, uint32_t g, int64_t k) {
    cell *c = cell_of(r, g, k);
    if (__atomic_add_fetch(&c->count, 1, __ATOMIC_ACQ_REL) == expected(r->s, g, k)) make_ready(r, w, g, k, c);
}

/* Admits iteration k, or skips it once the run was ended before it (cf_sched_end): a skipped iteration counts
 * as completed without a firing run (none ever gets its admission arrival), and the caller's iteration_done loop
 * moves `lo` past it. Decisions are taken in iteration order (a decider waits for the previous one, which is
 * between its compare-and-swap of `lo` and this call), so every iteration after a skipped one is skipped too:
 * no admitted iteration waits for an edge from a skipped one. */
static void admit(run *r, worker *w, int64_t k) {
    while (__atomic_load_n(&r->decided, __ATOMIC_ACQUIRE) != k) cf_arch_cpu_relax();
    if (k >= __atomic_load_n(&r->s->end, __ATOMIC_SEQ_CST)) {
        if (k < __atomic_load_n(&r->skipped, __ATOMIC_RELAXED)) __atomic_store_n(&r->skipped, k, __ATOMIC_SEQ_CST);
        __atomic_store_n(&slot_of(r, k)->done, k + 1, __ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&slot_of(r, k)->remaining, r->s->nsinks, __ATOMIC_RELAXED);
        for (uint32_t g = 0; g < r->s->n; g++) arrive(r, w, g, k);
    }
    __atomic_store_n(&r->decided, k + 1, __ATOMIC_RELEASE);
}

static void iteration_done(run *r, worker *w, int64_t j) {
    int64_t N = r->config.iterations, S = r->config.slots;
    __atomic_store_n(&slot_of(r, j)->done, j + 1, __ATOMIC_SEQ_CST);
    for (;;) {
        int64_t l = __atomic_load_n(&r->lo, __ATOMIC_SEQ_CST);
        if (l >= N || __atomic_load_n(&slot_of(r, l)->done, __ATOMIC_SEQ_CST) != l + 1) return;
        if (__atomic_compare_exchange_n(&r->lo, &l, l + 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            if (l + S < N) admit(r, w, l + S);
            if (l + 1 == N) wake_all(r, 1);
        }
    }
}

static void execute(run *r, worker *w, uint32_t g, int64_t j) {
    const cf_sched *s = r->s;
    const cf_sched_firing *f = &s->f[g];
    if (f->fn) {
        cf_sched_ctx ctx = {j, g, w->index, w->heap};
        if (r->config.flags & CF_SCHED_TIME) {
            uint64_t begin = now_ns();
            f->fn(f->arg, &ctx);
            w->stats.work_ns += now_ns() - begin;
        } else {
            f->fn(f->arg, &ctx);
        }
    }
    w->stats.firings++;
    for (uint32_t e = 0; e < f->nsucc; e++) {
        int64_t k = j + f->succ[e].distance;
        if (k < r->config.iterations) arrive(r, w, f->succ[e].to, k);
    }
    if (s->is_sink[g] && __atomic_sub_fetch(&slot_of(r, j)->remaining, 1, __ATOMIC_ACQ_REL) == 0)
        iteration_done(r, w, j);
}

/* Runs pooled firings until the last iteration has completed. */
static void pool_loop(run *r, worker *w) {
    entry e;
    while (!__atomic_load_n(&r->pool.finished, __ATOMIC_ACQUIRE)) {
        if (pool_exchange(r, w, 1, &e)) {
            w->stats.pool_firings++;
            execute(r, w, e.firing, e.iteration);
        } else {
            idle_wait(r, w, NULL, 0);
        }
    }
    pool_exchange(r, w, 0, &e); /* nothing can be left, but keep the batch empty */
}

static void static_loop(run *r, worker *w) {
    const cf_sched *s = r->s;
    const uint32_t *order = s->order[w->index];
    uint32_t len = s->order_len[w->index];
    entry e;
    for (int64_t j = 0; j < r->config.iterations; j++) {
        for (uint32_t p = 0; p < len; p++) {
            cell *c = cell_of(r, order[p], j);
            while (__atomic_load_n(&c->ready, __ATOMIC_ACQUIRE) != (uint32_t)(j + 1)) {
                /* iteration j skipped (cf_sched_end): so are the later ones; what is left is in the pool */
                if (j >= __atomic_load_n(&r->skipped, __ATOMIC_SEQ_CST)) goto ended;
                if (pool_exchange(r, w, 1, &e)) {
                    w->stats.pool_firings++;
                    execute(r, w, e.firing, e.iteration);
                    pool_exchange(r, w, 0, &e);
                } else {
                    idle_wait(r, w, &c->ready, (uint32_t)(j + 1));
                }
            }
            execute(r, w, order[p], j);
            pool_exchange(r, w, 0, &e); /* variable firings it made ready: to the pool at once */
        }
    }
ended:
    pool_loop(r, w);
}

static void pin(run *r, unsigned index) {
    if ((r->config.flags & CF_SCHED_NO_PIN) || r->ncpus <= 0) return;
    int want = (int)(index % (unsigned)r->ncpus), seen = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &r->cpus)) continue;
        if (seen++ == want) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            pthread_setaffinity_np(pthread_self(), sizeof one, &one);
            return;
        }
    }
}

static void *worker_main(void *arg) {
    worker *w = arg;
    run *r = w->run;
    uint32_t gate;
    while ((gate = __atomic_load_n(&r->gate, __ATOMIC_ACQUIRE)) == GATE_WAIT) futex_wait(&r->gate, GATE_WAIT);
    if (gate != GATE_GO) return NULL;
    pin(r, w->index);
    uint64_t begin = (r->config.flags & CF_SCHED_TIME) ? now_ns() : 0;
    if (r->config.mode == CF_SCHED_HYBRID)
        static_loop(r, w);
    else
        pool_loop(r, w);
    if (begin) {
        w->stats.wall_ns = now_ns() - begin;
        uint64_t busy = w->stats.work_ns + w->stats.idle_ns;
        w->stats.dispatch_ns = w->stats.wall_ns > busy ? w->stats.wall_ns - busy : 0;
    }
    return NULL;
}

static int check_config(const cf_sched *s, const cf_sched_run_config *c) {
    if (c->iterations < 0 || c->slots < 1 || c->slots > CF_SCHED_MAX_SLOTS || c->threads < 1 || c->threads > MAX_THREADS) return -EINVAL;
    if (c->mode != CF_SCHED_DYNAMIC && c->mode != CF_SCHED_HYBRID) return -EINVAL;
    if (c->order != CF_SCHED_HRC && c->order != CF_SCHED_FIFO) return -EINVAL;
    if (c->flags & ~(uint32_t)(CF_SCHED_TIME | CF_SCHED_NO_PIN)) return -EINVAL;
    if (c->mode == CF_SCHED_HYBRID && (!s->cores || s->cores != c->threads)) return -EINVAL;
    if ((uint64_t)c->slots * s->n > ((uint64_t)1 << 32)) return -EINVAL;
    return 0;
}

int cf_sched_run(cf_sched *s, const cf_sched_run_config *config) {
    if (!s || !config) return -EINVAL;
    int rc = check_config(s, config);
    if (rc) return rc;
    unsigned T = config->threads;
    free(s->last);
    s->last = NULL;
    s->last_threads = 0;
    worker *workers = aligned_alloc(BLOCK, T * sizeof *workers);
    run *r = aligned_alloc(BLOCK, (sizeof(run) + BLOCK - 1) / BLOCK * BLOCK);
    if (!workers || !r) {
        free(workers);
        free(r);
        return -ENOMEM;
    }
    memset(workers, 0, T * sizeof *workers);
    memset(r, 0, sizeof *r);
    r->s = s;
    r->config = *config;
    r->skipped = config->iterations;
    __atomic_store_n(&s->end, config->iterations, __ATOMIC_SEQ_CST);
    r->R = 1;
    while (r->R < config->slots + s->dmax) r->R <<= 1;
    r->P = 1;
    while (r->P < config->slots) r->P <<= 1;
    r->spin = config->spin_limit ? config->spin_limit : CF_FLAG_SPIN_DEFAULT;
    uint64_t inflight = (uint64_t)config->slots * s->n;
    uint64_t capacity = 1;
    while (capacity < inflight) capacity <<= 1;
    r->pool.capacity = capacity;
    r->pool.items = malloc(capacity * sizeof(entry));
    r->cells = calloc((size_t)r->R * s->n, sizeof(cell));
    r->slots = aligned_alloc(BLOCK, r->P * sizeof(slot_state));
    r->workers = workers;
    rc = -ENOMEM;
    if (!r->pool.items || !r->cells || !r->slots) goto out;
    memset(r->slots, 0, r->P * sizeof(slot_state));
    for (unsigned i = 0; i < T; i++) {
        workers[i].index = i;
        workers[i].run = r;
        /* Room for everything one completion can make ready: its successors plus whole admitted iterations. */
        workers[i].batch = malloc((inflight + s->max_succ) * sizeof(entry));
        if (!workers[i].batch) goto out;
    }
    if (config->iterations == 0) {
        rc = 0;
        goto out;
    }
    rc = 0;
    r->ncpus = sched_getaffinity(0, sizeof r->cpus, &r->cpus) == 0 ? CPU_COUNT(&r->cpus) : 0;
    /* Local heaps are attached and detached here: the owner is whichever worker allocates (alloc and
     * reclaim never run concurrently on one of them), and after the joins every remote free has happened. */
    for (unsigned i = 0; config->heap && i < T && !rc; i++) rc = cf_heap_attach(config->heap, &workers[i].heap);
    if (rc) goto detach;
    /* The first iterations, from this thread before any worker runs. */
    for (int64_t k = 0; k < config->slots && k < config->iterations; k++) admit(r, &workers[0], k);
    pool_exchange(r, &workers[0], 0, NULL);
    /* Workers wait at the gate until all exist: a hybrid run needs every core. */
    pthread_t *threads = calloc(T, sizeof *threads);
    unsigned started = 1;
    rc = threads ? 0 : -ENOMEM;
    for (; !rc && started < T; started++)
        if (pthread_create(&threads[started], NULL, worker_main, &workers[started]) != 0) rc = -EAGAIN;
    if (rc && threads) started--;
    __atomic_store_n(&r->gate, rc ? GATE_ABORT : GATE_GO, __ATOMIC_RELEASE);
    futex_wake_all(&r->gate);
    cpu_set_t mine;
    int restore = pthread_getaffinity_np(pthread_self(), sizeof mine, &mine) == 0;
    if (!rc) worker_main(&workers[0]);
    if (restore) pthread_setaffinity_np(pthread_self(), sizeof mine, &mine);
    for (unsigned i = 1; i < started; i++) pthread_join(threads[i], NULL);
    free(threads);
detach:
    for (unsigned i = 0; i < T; i++) {
        int detached = workers[i].heap ? cf_heap_detach(workers[i].heap) : 0;
        if (detached && !rc) rc = detached;
    }
    if (rc) goto out;
    s->last = workers;
    s->last_threads = T;
    workers = NULL;
out:
    for (unsigned i = 0; workers && i < T; i++) free(workers[i].batch);
    for (unsigned i = 0; s->last && i < T; i++) {
        free(s->last[i].batch);
        s->last[i].batch = NULL;
    }
    free(workers);
    free(r->pool.items);
    free(r->cells);
    free(r->slots);
    free(r);
    return rc;
}

void cf_sched_end(cf_sched *s, int64_t end) {
    if (!s) return;
    int64_t now = __atomic_load_n(&s->end, __ATOMIC_SEQ_CST);
    while (end < now && !__atomic_compare_exchange_n(&s->end, &now, end, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
    }
}

/* ---- results -------------------------------------------------------------------------------------- */

int cf_sched_worker_stats_get(const cf_sched *s, unsigned worker, cf_sched_worker_stats *out) {
    if (!s || !out || worker >= s->last_threads) return -EINVAL;
    *out = s->last[worker].stats;
    return 0;
}

void cf_sched_print_times(const cf_sched *s, FILE *out) {
    for (unsigned i = 0; s && i < s->last_threads; i++) {
        const cf_sched_worker_stats *st = &s->last[i].stats;
        double wall = st->wall_ns ? (double)st->wall_ns : 1;
        fprintf(out,
                "sched core %u: working %.3f ms (%.1f%%), dispatching %.3f ms (%.1f%%), idle %.3f ms (%.1f%%), "
                "%llu firings (%llu from the pool), %llu sleeps\n",
                i, (double)st->work_ns / 1e6, 100.0 * (double)st->work_ns / wall, (double)st->dispatch_ns / 1e6,
                100.0 * (double)st->dispatch_ns / wall, (double)st->idle_ns / 1e6, 100.0 * (double)st->idle_ns / wall,
                (unsigned long long)st->firings, (unsigned long long)st->pool_firings,
                (unsigned long long)st->sleeps);
    }
}
