/* Allocation/free pairs per second on 2 threads (pinned to CPU 0 and 1) for the hierarchical allocator
 * (cacheflow/heap.h) against glibc malloc, mimalloc and jemalloc (when built with them) and a single-lock global
 * allocator (the paper's first approach: one allocator for all cores behind one lock; here cf_heap's own first-fit
 * free list, so that only the hierarchy differs).
 *
 *   local   each thread allocates a batch of 32 blocks, writes a byte of each, frees them: every free is local
 *   remote  each thread allocates blocks and passes them through a ring to the other thread, which checks and
 *           frees them: every free is remote (cf_heap: onto the owner's garbage list, reclaimed by the owner)
 * Block sizes 64 B and 4 KiB. Rounds run every (allocator, mode, size) once, in a rotating order, after a placement
 * probe; the table gives medians over rounds with min-max and the median ratio to glibc malloc in the same round.
 * Each allocator is called through its own entry points (__libc_malloc / __libc_free, mi_malloc / mi_free,
 * mallocx / dallocx): mimalloc and jemalloc both also replace malloc for the whole process when linked, so the
 * process's own malloc is one of them, which this benchmark does not use.
 *   bench_heap_alloc [--quick] [--csv FILE] */
#include "cf_bench_probe.h"
#include "cf_bench_util.h"

#include <pthread.h>
#include <stdlib.h>

#include "cacheflow/heap.h"

#ifdef CF_HAVE_MIMALLOC
#include <mimalloc.h>
#endif
#ifdef CF_HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#ifdef __GLIBC__
extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);
#endif

enum kind { K_CF, K_LOCK, K_GLIBC, K_MI, K_JE, KINDS };
static const char *const kind_names[KINDS] = {"cf_heap (hierarchical)", "single-lock global", "glibc malloc",
                                              "mimalloc", "jemalloc"};
enum mode { LOCAL, REMOTE, MODES };
static const char *const mode_names[MODES] = {"local", "remote"};
static const size_t sizes[] = {64, 4096};
enum { SIZES = 2, BATCH = 32, RING = 256, MAX_ROUNDS = 15 };

static int available(int k) {
#ifndef __GLIBC__
    if (k == K_GLIBC) return 0;
#endif
#ifndef CF_HAVE_MIMALLOC
    if (k == K_MI) return 0;
#endif
#ifndef CF_HAVE_JEMALLOC
    if (k == K_JE) return 0;
#endif
    (void)k;
    return 1;
}

typedef struct ring { /* single producer, single consumer, of block pointers */
    __attribute__((aligned(128))) uint64_t head;
    __attribute__((aligned(128))) uint64_t tail;
    __attribute__((aligned(128))) void *slot[RING];
} ring;

typedef struct shared {
    enum kind kind;
    enum mode mode;
    size_t size;
    long count; /* per thread */
    cf_heap *heap;
    pthread_mutex_t lock; /* K_LOCK */
    cf_heap_local *global; /* K_LOCK: the one allocator */
    ring rings[2];         /* rings[t]: to thread t */
    pthread_barrier_t start;
    uint32_t bad;
} shared;

typedef struct thread_ctx {
    shared *s;
    int id;
    cf_heap_local *local; /* K_CF */
    uint64_t begin, end;  /* its own clock: the main thread may be descheduled while they run */
} thread_ctx;

/* The allocators' entry points, called through pointers the compiler cannot see through: it may otherwise drop
 * an allocation/free pair it knows (allocation attributes) to have no other effect. */
#ifdef __GLIBC__
static void *(*volatile glibc_alloc)(size_t) = __libc_malloc;
static void (*volatile glibc_free)(void *) = __libc_free;
#endif
#ifdef CF_HAVE_MIMALLOC
static void *(*volatile mi_alloc)(size_t) = mi_malloc;
static void (*volatile mi_release)(void *) = mi_free;
#endif
#ifdef CF_HAVE_JEMALLOC
static void *(*volatile je_alloc)(size_t, int) = mallocx;
static void (*volatile je_release)(void *, int) = dallocx;
#endif

