/* The API example of docs/schedule.md, as written there (split, two variable tiles, a stateful sink; a hybrid run on
 * two cores whose second core has no static firing), checked: every firing ran once per iteration, the tiles came
 * from the pool, the sink's state saw every iteration in order, the local heaps were detached. */
#include <string.h>

#include "cacheflow/cacheflow.h"
#include "helpers.h"

typedef struct actor_state {
    uint32_t runs;
    int64_t last; /* the sink: the last iteration seen */
    uint32_t out_of_order;
} actor_state;

static actor_state split, tile0, tile1, sink;

static void actor(void *arg, const cf_sched_ctx *ctx) {
    actor_state *a = arg;
    __atomic_fetch_add(&a->runs, 1, __ATOMIC_RELAXED);
    if (a == &sink) {
        if (ctx->iteration != a->last + 1) a->out_of_order++;
        a->last = ctx->iteration;
    }
}

static const cf_sched_edge split_out[] = {{1, 0}, {2, 0}}, tile_out[] = {{3, 0}}, sink_state[] = {{3, 1}};
static const cf_sched_firing firings[] = {
    /* fn,   arg,   successors, n, npred, priority, flags */
    {actor, &split, split_out, 2, 0, 4, 0},
    {actor, &tile0, tile_out, 1, 1, 3, CF_SCHED_VARIABLE},
    {actor, &tile1, tile_out, 1, 1, 3, CF_SCHED_VARIABLE},
    {actor, &sink, sink_state, 1, 3, 1, 0}, /* 2 tiles + its own state from the previous iteration */
};
static const uint32_t core0[] = {0, 3}, *orders[] = {core0, NULL};
static const uint32_t order_len[] = {2, 0};

int main(void) {
    sink.last = -1;
    cf_heap *heap;
    CF_CHECK(cf_heap_create(&heap, 1 << 24, 0) == 0);
    cf_sched_graph graph = {firings, 4, 2, orders, order_len}; /* cores and orders: hybrid only */
    cf_sched *s;
    CF_CHECK(cf_sched_create(&s, &graph) == 0);
    cf_sched_run_config run = {.iterations = 1000, .slots = 2, .threads = 2, .mode = CF_SCHED_HYBRID,
                               .order = CF_SCHED_HRC, .flags = CF_SCHED_TIME, .heap = heap};
    CF_CHECK(cf_sched_run(s, &run) == 0);
    CF_CHECK(split.runs == 1000 && tile0.runs == 1000 && tile1.runs == 1000 && sink.runs == 1000);
    CF_CHECK(sink.last == 999 && sink.out_of_order == 0);
    uint64_t pooled = 0;
    for (unsigned w = 0; w < 2; w++) {
        cf_sched_worker_stats st;
        CF_CHECK(cf_sched_worker_stats_get(s, w, &st) == 0);
        pooled += st.pool_firings;
    }
    CF_CHECK(pooled == 2000);
    cf_sched_destroy(s);
    CF_CHECK(cf_heap_destroy(heap) == 0);
    printf("test_sched_example: ok\n");
    return 0;
}
