/* One graph iteration of a FIFO's consumer, through a copy of the buffer or a copy-on-write view, timed the
 * same way for bench_cow (the full table) and bench_calibrate (the break-even a target file records).
 *
 * Per iteration, timed: the memcpy (or publish + acquire) + the consumer's accesses (+ release). The consumer
 * touches every page with one load, so that re-faulting pages shared again is paid, and writes one byte in none,
 * one, 10% or 100% of the pages. The producer's own writes are the same for both and are not timed. Include after
 * cf_bench_util.h. */
#ifndef CF_BENCH_COW_H
#define CF_BENCH_COW_H

#include "cacheflow/copy.h"
#include "cacheflow/cow.h"

#include <unistd.h>

#define CF_BENCH_COW_MAX_REPS 41

enum { CF_BENCH_WRITE_NONE, CF_BENCH_WRITE_ONE, CF_BENCH_WRITE_TENTH, CF_BENCH_WRITE_ALL, CF_BENCH_NWRITES };

static inline size_t cf_bench_page(void) {
    static size_t page;
    if (!page) page = (size_t)sysconf(_SC_PAGESIZE);
    return page;
}

static inline void cf_bench_consume(unsigned char *d, size_t n, int writes) {
    size_t page = cf_bench_page();
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i += page) sum += d[i];
    bench_sink += sum;
    size_t stride = writes == CF_BENCH_WRITE_ALL ? 1 : writes == CF_BENCH_WRITE_TENTH ? 10 : 0;
    if (writes == CF_BENCH_WRITE_ONE) d[n / 2] = 1;
    if (stride)
        for (size_t p = 0; p < n / page; p += stride) d[p * page + 1] = 1;
}

/* The consumer gets its own copy (cf_copy of the whole buffer), then makes its accesses; reps <= the maximum. */
static inline bench_summary cf_bench_memcpy_iteration(size_t n, int writes, int reps) {
    unsigned char *src = aligned_alloc(4096, n), *dst = aligned_alloc(4096, n);
    if (!src || !dst) abort();
    memset(src, 7, n);
    memset(dst, 0, n);
    double t[CF_BENCH_COW_MAX_REPS];
    for (int r = -1; r < reps; r++) { /* r = -1 warms up */
        uint64_t t0 = bench_now_ns();
        cf_copy(dst, src, n);
        cf_bench_consume(dst, n, writes);
        if (r >= 0) t[r] = (double)(bench_now_ns() - t0);
    }
    free(src);
    free(dst);
    return bench_summarize(t, (size_t)reps);
}

/* The consumer reads through a persistent view of the given mode (eager: written pages found in the page table at
 * release; lazy: recorded by the SIGSEGV handler). */
static inline bench_summary cf_bench_cow_iteration(size_t n, cf_cow_mode mode, int writes, int reps) {
    cf_cow_config cfg = {mode, 1};
    cf_cow_buffer *b;
    cf_cow_view *v;
    unsigned char *p, *d;
    double t[CF_BENCH_COW_MAX_REPS];
    if (cf_cow_create(&b, n, &cfg) || cf_cow_view_open(b, &v)) abort();
    if (cf_cow_write_begin(b, (void **)&p)) abort();
    memset(p, 7, n);
    if (cf_cow_publish(b) || cf_cow_acquire(v, (void **)&d) || cf_cow_release(v)) abort();
    for (int r = -1; r < reps; r++) {
        if (cf_cow_write_begin(b, (void **)&p)) abort();
        uint64_t t0 = bench_now_ns();
        if (cf_cow_publish(b) || cf_cow_acquire(v, (void **)&d)) abort();
        cf_bench_consume(d, n, writes);
        if (cf_cow_release(v)) abort();
        if (r >= 0) t[r] = (double)(bench_now_ns() - t0);
    }
    cf_cow_view_close(v);
    cf_cow_destroy(b);
    return bench_summarize(t, (size_t)reps);
}

#endif