static void *allocate(thread_ctx *t, size_t n) {
    shared *s = t->s;
    void *p = NULL;
    switch (s->kind) {
    case K_CF: cf_heap_alloc(t->local, n, 0, &p); break;
    case K_LOCK:
        pthread_mutex_lock(&s->lock);
        cf_heap_alloc(s->global, n, 0, &p);
        pthread_mutex_unlock(&s->lock);
        break;
#ifdef __GLIBC__
    case K_GLIBC: p = glibc_alloc(n); break;
#endif
#ifdef CF_HAVE_MIMALLOC
    case K_MI: p = mi_alloc(n); break;
#endif
#ifdef CF_HAVE_JEMALLOC
    case K_JE: p = je_alloc(n, 0); break;
#endif
    default: break;
    }
    if (!p) {
        fprintf(stderr, "%s: allocation failed\n", kind_names[s->kind]);
        exit(1);
    }
    return p;
}

static void release(thread_ctx *t, void *p) {
    shared *s = t->s;
    switch (s->kind) {
    case K_CF:
        if (cf_heap_free(s->heap, t->local, p) != 0) __atomic_fetch_add(&s->bad, 1, __ATOMIC_RELAXED);
        break;
    case K_LOCK:
        pthread_mutex_lock(&s->lock);
        if (cf_heap_free(s->heap, s->global, p) != 0) __atomic_fetch_add(&s->bad, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&s->lock);
        break;
#ifdef __GLIBC__
    case K_GLIBC: glibc_free(p); break;
#endif
#ifdef CF_HAVE_MIMALLOC
    case K_MI: mi_release(p); break;
#endif
#ifdef CF_HAVE_JEMALLOC
    case K_JE: je_release(p, 0); break;
#endif
    default: break;
    }
}

static void *thread_main(void *arg) {
    thread_ctx *t = arg;
    shared *s = t->s;
    bench_pin(t->id);
    pthread_barrier_wait(&s->start);
    t->begin = bench_now_ns();
    if (s->mode == LOCAL) {
        void *blocks[BATCH];
        for (long i = 0; i < s->count; i += BATCH) {
            for (int b = 0; b < BATCH; b++) {
                blocks[b] = allocate(t, s->size);
                *(volatile char *)blocks[b] = (char)b;
            }
            for (int b = 0; b < BATCH; b++) release(t, blocks[b]);
        }
        t->end = bench_now_ns();
        return NULL;
    }
    /* Blocks go over in batches (one index store per batch), so that the ring's lines cost little beside the
     * blocks' own: a remote free must still bring the block's header line to the freeing core. */
    ring *out = &s->rings[1 - t->id], *in = &s->rings[t->id];
    long sent = 0, freed = 0;
    while (sent < s->count || freed < s->count) {
        uint64_t tail = out->tail;
        if (sent < s->count && tail - __atomic_load_n(&out->head, __ATOMIC_ACQUIRE) <= RING - BATCH) {
            for (int b = 0; b < BATCH; b++) {
                char *p = allocate(t, s->size);
                p[0] = (char)t->id;
                out->slot[(tail + (uint64_t)b) % RING] = p;
            }
            __atomic_store_n(&out->tail, tail + BATCH, __ATOMIC_RELEASE);
            sent += BATCH;
        }
        uint64_t head = in->head, end = __atomic_load_n(&in->tail, __ATOMIC_ACQUIRE);
        for (; head != end; head++, freed++) {
            char *p = in->slot[head % RING];
            if (p[0] != (char)(1 - t->id)) __atomic_fetch_add(&s->bad, 1, __ATOMIC_RELAXED);
            release(t, p);
        }
        __atomic_store_n(&in->head, head, __ATOMIC_RELEASE);
    }
    t->end = bench_now_ns();
    return NULL;
}

/* Million pairs per second, both threads together. */
static double trial(enum kind kind, enum mode mode, size_t size, long count) {
    static shared s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.mode = mode;
    s.size = size;
    s.count = count;
    thread_ctx t[2] = {{&s, 0, NULL}, {&s, 1, NULL}};
    if (kind == K_CF || kind == K_LOCK) {
        if (cf_heap_create(&s.heap, (size_t)1 << 30, 0) != 0) exit(1);
        if (kind == K_CF && (cf_heap_attach(s.heap, &t[0].local) || cf_heap_attach(s.heap, &t[1].local))) exit(1);
        if (kind == K_LOCK && cf_heap_attach(s.heap, &s.global)) exit(1);
        pthread_mutex_init(&s.lock, NULL);
    }
    pthread_barrier_init(&s.start, NULL, 3);
    pthread_t threads[2];
    for (int i = 0; i < 2; i++)
        if (pthread_create(&threads[i], NULL, thread_main, &t[i]) != 0) exit(1);
    pthread_barrier_wait(&s.start);
    for (int i = 0; i < 2; i++) pthread_join(threads[i], NULL);
    uint64_t begin = t[0].begin < t[1].begin ? t[0].begin : t[1].begin, end = t[0].end > t[1].end ? t[0].end : t[1].end;
    double seconds = (double)(end - begin) / 1e9;
    pthread_barrier_destroy(&s.start);
    if (s.heap) {
        int rc = 0;
        if (t[0].local) rc |= cf_heap_detach(t[0].local);
        if (t[1].local) rc |= cf_heap_detach(t[1].local);
        if (s.global) rc |= cf_heap_detach(s.global);
        rc |= cf_heap_destroy(s.heap);
        pthread_mutex_destroy(&s.lock);
        if (rc) s.bad++;
    }
    if (s.bad) {
        fprintf(stderr, "%s %s: wrong block contents or a failed free/detach\n", kind_names[kind], mode_names[mode]);
        exit(1);
    }
    return 2.0 * (double)count / seconds / 1e6;
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "allocation/free pairs per second on 2 threads, local and remote frees",
                               "allocator,mode,size,metric,median,min,max,unit,rounds");
    cf_probe_start();
