/* Shared by the cf_sched tests: a checked graph whose every firing is a checker actor.
 *
 * Each firing, when it runs for iteration j: counts its runs of (firing, j) (each must be exactly 1 after the run);
 * checks that every predecessor's firing of iteration j - distance has completed (its done stamp), and that
 * every firing of iteration j - slots has completed (the buffer copy it writes is free); computes a value from
 * its predecessors' values (a hash, so any wrong or missing input changes every value downstream), burns its
 * cost, and stamps itself done. check_sequential recomputes the values in one thread in topological order and
 * compares. Random graphs: firings in index order are a topological order; distance-0 edges go from a lower to
 * a higher index, edges of distance 1-2 anywhere (self-loops included). */
#ifndef CF_TEST_SCHED_CHECK_H
#define CF_TEST_SCHED_CHECK_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cacheflow/sched.h"
#include "helpers.h"

typedef struct tgraph tgraph;

typedef struct tfiring {
    tgraph *graph;
    uint32_t index;
    uint32_t cost;        /* busy-loop steps */
    uint32_t npred;
    cf_sched_edge *pred;  /* {from, distance} */
} tfiring;

struct tgraph {
    uint32_t n;
    cf_sched_firing *f;
    tfiring *t;
    cf_sched_edge *edges; /* successor arrays, all in one */
    cf_sched_edge *preds;
    int64_t iterations;
    uint32_t slots;
    uint32_t cores;       /* hybrid */
    uint32_t **order;
    uint32_t *order_len;
    uint32_t *runs;       /* [iterations][n] */
    uint32_t *done;       /* [iterations][n] */
    uint64_t *value;      /* [iterations][n] */
    uint32_t failures;    /* atomic */
    uint32_t *trace;      /* optional: firing indices in run order (one thread) */
    uint32_t ntrace;
};

static inline uint64_t tg_random(uint64_t *state) { /* xorshift64* */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static inline uint64_t tg_mix(uint64_t h, uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdu;
}

static inline uint64_t tg_compute(tgraph *g, uint32_t i, int64_t j) {
    uint64_t h = tg_mix((uint64_t)i * 1000003u, (uint64_t)j);
    for (uint32_t p = 0; p < g->t[i].npred; p++) {
        cf_sched_edge e = g->t[i].pred[p];
        int64_t from = j - e.distance;
        h = tg_mix(h, from >= 0 ? g->value[from * g->n + e.to] : 7);
    }
    return h;
}

static inline void tg_fail(tgraph *g) { __atomic_fetch_add(&g->failures, 1, __ATOMIC_RELAXED); }

static _Thread_local volatile uint64_t tg_sink;

static inline void tg_actor(void *arg, const cf_sched_ctx *ctx) {
    tfiring *t = arg;
    tgraph *g = t->graph;
    int64_t j = ctx->iteration;
    if (ctx->firing != t->index || j < 0 || j >= g->iterations) {
        tg_fail(g);
        return;
    }
    size_t at = (size_t)j * g->n + t->index;
    if (__atomic_fetch_add(&g->runs[at], 1, __ATOMIC_RELAXED) != 0) tg_fail(g);
    for (uint32_t p = 0; p < t->npred; p++) {
        int64_t from = j - t->pred[p].distance;
        if (from >= 0 && !__atomic_load_n(&g->done[(size_t)from * g->n + t->pred[p].to], __ATOMIC_ACQUIRE)) tg_fail(g);
    }
    if (j >= (int64_t)g->slots)
        for (uint32_t i = 0; i < g->n; i++)
            if (!__atomic_load_n(&g->done[(size_t)(j - g->slots) * g->n + i], __ATOMIC_ACQUIRE)) tg_fail(g);
    if (g->trace) g->trace[g->ntrace++] = t->index;
    g->value[at] = tg_compute(g, t->index, j);
    for (uint32_t k = 0; k < t->cost; k++) tg_sink = tg_sink + k;
    __atomic_store_n(&g->done[at], 1, __ATOMIC_RELEASE);
}

/* Fills the arrays from g->f[i].succ (set by the caller, g->edges): npred, predecessor lists. */
static inline void tg_finish(tgraph *g) {
    uint32_t total = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        g->t[i].npred = 0;
        total += g->f[i].nsucc;
    }
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t e = 0; e < g->f[i].nsucc; e++) g->t[g->f[i].succ[e].to].npred++;
    g->preds = calloc(total + 1, sizeof *g->preds);
    CF_CHECK(g->preds != NULL);
    uint32_t at = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        g->t[i].pred = g->preds + at;
        at += g->t[i].npred;
        g->f[i].npred = g->t[i].npred;
        g->t[i].npred = 0;
    }
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t e = 0; e < g->f[i].nsucc; e++) {
            tfiring *to = &g->t[g->f[i].succ[e].to];
            to->pred[to->npred++] = (cf_sched_edge){i, g->f[i].succ[e].distance};
        }
}

static inline void tg_alloc(tgraph *g, uint32_t n, uint32_t max_edges) {
    memset(g, 0, sizeof *g);
    g->n = n;
    g->f = calloc(n, sizeof *g->f);
    g->t = calloc(n, sizeof *g->t);
    g->edges = calloc(max_edges + 1, sizeof *g->edges);
    CF_CHECK(g->f && g->t && g->edges);
    for (uint32_t i = 0; i < n; i++) {
        g->t[i].graph = g;
        g->t[i].index = i;
        g->f[i].fn = tg_actor;
        g->f[i].arg = &g->t[i];
    }
}

