/* Copy-on-write vs memcpy: the cost of one graph iteration for one consumer of a FIFO buffer.
 *
 *   memcpy : the consumer gets its own copy (cf_copy of the whole buffer), then writes its pages.
 *   eager  : persistent MAP_PRIVATE view, written pages found in the page table at release.
 *   lazy   : persistent read-only view, written pages recorded by the SIGSEGV handler.
 * Per iteration, timed: publish + acquire + the consumer's accesses + release (or the memcpy and the
 * same accesses). The consumer touches every page with one load (so re-faulting re-shared pages is
 * paid) and writes one byte in none, 1, 10% or 100% of the pages. The producer's own writes are the
 * same in every variant and are not timed.
 *
 * Each cell: median (min..max) microseconds per iteration; "x" = memcpy / CoW (above 1: CoW cheaper).
 * The break-even size is the smallest size from which CoW stayed cheaper than memcpy. */
#include "cf_bench_util.h" /* first: it sets _GNU_SOURCE */

#include "cacheflow/copy.h"
#include "cacheflow/cow.h"

#include <unistd.h>

#define MAX_REPS 41
enum { WRITE_NONE, WRITE_ONE, WRITE_TENTH, WRITE_ALL, NWRITES };
static const char *write_names[NWRITES] = {"read-only", "1 page", "10% pages", "100% pages"};
static size_t page;

static void consume(unsigned char *d, size_t n, int writes) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i += page) sum += d[i];
    bench_sink += sum;
    size_t stride = writes == WRITE_ALL ? 1 : writes == WRITE_TENTH ? 10 : 0;
    if (writes == WRITE_ONE) d[n / 2] = 1;
    if (stride)
        for (size_t p = 0; p < n / page; p += stride) d[p * page + 1] = 1;
}

static bench_summary run_memcpy(size_t n, int writes, int reps) {
    unsigned char *src = aligned_alloc(4096, n), *dst = aligned_alloc(4096, n);
    memset(src, 7, n);
    memset(dst, 0, n);
    double t[MAX_REPS];
    for (int r = -1; r < reps; r++) { /* r = -1 warms up */
        uint64_t t0 = bench_now_ns();
        cf_copy(dst, src, n);
        consume(dst, n, writes);
        if (r >= 0) t[r] = (double)(bench_now_ns() - t0);
    }
    free(src);
    free(dst);
    return bench_summarize(t, (size_t)reps);
}

static bench_summary run_cow(size_t n, cf_cow_mode mode, int writes, int reps) {
    cf_cow_config cfg = {mode, 1};
    cf_cow_buffer *b;
    cf_cow_view *v;
    unsigned char *p, *d;
    double t[MAX_REPS];
    if (cf_cow_create(&b, n, &cfg) || cf_cow_view_open(b, &v)) abort();
    if (cf_cow_write_begin(b, (void **)&p)) abort();
    memset(p, 7, n);
    if (cf_cow_publish(b) || cf_cow_acquire(v, (void **)&d) || cf_cow_release(v)) abort();
    for (int r = -1; r < reps; r++) {
        if (cf_cow_write_begin(b, (void **)&p)) abort();
        uint64_t t0 = bench_now_ns();
        if (cf_cow_publish(b) || cf_cow_acquire(v, (void **)&d)) abort();
        consume(d, n, writes);
        if (cf_cow_release(v)) abort();
        if (r >= 0) t[r] = (double)(bench_now_ns() - t0);
    }
    cf_cow_view_close(v);
    cf_cow_destroy(b);
    return bench_summarize(t, (size_t)reps);
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "copy-on-write vs memcpy per iteration",
                               "size_bytes,consumer_writes,method,median_ns,min_ns,max_ns,memcpy_over_method");
    page = (size_t)sysconf(_SC_PAGESIZE);
    static const size_t all_sizes[] = {64u << 10, 256u << 10, 1u << 20, 4u << 20, 8u << 20, 16u << 20, 64u << 20};
    static const size_t quick_sizes[] = {64u << 10, 1u << 20, 8u << 20};
    const size_t *sizes = o.quick ? quick_sizes : all_sizes;
    size_t nsizes = o.quick ? 3 : sizeof all_sizes / sizeof all_sizes[0];
    size_t break_even[2][NWRITES];
    int still_cheaper[2][NWRITES];
    for (int m = 0; m < 2; m++)
        for (int w = 0; w < NWRITES; w++) break_even[m][w] = 0, still_cheaper[m][w] = 0;
    bench_pin(0);

    printf("%-8s %-11s | %-24s | %-24s %7s | %-24s %7s\n", "size", "consumer", "memcpy us", "eager us", "x",
           "lazy us", "x");
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        int reps = n >= (16u << 20) ? (o.quick ? 5 : 11) : (o.quick ? 11 : MAX_REPS);
        for (int w = 0; w < NWRITES; w++) {
            bench_summary mc = run_memcpy(n, w, reps);
            bench_summary cow[2] = {run_cow(n, CF_COW_EAGER, w, reps), run_cow(n, CF_COW_LAZY, w, reps)};
            char name[32], c[3][40];
            snprintf(c[0], 40, "%.1f (%.1f..%.1f)", mc.median / 1e3, mc.min / 1e3, mc.max / 1e3);
            for (int m = 0; m < 2; m++) {
                snprintf(c[1 + m], 40, "%.1f (%.1f..%.1f)", cow[m].median / 1e3, cow[m].min / 1e3, cow[m].max / 1e3);
                int cheaper = cow[m].median < mc.median;
                if (cheaper && !still_cheaper[m][w]) break_even[m][w] = n;
                still_cheaper[m][w] = cheaper;
                bench_csv(&o, "%zu,%s,%s,%.0f,%.0f,%.0f,%.3f", n, write_names[w], m ? "lazy" : "eager", cow[m].median,
                          cow[m].min, cow[m].max, mc.median / cow[m].median);
            }
            bench_csv(&o, "%zu,%s,memcpy,%.0f,%.0f,%.0f,1", n, write_names[w], mc.median, mc.min, mc.max);
            printf("%-8s %-11s | %-24s | %-24s %7.2f | %-24s %7.2f\n", bench_size_name(n, name, sizeof name),
                   write_names[w], c[0], c[1], mc.median / cow[0].median, c[2], mc.median / cow[1].median);
            fflush(stdout);
        }
    }
    printf("\nbreak-even (smallest measured size from which CoW stays cheaper than memcpy):\n");
    for (int w = 0; w < NWRITES; w++) {
        char a[32], b[32];
        printf("  %-11s eager: %-10s lazy: %s\n", write_names[w],
               still_cheaper[0][w] ? bench_size_name(break_even[0][w], a, sizeof a) : "never",
               still_cheaper[1][w] ? bench_size_name(break_even[1][w], b, sizeof b) : "never");
    }
    if (o.csv) fclose(o.csv);
    return 0;
}
