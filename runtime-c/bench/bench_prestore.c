/* Pre-store costs.
 *  (1) per line: a buffer is dirtied, then cf_prestore(CF_CLEAN / CF_DEMOTE / CF_EVICT) is timed;
 *      ns per cache line.
 *  (2) cross-core hand-off: the producer (core 0) writes a buffer with cf_prestore_write - plain,
 *      +clean, +demote, or CF_SKIP (non-temporal) - and publishes it; the consumer (core 1) reads it
 *      all. Producer time, consumer read time and their sum, each vs the plain write in the same run.
 * Medians (min..max) of repeated runs. */
#include "cf_bench_util.h" /* first: it sets _GNU_SOURCE */

#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <pthread.h>

#define MAX_REPS 101

static const struct {
    const char *name;
    unsigned ops;
} variants[] = {{"plain", 0}, {"clean", CF_CLEAN}, {"demote", CF_DEMOTE}, {"skip (NT)", CF_SKIP | CF_FENCE}};
#define NVARIANTS 4

/* ---- (2) hand-off ---- */
static unsigned char *shared_buf, *source;
static size_t shared_n;
static int round_no, acked; /* producer publishes round_no; consumer answers with acked */
static double consumer_ns[MAX_REPS];
static int total_rounds;

static void *consumer(void *arg) {
    (void)arg;
    bench_pin(1);
    for (int r = 1; r <= total_rounds; r++) {
        while (__atomic_load_n(&round_no, __ATOMIC_ACQUIRE) != r) {
        }
        uint64_t t0 = bench_now_ns(), sum = 0;
        for (size_t i = 0; i < shared_n; i += 8) sum += *(const uint64_t *)(shared_buf + i);
        bench_sink += sum;
        consumer_ns[(r - 1) % MAX_REPS] = (double)(bench_now_ns() - t0);
        __atomic_store_n(&acked, r, __ATOMIC_RELEASE);
    }
    return NULL;
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "pre-store costs and cross-core hand-off",
                               "test,size_bytes,variant,median_ns,min_ns,max_ns,extra");
    char cpu[256];
    cf_cpu_describe(cpu, sizeof cpu);
    printf("cpu: %s\n\n(1) cost per cache line of a pre-store of dirty data, ns (median (min..max))\n", cpu);
    bench_pin(0);
    int reps = o.quick ? 21 : MAX_REPS;
    static const size_t line_sizes[] = {4u << 10, 64u << 10, 1u << 20};
    printf("%-8s | %-20s %-20s %-20s\n", "size", "clean", "demote", "evict");
    for (size_t s = 0; s < 3; s++) {
        size_t n = line_sizes[s], lines = n / 64;
        unsigned char *buf = aligned_alloc(4096, n);
        char name[32], cell[3][32];
        static const unsigned ops[3] = {CF_CLEAN, CF_DEMOTE, CF_EVICT};
        for (int k = 0; k < 3; k++) {
            double t[MAX_REPS];
            for (int r = 0; r < reps; r++) {
                memset(buf, r, n);
                uint64_t t0 = bench_now_ns();
                cf_prestore(buf, n, ops[k]);
                t[r] = (double)(bench_now_ns() - t0) / (double)lines;
            }
            bench_summary b = bench_summarize(t, (size_t)reps);
            snprintf(cell[k], 32, "%.2f (%.2f..%.2f)", b.median, b.min, b.max);
            bench_csv(&o, "per_line,%zu,%s,%.3f,%.3f,%.3f,", n, k == 0 ? "clean" : k == 1 ? "demote" : "evict", b.median,
                      b.min, b.max);
        }
        printf("%-8s | %-20s %-20s %-20s\n", bench_size_name(n, name, sizeof name), cell[0], cell[1], cell[2]);
        free(buf);
    }

    printf("\n(2) hand-off core 0 -> core 1, us (median (min..max)); x = plain / variant (above 1: faster)\n");
    printf("%-8s %-10s | %-22s %-22s %-8s | %6s %6s %6s\n", "size", "variant", "producer write", "consumer read",
           "sum", "x prod", "x cons", "x sum");
    static const size_t hand_sizes[] = {4u << 10, 64u << 10, 1u << 20};
    for (size_t s = 0; s < 3; s++) {
        size_t n = hand_sizes[s];
        shared_n = n;
        shared_buf = aligned_alloc(4096, n);
        source = aligned_alloc(4096, n);
        memset(source, 5, n);
        memset(shared_buf, 0, n);
        double base_prod = 0, base_cons = 0;
        for (int v = 0; v < NVARIANTS; v++) {
            double prod[MAX_REPS];
            total_rounds = reps;
            __atomic_store_n(&round_no, 0, __ATOMIC_RELAXED);
            __atomic_store_n(&acked, 0, __ATOMIC_RELAXED);
            pthread_t t;
            if (pthread_create(&t, NULL, consumer, NULL)) return 1;
            for (int r = 1; r <= reps; r++) {
                source[0] = (unsigned char)r;
                uint64_t t0 = bench_now_ns();
                cf_prestore_write(shared_buf, source, n, variants[v].ops);
                prod[r - 1] = (double)(bench_now_ns() - t0);
                __atomic_store_n(&round_no, r, __ATOMIC_RELEASE);
                while (__atomic_load_n(&acked, __ATOMIC_ACQUIRE) != r) {
                }
            }
            pthread_join(t, NULL);
            bench_summary p = bench_summarize(prod, (size_t)reps), c = bench_summarize(consumer_ns, (size_t)reps);
            if (v == 0) base_prod = p.median, base_cons = c.median;
            char name[32], pc[32], cc[32];
            snprintf(pc, 32, "%.2f (%.2f..%.2f)", p.median / 1e3, p.min / 1e3, p.max / 1e3);
            snprintf(cc, 32, "%.2f (%.2f..%.2f)", c.median / 1e3, c.min / 1e3, c.max / 1e3);
            printf("%-8s %-10s | %-22s %-22s %-8.2f | %6.2f %6.2f %6.2f\n", bench_size_name(n, name, sizeof name),
                   variants[v].name, pc, cc, (p.median + c.median) / 1e3, base_prod / p.median, base_cons / c.median,
                   (base_prod + base_cons) / (p.median + c.median));
            bench_csv(&o, "handoff_producer,%zu,%s,%.0f,%.0f,%.0f,", n, variants[v].name, p.median, p.min, p.max);
            bench_csv(&o, "handoff_consumer,%zu,%s,%.0f,%.0f,%.0f,", n, variants[v].name, c.median, c.min, c.max);
        }
        free(shared_buf);
        free(source);
    }
    if (o.csv) fclose(o.csv);
    return 0;
}
