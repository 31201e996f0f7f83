/* cf_sched: the description's checks, a small graph with delays in every mode, pool order, thread count and slot
 * count (each firing once per iteration, dependencies and buffer copies respected, the values of a sequential
 * run), a run ended early (cf_sched_end), the HRC and FIFO orders on one thread, the per-worker statistics and
 * times, sleeping workers, and buffers from the hierarchical allocator freed by whichever core consumes them. */
#include <errno.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sched_check.h"

static cf_sched_run_config config(int64_t iterations, uint32_t slots, unsigned threads, enum cf_sched_mode mode,
                                  enum cf_sched_order order) {
    cf_sched_run_config c = {iterations, slots, threads, mode, order, 0, 0, NULL};
    return c;
}

/* 0 -> 1, 0 -> 2, 1 -> 3, 2 -> 3; state: 1 -> 1 and 3 -> 3 one iteration later, 0 -> 2 two later; 2 variable. */
static void diamond(tgraph *g) {
    static const cf_sched_edge e0[] = {{1, 0}, {2, 0}, {2, 2}}, e1[] = {{3, 0}, {1, 1}}, e2[] = {{3, 0}}, e3[] = {{3, 1}};
    tg_alloc(g, 4, 0);
    const cf_sched_edge *lists[] = {e0, e1, e2, e3};
    uint32_t counts[] = {3, 2, 1, 1};
    for (uint32_t i = 0; i < 4; i++) {
        g->f[i].succ = lists[i];
        g->f[i].nsucc = counts[i];
        g->f[i].priority = 4 - i;
        g->t[i].cost = 200 * (i + 1);
    }
    g->f[2].flags = CF_SCHED_VARIABLE;
    tg_finish(g);
}