#ifndef CF_HAVE_MIMALLOC
    printf("mimalloc: not built (not found by CMake; Debian package libmimalloc-dev)\n");
#endif
#ifndef CF_HAVE_JEMALLOC
    printf("jemalloc: not built (not found by pkg-config; Debian package libjemalloc-dev)\n");
#endif
    int rounds = o.quick ? 3 : 9;
    long count_of[MODES] = {o.quick ? 200000 : 2000000, o.quick ? 51200 : 512000}; /* multiples of BATCH */
    enum { CELLS = KINDS * MODES * SIZES };
    static double value[CELLS][MAX_ROUNDS], ratio[CELLS][MAX_ROUNDS];
    double probes[2 * MAX_ROUNDS];
    for (int r = 0; r < rounds; r++) {
        probes[2 * r] = cf_probe_one_way(20000);
        for (int c = 0; c < CELLS; c++) {
            int cell = (c + r * 3) % CELLS, k = cell / (MODES * SIZES), m = cell / SIZES % MODES, z = cell % SIZES;
            value[cell][r] = available(k) ? trial((enum kind)k, (enum mode)m, sizes[z], count_of[m]) : -1;
        }
        probes[2 * r + 1] = cf_probe_one_way(20000);
        for (int c = 0; c < CELLS; c++) {
            int base = K_GLIBC * MODES * SIZES + c % (MODES * SIZES);
            ratio[c][r] = available(K_GLIBC) ? value[c][r] / value[base][r] : 0;
        }
    }
    bench_summary p = bench_summarize(probes, (size_t)(2 * rounds));
    printf("placement probe (one-line ping-pong, one-way): median %.1f ns, %.1f-%.1f ns over %d probes\n", p.median,
           p.min, p.max, 2 * rounds);
    printf("2 threads; local: %ld pairs per thread per trial, remote: %ld; %d rounds\n", count_of[LOCAL],
           count_of[REMOTE], rounds);
    printf("%-24s %-7s %6s %16s %17s %10s\n", "allocator", "frees", "size", "M pairs/s", "min-max", "vs glibc");
    for (int m = 0; m < MODES; m++)
        for (int z = 0; z < SIZES; z++)
            for (int k = 0; k < KINDS; k++) {
                if (!available(k)) continue;
                int c = k * MODES * SIZES + m * SIZES + z;
                bench_summary s = bench_summarize(value[c], (size_t)rounds);
                bench_summary q = bench_summarize(ratio[c], (size_t)rounds);
                char range[40];
                snprintf(range, sizeof range, "%.2f-%.2f", s.min, s.max);
                printf("%-24s %-7s %6zu %16.2f %17s %9.2fx\n", kind_names[k], mode_names[m], sizes[z], s.median, range,
                       q.median);
                bench_csv(&o, "%s,%s,%zu,pairs_per_s,%.3f,%.3f,%.3f,M/s,%d", kind_names[k], mode_names[m], sizes[z],
                          s.median, s.min, s.max, rounds);
                bench_csv(&o, "%s,%s,%zu,ratio_vs_glibc,%.3f,%.3f,%.3f,x,%d", kind_names[k], mode_names[m], sizes[z],
                          q.median, q.min, q.max, rounds);
            }
    bench_csv(&o, "probe,,,one_way,%.1f,%.1f,%.1f,ns,%d", p.median, p.min, p.max, 2 * rounds);
    bench_print_load("after");
    if (o.csv) fclose(o.csv);
    return 0;
}
