/* cf_sched under stress: random graphs (1-48 firings, distance-0 edges forward, edges of distance 1-2 to any
 * firing, a fifth to a half of the firings variable), random costs (a few with twenty times the cost), random
 * iterations and slots, in every combination of dynamic / hybrid, HRC / FIFO and 1 / 2 / 4 threads, with the
 * default spin budget and with 1 (nearly every idle worker sleeps). Every run is checked by sched_check.h: each
 * firing once per iteration, its predecessors and the iteration `slots` earlier completed before it, the values
 * of a sequential run. CF_TEST_SCALE=<percent> scales the number of graphs (a tenth under sanitizers). */
#include "sched_check.h"

int main(void) {
    uint64_t rng = 0x5eed5eedu;
    int graphs = (int)(60 * cf_test_scale());
    if (graphs < 4) graphs = 4;
    static const unsigned threads[] = {1, 2, 4};
    long runs = 0;
    for (int trial = 0; trial < graphs; trial++) {
        uint32_t n = 1 + (uint32_t)(tg_random(&rng) % 48);
        tgraph g;
        tg_random_graph(&g, n, &rng, 20 + (unsigned)(tg_random(&rng) % 31), 1 + (uint32_t)(tg_random(&rng) % 3000));
        for (unsigned ti = 0; ti < 3; ti++) {
            /* Hybrid orders for this thread count (a new description: the orders are part of it). */
            for (uint32_t c = 0; c < g.cores; c++) free(g.order[c]);
            free(g.order);
            free(g.order_len);
            tg_orders(&g, threads[ti], &rng);
            cf_sched_graph d = tg_description(&g);
            cf_sched *s;
            CF_CHECK(cf_sched_create(&s, &d) == 0);
            for (int mode = 0; mode < 2; mode++)
                for (int order = 0; order < 2; order++) {
                    int64_t iterations = 1 + (int64_t)(tg_random(&rng) % 40);
                    uint32_t slots = 1 + (uint32_t)(tg_random(&rng) % 4);
                    tg_reset(&g, iterations, slots);
                    cf_sched_run_config c = {iterations, slots, threads[ti], (enum cf_sched_mode)mode,
                                             (enum cf_sched_order)order, CF_SCHED_NO_PIN,
                                             tg_random(&rng) % 2 ? 1 : 0, NULL};
                    if (cf_sched_run(s, &c) != 0) {
                        fprintf(stderr, "graph %d: run failed\n", trial);
                        return 1;
                    }
                    tg_check(&g);
                    runs++;
                }
            cf_sched_destroy(s);
        }
        tg_free(&g);
    }
    printf("test_sched_stress: %d graphs, %ld checked runs\n", graphs, runs);
    return 0;
}