/* A random graph of n firings; variable firings with probability variable_percent; costs up to max_cost,
 * a few ten times that. Priorities: the bottom level (the longest cost path to the iteration's end). */
static inline void tg_random_graph(tgraph *g, uint32_t n, uint64_t *rng, unsigned variable_percent, uint32_t max_cost) {
    uint32_t cap = n * 6 + 4;
    tg_alloc(g, n, cap);
    uint32_t used = 0;
    for (uint32_t i = 0; i < n; i++) {
        g->f[i].succ = g->edges + used;
        uint32_t want = (uint32_t)(tg_random(rng) % 4);
        for (uint32_t k = 0; k < want && i + 1 < n && used < cap; k++) {
            uint32_t to = i + 1 + (uint32_t)(tg_random(rng) % (n - i - 1));
            int dup = 0;
            for (uint32_t e = 0; e < g->f[i].nsucc; e++) dup |= g->f[i].succ[e].to == to && g->f[i].succ[e].distance == 0;
            if (!dup) g->edges[used++] = (cf_sched_edge){to, 0}, g->f[i].nsucc++;
        }
        if (tg_random(rng) % 5 == 0 && used < cap) { /* state or a delay: an edge to a later iteration */
            g->edges[used++] = (cf_sched_edge){(uint32_t)(tg_random(rng) % n), 1 + (uint32_t)(tg_random(rng) % 2)};
            g->f[i].nsucc++;
        }
        uint64_t r = tg_random(rng);
        g->t[i].cost = max_cost ? (uint32_t)(r % max_cost) * (r % 17 == 0 ? 20 : 1) : 0;
        g->f[i].flags = tg_random(rng) % 100 < variable_percent ? CF_SCHED_VARIABLE : 0;
    }
    tg_finish(g);
    uint64_t *level = calloc(n, sizeof *level);
    CF_CHECK(level != NULL);
    for (uint32_t i = n; i-- > 0;) {
        uint64_t best = 0;
        for (uint32_t e = 0; e < g->f[i].nsucc; e++)
            if (g->f[i].succ[e].distance == 0 && level[g->f[i].succ[e].to] > best) best = level[g->f[i].succ[e].to];
        level[i] = best + g->t[i].cost + 1;
        g->f[i].priority = (uint32_t)(level[i] > UINT32_MAX ? UINT32_MAX : level[i]);
    }
    free(level);
}

/* Static orders for `cores` cores: each non-variable firing on a random core, in index order. */
static inline void tg_orders(tgraph *g, uint32_t cores, uint64_t *rng) {
    g->cores = cores;
    g->order = calloc(cores, sizeof *g->order);
    g->order_len = calloc(cores, sizeof *g->order_len);
    CF_CHECK(g->order && g->order_len);
    for (uint32_t c = 0; c < cores; c++) {
        g->order[c] = calloc(g->n + 1, sizeof **g->order);
        CF_CHECK(g->order[c] != NULL);
    }
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->f[i].flags & CF_SCHED_VARIABLE) continue;
        uint32_t c = (uint32_t)(tg_random(rng) % cores);
        g->order[c][g->order_len[c]++] = i;
    }
}

static inline cf_sched_graph tg_description(const tgraph *g) {
    cf_sched_graph d = {g->f, g->n, g->cores, (const uint32_t *const *)g->order, g->order_len};
    return d;
}

static inline void tg_reset(tgraph *g, int64_t iterations, uint32_t slots) {
    free(g->runs);
    free(g->done);
    free(g->value);
    g->iterations = iterations;
    g->slots = slots;
    size_t cells = (size_t)(iterations ? iterations : 1) * g->n;
    g->runs = calloc(cells, sizeof *g->runs);
    g->done = calloc(cells, sizeof *g->done);
    g->value = calloc(cells, sizeof *g->value);
    CF_CHECK(g->runs && g->done && g->value);
    g->failures = 0;
}

/* After a run: every firing once per iteration, no failed check, the values of a sequential run. */
static inline void tg_check(tgraph *g) {
    CF_CHECK(__atomic_load_n(&g->failures, __ATOMIC_RELAXED) == 0);
    for (int64_t j = 0; j < g->iterations; j++)
        for (uint32_t i = 0; i < g->n; i++) {
            size_t at = (size_t)j * g->n + i;
            CF_CHECK(g->runs[at] == 1);
            CF_CHECK(g->done[at] == 1);
        }
    /* Sequentially, in index order, which is topological: the values must be the same. */
    uint64_t *parallel = g->value;
    g->value = calloc((size_t)(g->iterations ? g->iterations : 1) * g->n, sizeof *g->value);
    CF_CHECK(g->value != NULL);
    for (int64_t j = 0; j < g->iterations; j++)
        for (uint32_t i = 0; i < g->n; i++) g->value[(size_t)j * g->n + i] = tg_compute(g, i, j);
    CF_CHECK(memcmp(parallel, g->value, (size_t)g->iterations * g->n * sizeof *parallel) == 0);
    free(parallel);
}

static inline void tg_free(tgraph *g) {
    for (uint32_t c = 0; c < g->cores; c++) free(g->order[c]);
    free(g->order);
    free(g->order_len);
    free(g->f);
    free(g->t);
    free(g->edges);
    free(g->preds);
    free(g->runs);
    free(g->done);
    free(g->value);
    memset(g, 0, sizeof *g);
}

#endif
