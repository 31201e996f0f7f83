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

#include "cf_bench_cow.h"

static const char *write_names[CF_BENCH_NWRITES] = {"read-only", "1 page", "10% pages", "100% pages"};

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "copy-on-write vs memcpy per iteration",
                               "size_bytes,consumer_writes,method,median_ns,min_ns,max_ns,memcpy_over_method");
    static const size_t all_sizes[] = {64u << 10, 256u << 10, 1u << 20, 4u << 20, 8u << 20, 16u << 20, 64u << 20};
    static const size_t quick_sizes[] = {64u << 10, 1u << 20, 8u << 20};
    const size_t *sizes = o.quick ? quick_sizes : all_sizes;
    size_t nsizes = o.quick ? 3 : sizeof all_sizes / sizeof all_sizes[0];
    size_t break_even[2][CF_BENCH_NWRITES];
    int still_cheaper[2][CF_BENCH_NWRITES];
    for (int m = 0; m < 2; m++)
        for (int w = 0; w < CF_BENCH_NWRITES; w++) break_even[m][w] = 0, still_cheaper[m][w] = 0;
    bench_pin(0);

    printf("%-8s %-11s | %-24s | %-24s %7s | %-24s %7s\n", "size", "consumer", "memcpy us", "eager us", "x",
           "lazy us", "x");
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        int reps = n >= (16u << 20) ? (o.quick ? 5 : 11) : (o.quick ? 11 : CF_BENCH_COW_MAX_REPS);
        for (int w = 0; w < CF_BENCH_NWRITES; w++) {
            bench_summary mc = cf_bench_memcpy_iteration(n, w, reps);
            bench_summary cow[2] = {cf_bench_cow_iteration(n, CF_COW_EAGER, w, reps), cf_bench_cow_iteration(n, CF_COW_LAZY, w, reps)};
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
    for (int w = 0; w < CF_BENCH_NWRITES; w++) {
        char a[32], b[32];
        printf("  %-11s eager: %-10s lazy: %s\n", write_names[w],
               still_cheaper[0][w] ? bench_size_name(break_even[0][w], a, sizeof a) : "never",
               still_cheaper[1][w] ? bench_size_name(break_even[1][w], b, sizeof b) : "never");
    }
    if (o.csv) fclose(o.csv);
    return 0;
}