static void check_errors(void) {
    tgraph g;
    diamond(&g);
    cf_sched *s = NULL;
    cf_sched_graph d = tg_description(&g);
    CF_CHECK(cf_sched_create(NULL, &d) == -EINVAL);
    CF_CHECK(cf_sched_create(&s, NULL) == -EINVAL && s == NULL);
    g.f[3].npred++; /* npred disagrees with the successor lists */
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    g.f[3].npred--;
    cf_sched_edge cycle[] = {{0, 0}};
    const cf_sched_edge *keep = g.f[3].succ;
    g.f[3].succ = cycle; /* 3 -> 0 in the same iteration closes a cycle (instead of 3 -> 3 a step later) */
    g.f[0].npred = 1;
    g.f[3].npred--;
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    cycle[0].distance = 1; /* one iteration later it is a delay: fine */
    CF_CHECK(cf_sched_create(&s, &d) == 0);
    cf_sched_destroy(s);
    cycle[0] = (cf_sched_edge){9, 0}; /* no such firing */
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    cycle[0] = (cf_sched_edge){0, CF_SCHED_MAX_DISTANCE + 1};
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    g.f[3].succ = keep;
    g.f[0].npred = 0;
    g.f[3].npred++;
    /* Static orders: a steady firing missing, listed twice, a variable one listed, a successor before its
     * predecessor on one core. */
    uint32_t good0[] = {0, 1}, good1[] = {3}, twice[] = {0, 1, 1}, variable[] = {2, 3}, backwards[] = {1, 0};
    const uint32_t *orders[2] = {good0, good1};
    uint32_t lens[2] = {2, 1};
    d = (cf_sched_graph){g.f, g.n, 2, orders, lens};
    CF_CHECK(cf_sched_create(&s, &d) == 0);
    cf_sched_run_config c = config(3, 1, 2, CF_SCHED_HYBRID, CF_SCHED_HRC);
    tg_reset(&g, 3, 1);
    CF_CHECK(cf_sched_run(s, &c) == 0);
    tg_check(&g);
    c.threads = 3; /* hybrid needs one worker per static order */
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(3, 0, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(3, (uint32_t)CF_SCHED_MAX_SLOTS + 1, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(-1, 1, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(3, 1, 0, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(3, 1, 2, CF_SCHED_DYNAMIC, (enum cf_sched_order)7);
    CF_CHECK(cf_sched_run(s, &c) == -EINVAL);
    c = config(0, 1, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC); /* nothing to run */
    CF_CHECK(cf_sched_run(s, &c) == 0);
    cf_sched_destroy(s);
    lens[0] = 1;
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    orders[0] = twice;
    lens[0] = 3;
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    orders[0] = variable;
    orders[1] = good0;
    lens[0] = lens[1] = 2;
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    orders[0] = backwards;
    orders[1] = good1;
    lens[1] = 1;
    CF_CHECK(cf_sched_create(&s, &d) == -EINVAL);
    tg_free(&g);
}

static void every_mode(void) {
    uint64_t rng = 42;
    static const unsigned threads[] = {1, 2, 4};
    for (unsigned ti = 0; ti < 3; ti++) {
        tgraph g;
        diamond(&g);
        tg_orders(&g, threads[ti], &rng);
        cf_sched_graph d = tg_description(&g);
        cf_sched *s;
        CF_CHECK(cf_sched_create(&s, &d) == 0);
        for (uint32_t slots = 1; slots <= 5; slots++) /* 3 and 5: rings rounded up to powers of two */
            for (int mode = 0; mode < 2; mode++)
                for (int order = 0; order < 2; order++) {
                    int64_t n = 40;
                    tg_reset(&g, n, slots);
                    cf_sched_run_config c = config(n, slots, threads[ti], (enum cf_sched_mode)mode,
                                                   (enum cf_sched_order)order);
                    CF_CHECK(cf_sched_run(s, &c) == 0);
                    tg_check(&g);
                    uint64_t firings = 0, pooled = 0;
                    for (unsigned w = 0; w < threads[ti]; w++) {
                        cf_sched_worker_stats st;
                        CF_CHECK(cf_sched_worker_stats_get(s, w, &st) == 0);
                        firings += st.firings;
                        pooled += st.pool_firings;
                        CF_CHECK(st.wall_ns == 0 && st.work_ns == 0); /* no CF_SCHED_TIME */
                    }
                    cf_sched_worker_stats st;
                    CF_CHECK(cf_sched_worker_stats_get(s, threads[ti], &st) == -EINVAL);
                    CF_CHECK(firings == (uint64_t)n * g.n);
                    /* Hybrid: only the variable firing (2) comes from the pool. */
                    CF_CHECK(pooled == (mode == CF_SCHED_DYNAMIC ? firings : (uint64_t)n));
                }
        cf_sched_destroy(s);
        tg_free(&g);
    }
}

/* cf_sched_end from a firing (a stop): firing 0 of iteration `stop_at` ends the run there. */
static cf_sched *ending;
static int64_t stop_at;

static void stopping_actor(void *arg, const cf_sched_ctx *ctx) {
    tg_actor(arg, ctx);
    if (ctx->firing == 0 && ctx->iteration == stop_at) cf_sched_end(ending, stop_at + 1);
}

/* A run ended early returns once the iterations admitted have completed: those up to the stop ran whole, at most
 * `slots` more ran (admitted before the stop), none after them, and the run with every iteration still runs
 * them all afterwards; in every mode, with 1, 2 and 4 workers and 1 to 3 slots. */
static void ended_early(void) {
    uint64_t rng = 7;
    static const unsigned threads[] = {1, 2, 4};
    for (unsigned ti = 0; ti < 3; ti++) {
        tgraph g;
        diamond(&g);
        g.f[0].fn = stopping_actor;
        tg_orders(&g, threads[ti], &rng);
        cf_sched_graph d = tg_description(&g);
        CF_CHECK(cf_sched_create(&ending, &d) == 0);
        for (uint32_t slots = 1; slots <= 3; slots++)
            for (int mode = 0; mode < 2; mode++) {
                int64_t n = 200000;
                stop_at = 5;
                tg_reset(&g, n, slots);
                cf_sched_run_config c = config(n, slots, threads[ti], (enum cf_sched_mode)mode, CF_SCHED_HRC);
                CF_CHECK(cf_sched_run(ending, &c) == 0);
                CF_CHECK(__atomic_load_n(&g.failures, __ATOMIC_RELAXED) == 0);
                int64_t ran = 0;
                while (ran < n && g.runs[(size_t)ran * g.n] == 1) ran++;
                CF_CHECK(ran > stop_at && ran <= stop_at + 1 + (int64_t)slots);
                for (int64_t j = 0; j < n; j++)
                    for (uint32_t i = 0; i < g.n; i++) CF_CHECK(g.runs[(size_t)j * g.n + i] == (j < ran ? 1u : 0u));
                stop_at = -1;
                tg_reset(&g, 40, slots);
                c.iterations = 40;
                CF_CHECK(cf_sched_run(ending, &c) == 0);
                tg_check(&g);
            }
        cf_sched_destroy(ending);
        tg_free(&g);
    }
}

/* One thread: HRC runs the ready firing of highest priority first, FIFO in the order they became ready. */
static void pool_order(void) {
    tgraph g;
    tg_alloc(&g, 7, 10);
    static const uint32_t priority[] = {0, 3, 9, 1, 7, 5, 0};
    for (uint32_t i = 1; i <= 5; i++) {
        g.edges[i - 1] = (cf_sched_edge){i, 0};
        g.edges[5 + i - 1] = (cf_sched_edge){6, 0};
        g.f[i].succ = &g.edges[5 + i - 1];
        g.f[i].nsucc = 1;
    }
    g.f[0].succ = g.edges;
    g.f[0].nsucc = 5;
    for (uint32_t i = 0; i < 7; i++) g.f[i].priority = priority[i];
    tg_finish(&g);
    cf_sched_graph d = tg_description(&g);
    cf_sched *s;
    CF_CHECK(cf_sched_create(&s, &d) == 0);
    uint32_t trace[64];
    static const uint32_t hrc[] = {0, 2, 4, 5, 1, 3, 6}, fifo[] = {0, 1, 2, 3, 4, 5, 6};
    for (int order = 0; order < 2; order++) {
        tg_reset(&g, 1, 1);
        g.trace = trace;
        g.ntrace = 0;
        cf_sched_run_config c = config(1, 1, 1, CF_SCHED_DYNAMIC, (enum cf_sched_order)order);
        CF_CHECK(cf_sched_run(s, &c) == 0);
        tg_check(&g);
        CF_CHECK(g.ntrace == 7);
        CF_CHECK(memcmp(trace, order == CF_SCHED_HRC ? hrc : fifo, sizeof hrc) == 0);
    }
    /* Two iterations in flight, equal priorities: HRC takes the older iteration's firings first. */
    for (uint32_t i = 0; i < 7; i++) g.f[i].priority = 1;
    tg_reset(&g, 2, 2);
    g.ntrace = 0;
    cf_sched_run_config c = config(2, 2, 1, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    CF_CHECK(cf_sched_run(s, &c) == 0);
    tg_check(&g);
    CF_CHECK(g.ntrace == 14);
    for (int it = 0; it < 2; it++) { /* 0, then 1-5 in any order (equal keys), then 6; then iteration 1 */
        const uint32_t *t = trace + 7 * it;
        uint32_t seen = 0;
        for (int k = 1; k <= 5; k++) seen |= 1u << t[k];
        CF_CHECK(t[0] == 0 && t[6] == 6 && seen == 0x3eu);
    }
    g.trace = NULL;
    cf_sched_destroy(s);
    tg_free(&g);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A firing that takes 50 us of wall time, and one that sleeps 2 ms (the others go idle, then to sleep). */
static void busy_50us(void *arg, const cf_sched_ctx *ctx) {
    (void)ctx;
    double end = now_s() + 50e-6;
    while (now_s() < end) {
    }
    __atomic_fetch_add((uint32_t *)arg, 1, __ATOMIC_RELAXED);
}

static void sleep_2ms(void *arg, const cf_sched_ctx *ctx) {
    (void)ctx;
    struct timespec pause = {0, 2000000};
    nanosleep(&pause, NULL);
    __atomic_fetch_add((uint32_t *)arg, 1, __ATOMIC_RELAXED);
}

static void times_and_sleeps(void) {
    uint32_t ran = 0;
    enum { WIDE = 8 };
    cf_sched_firing f[WIDE + 1];
    cf_sched_edge to_last = {WIDE, 0};
    memset(f, 0, sizeof f);
    for (int i = 0; i < WIDE; i++) f[i] = (cf_sched_firing){busy_50us, &ran, &to_last, 1, 0, 1, 0};
    f[0].fn = sleep_2ms;
    f[WIDE] = (cf_sched_firing){busy_50us, &ran, NULL, 0, WIDE, 0, 0};
    cf_sched_graph d = {f, WIDE + 1, 0, NULL, NULL};
    cf_sched *s;
    CF_CHECK(cf_sched_create(&s, &d) == 0);
    cf_sched_run_config c = config(20, 1, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
    c.flags = CF_SCHED_TIME;
    c.spin_limit = 1;
    double begin = now_s();
    CF_CHECK(cf_sched_run(s, &c) == 0);
    double wall = now_s() - begin;
    CF_CHECK(ran == 20 * (WIDE + 1));
    uint64_t work = 0, sleeps = 0, firings = 0;
    for (unsigned w = 0; w < 2; w++) {
        cf_sched_worker_stats st;
        CF_CHECK(cf_sched_worker_stats_get(s, w, &st) == 0);
        CF_CHECK(st.wall_ns > 0 && st.wall_ns <= (uint64_t)(wall * 1e9) + 1000000);
        CF_CHECK(st.work_ns + st.idle_ns + st.dispatch_ns == st.wall_ns);
        work += st.work_ns;
        sleeps += st.sleeps;
        firings += st.firings;
    }
    CF_CHECK(firings == 20 * (WIDE + 1));
    /* 20 iterations of 2 ms + 8 x 50 us of actor time at least; one iteration in flight, so while firing 0
     * sleeps the other worker finishes its share and sleeps too. */
    CF_CHECK(work >= 20 * (2000000 + WIDE * 50000));
    CF_CHECK(sleeps > 0);
    FILE *text = tmpfile();
    CF_CHECK(text != NULL);
    cf_sched_print_times(s, text);
    rewind(text);
    char line[512];
    int lines = 0;
    while (fgets(line, sizeof line, text)) {
        char prefix[32];
        snprintf(prefix, sizeof prefix, "sched core %d: working ", lines);
        CF_CHECK(strncmp(line, prefix, strlen(prefix)) == 0);
        CF_CHECK(strstr(line, "dispatching") && strstr(line, "idle") && strstr(line, "firings"));
        lines++;
    }
    fclose(text);
    CF_CHECK(lines == 2);
    cf_sched_destroy(s);
}

/* Producer -> consumer: the producer's buffer comes from its worker's local heap, the consumer (on whichever
 * worker) checks and frees it: remote frees when the two ran on different workers. */
typedef struct handoff {
    cf_heap *heap;
    void *buffer[4];   /* per slot */
    uint32_t bad;
    uint32_t keep;     /* 1: the consumer of the last iteration keeps its buffer */
    int64_t iterations;
} handoff;

static void produce(void *arg, const cf_sched_ctx *ctx) {
    handoff *h = arg;
    void *p = NULL;
    if (!ctx->heap || cf_heap_alloc(ctx->heap, 4096, CF_HEAP_TOUCH, &p) != 0) {
        __atomic_fetch_add(&h->bad, 1, __ATOMIC_RELAXED);
        return;
    }
    memset(p, (int)(ctx->iteration & 0x7f), 4096);
    h->buffer[ctx->iteration % 4] = p;
}

static void consume(void *arg, const cf_sched_ctx *ctx) {
    handoff *h = arg;
    unsigned char *p = h->buffer[ctx->iteration % 4];
    if (!p || p[0] != (ctx->iteration & 0x7f) || p[4095] != (ctx->iteration & 0x7f)) {
        __atomic_fetch_add(&h->bad, 1, __ATOMIC_RELAXED);
        return;
    }
    if (h->keep && ctx->iteration == h->iterations - 1) return;
    if (cf_heap_free(h->heap, ctx->heap, p) != 0) __atomic_fetch_add(&h->bad, 1, __ATOMIC_RELAXED);
    h->buffer[ctx->iteration % 4] = NULL;
}

static void heap_buffers(void) {
    handoff h;
    memset(&h, 0, sizeof h);
    CF_CHECK(cf_heap_create(&h.heap, 64 << 20, 0) == 0);
    cf_sched_edge edge = {1, 0};
    cf_sched_firing f[2] = {{produce, &h, &edge, 1, 0, 2, 0}, {consume, &h, NULL, 0, 1, 1, 0}};
    cf_sched_graph d = {f, 2, 0, NULL, NULL};
    cf_sched *s;
    CF_CHECK(cf_sched_create(&s, &d) == 0);
    for (unsigned threads = 1; threads <= 4; threads *= 2) {
        h.iterations = 400;
        cf_sched_run_config c = config(h.iterations, 4, threads, CF_SCHED_DYNAMIC, CF_SCHED_FIFO);
        c.heap = h.heap;
        CF_CHECK(cf_sched_run(s, &c) == 0);
        CF_CHECK(h.bad == 0);
        cf_heap_usage u;
        cf_heap_get_usage(h.heap, &u);
        CF_CHECK(u.locals == 0 && u.chunks_in_use == 0); /* every worker's local heap detached */
    }
    CF_CHECK(cf_heap_destroy(h.heap) == 0);
    /* A block kept past the run: its worker's local heap cannot detach. In a child process, which ends with
     * _exit: the heap it cannot destroy is not a leak of this test. */
    pid_t child = fork();
    CF_CHECK(child >= 0);
    if (child == 0) {
        CF_CHECK(cf_heap_create(&h.heap, 64 << 20, 0) == 0);
        h.keep = 1;
        cf_sched_run_config c = config(h.iterations, 4, 2, CF_SCHED_DYNAMIC, CF_SCHED_HRC);
        c.heap = h.heap;
        int rc = cf_sched_run(s, &c);
        _exit(rc == -EBUSY && h.bad == 0 && cf_heap_destroy(h.heap) == -EBUSY ? 0 : 1);
    }
    int status;
    CF_CHECK(waitpid(child, &status, 0) == child);
    CF_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    cf_sched_destroy(s);
}

int main(void) {
    check_errors();
    every_mode();
    ended_early();
    pool_order();
    times_and_sleeps();
    heap_buffers();
    printf("test_sched_basic: ok\n");
    return 0;
}
