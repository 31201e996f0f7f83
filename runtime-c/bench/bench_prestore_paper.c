/* The pre-stores paper's microbenchmarks (Wu, Lepers, Zwaenepoel, "Pre-Stores", Sect. 4 and 5), on this
 * machine, each variant against the same loop without a pre-store in the same run.
 *
 *  (1) Listing 1, random element writes: the producer (core 0) copies elements of E bytes to random
 *      places of an array larger than the last-level cache, optionally pre-stores each element right
 *      after writing it, and re-reads one field of it (the paper's `total += elt[idx].field`); then a
 *      consumer on core 1 reads every element written in that round. Variants: plain, clean (the
 *      paper's), demote, skip (non-temporal stores, the paper's "skipping the cache"). The paper's gain
 *      came from persistent memory's 256-byte write unit (write amplification); ordinary DRAM has none,
 *      so here the question is only what the extra write-backs cost and what the consumer gains.
 *  (2) Listing 2, write-demote-read-fence: write one line at a random place, demote it (or not), read n
 *      words that sit in the L1, then a full fence; ns per iteration, for several n.
 *  (3) Listing 3, the pitfall: rewrite the same line over and over, cleaning (or demoting) it after
 *      every write; ns per iteration.
 *  (4) Not in the paper - the planner's question: a hand-off of B bytes (core 0 writes, pre-stores or not,
 *      then touches D bytes of other data before core 1 reads the buffer; the next round re-writes it).
 *      D is the static re-read and re-write distance the planner computes; it tells where the
 *      pre-store rule's "soon" ends on this machine.
 * Each configuration runs several times; the tables show the median (min..max) and the ratio
 * baseline / variant of the medians (above 1: the pre-store made it faster).
 *
 * Usage: bench_prestore_paper [--quick] [--csv FILE] */
#include "cf_bench_util.h" /* first: it sets _GNU_SOURCE */

#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <pthread.h>

#define LINE 64
#define MAX_RUNS 31

static inline uint64_t xorshift(uint64_t *state) {
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* Keeps the compiler from merging or dropping stores across loop iterations. */
#define MEMORY_CLOBBER() __asm__ __volatile__("" ::: "memory")

static bench_summary summarize_copy(const double *samples, int n) {
    double copy[MAX_RUNS];
    memcpy(copy, samples, (size_t)n * sizeof *copy);
    return bench_summarize(copy, (size_t)n);
}

static void print_cell(const bench_summary *s) {
    char cell[48];
    snprintf(cell, sizeof cell, "%.2f (%.2f..%.2f)", s->median, s->min, s->max);
    printf(" %-26s", cell);
}

/* ------------------------------------------------------------------------------------------------ */
/* (1) Listing 1                                                                                    */

enum { PLAIN, CLEAN, DEMOTE, SKIP, NVARIANTS };
static const char *const variant_names[NVARIANTS] = {"plain", "clean", "demote", "skip (NT)"};
static const unsigned variant_ops[NVARIANTS] = {0, CF_CLEAN, CF_DEMOTE, CF_SKIP};

static struct {
    unsigned char *array;
    size_t elements, element_size, writes; /* writes per round */
    int round, acked;                      /* producer publishes round; consumer answers with acked */
    int rounds;
    double consumer_ns[MAX_RUNS * NVARIANTS];
} l1;

static void *listing1_consumer(void *arg) {
    (void)arg;
    bench_pin(1);
    for (int r = 1; r <= l1.rounds; r++) {
        while (__atomic_load_n(&l1.round, __ATOMIC_ACQUIRE) != r) {
        }
        uint64_t t0 = bench_now_ns(), sum = 0, seed = (uint64_t)r * 0x9e3779b97f4a7c15ull | 1;
        for (size_t w = 0; w < l1.writes; w++) {
            const uint64_t *element = (const uint64_t *)(l1.array + xorshift(&seed) % l1.elements * l1.element_size);
            for (size_t i = 0; i < l1.element_size / 8; i++) sum += element[i];
        }
        bench_sink += sum;
        l1.consumer_ns[r - 1] = (double)(bench_now_ns() - t0);
        __atomic_store_n(&l1.acked, r, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* One round of the producer's loop; returns its duration in ns. Rounds alternate over the variants. */
static double listing1_round(int r, int variant, const unsigned char *source) {
    uint64_t seed = (uint64_t)r * 0x9e3779b97f4a7c15ull | 1, total = 0;
    size_t size = l1.element_size;
    uint64_t t0 = bench_now_ns();
    for (size_t w = 0; w < l1.writes; w++) {
        unsigned char *element = l1.array + xorshift(&seed) % l1.elements * size;
        if (variant == SKIP) {
            cf_prestore_write(element, source, size, CF_SKIP);
        } else {
            memcpy(element, source, size);
            if (variant != PLAIN) cf_prestore(element, size, variant_ops[variant]);
        }
        total += *(volatile uint64_t *)element; /* the paper's re-read of one field */
    }
    if (variant == SKIP) cf_prestore_fence(); /* before publishing */
    double ns = (double)(bench_now_ns() - t0);
    bench_sink += total;
    __atomic_store_n(&l1.round, r, __ATOMIC_RELEASE);
    while (__atomic_load_n(&l1.acked, __ATOMIC_ACQUIRE) != r) {
    }
    return ns;
}

static void listing1(const bench_opts *o) {
    size_t array_bytes = o->quick ? 128u << 20 : 256u << 20;
    size_t written_per_round = o->quick ? 2u << 20 : 4u << 20;
    int runs = o->quick ? 5 : 15;
    static const size_t sizes[] = {64, 256, 1024, 4096};
    printf("\n(1) Listing 1: random element writes to a %zu MiB array (%zu MiB written per round), each element\n"
           "    pre-stored right after its copy, one field re-read; consumer on core 1 reads what was written.\n"
           "    us per round, median (min..max) of %d rounds; x = plain / variant (above 1: faster)\n",
           array_bytes >> 20, written_per_round >> 20, runs);
    printf("%-6s %-10s | %-26s %-26s %-9s | %7s %7s %7s\n", "elem", "variant", "producer (write+prestore)",
           "consumer read", "sum", "x prod", "x cons", "x sum");
    l1.array = aligned_alloc(4096, array_bytes);
    unsigned char *source = aligned_alloc(4096, 4096);
    if (!l1.array || !source) {
        fprintf(stderr, "bench_prestore_paper: out of memory\n");
        exit(1);
    }
    memset(l1.array, 1, array_bytes); /* fault every page in before timing */
    memset(source, 7, 4096);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        l1.element_size = sizes[s];
        l1.elements = array_bytes / sizes[s];
        l1.writes = written_per_round / sizes[s];
        l1.rounds = runs * NVARIANTS;
        l1.round = l1.acked = 0;
        pthread_t consumer;
        if (pthread_create(&consumer, NULL, listing1_consumer, NULL) != 0) exit(1);
        double producer[NVARIANTS][MAX_RUNS], consumer_read[NVARIANTS][MAX_RUNS];
        for (int run = 0; run < runs; run++)
            for (int v = 0; v < NVARIANTS; v++) {
                int r = run * NVARIANTS + v + 1;
                producer[v][run] = listing1_round(r, v, source) / 1e3;
                consumer_read[v][run] = l1.consumer_ns[r - 1] / 1e3;
            }
        pthread_join(consumer, NULL);
        bench_summary base_p = summarize_copy(producer[PLAIN], runs), base_c = summarize_copy(consumer_read[PLAIN], runs);
        for (int v = 0; v < NVARIANTS; v++) {
            bench_summary p = summarize_copy(producer[v], runs), c = summarize_copy(consumer_read[v], runs);
            double sum = p.median + c.median, base_sum = base_p.median + base_c.median;
            printf("%-6zu %-10s |", sizes[s], variant_names[v]);
            print_cell(&p);
            print_cell(&c);
            printf(" %9.1f | %7.2f %7.2f %7.2f\n", sum, base_p.median / p.median, base_c.median / c.median,
                   base_sum / sum);
            bench_csv(o, "listing1,%zu,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f", sizes[s], variant_names[v], p.median, p.min,
                      p.max, c.median, c.min, c.max, base_sum / sum);
        }
    }
    free(l1.array);
    free(source);
}

/* ------------------------------------------------------------------------------------------------ */
/* (2) Listing 2                                                                                    */

/* ns per iteration of: write a random line, demote it or not, read `reads` L1 words, full fence. */
static double listing2_run(unsigned char *array, size_t lines, const uint64_t *l1_data, int reads, int demote,
                           size_t iterations) {
    uint64_t seed = 0x2545f4914f6cdd1dull, sum = 0;
    uint64_t t0 = bench_now_ns();
    for (size_t it = 0; it < iterations; it++) {
        unsigned char *line = array + xorshift(&seed) % lines * LINE;
        memset(line, (int)it, LINE);
        if (demote) cf_prestore(line, LINE, CF_DEMOTE);
        for (int i = 0; i < reads; i++) sum += ((const volatile uint64_t *)l1_data)[i];
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
    }
    double ns = (double)(bench_now_ns() - t0) / (double)iterations;
    bench_sink += sum;
    return ns;
}

static void listing2(const bench_opts *o) {
    size_t array_bytes = 64u << 20, lines = array_bytes / LINE;
    size_t iterations = o->quick ? 200000 : 1000000;
    int runs = o->quick ? 3 : 9;
    static const int read_counts[] = {0, 4, 16, 64, 128, 256, 512};
    printf("\n(2) Listing 2: write a random line of a %zu MiB array, demote it or not, read n L1 words, fence;\n"
           "    ns per iteration, median (min..max) of %d runs of %zu iterations; x = plain / demote\n",
           array_bytes >> 20, runs, iterations);
    printf("%-6s | %-26s %-26s | %7s\n", "reads", "plain", "demote", "x");
    unsigned char *array = aligned_alloc(4096, array_bytes);
    uint64_t *l1_data = aligned_alloc(64, 512 * sizeof(uint64_t));
    if (!array || !l1_data) exit(1);
    memset(array, 1, array_bytes);
    for (int i = 0; i < 512; i++) l1_data[i] = (uint64_t)i;
    for (size_t n = 0; n < sizeof read_counts / sizeof *read_counts; n++) {
        double samples[2][MAX_RUNS];
        for (int run = 0; run < runs; run++)
            for (int demote = 0; demote < 2; demote++)
                samples[demote][run] = listing2_run(array, lines, l1_data, read_counts[n], demote, iterations);
        bench_summary plain = summarize_copy(samples[0], runs), demoted = summarize_copy(samples[1], runs);
        printf("%-6d |", read_counts[n]);
        print_cell(&plain);
        print_cell(&demoted);
        printf(" | %7.2f\n", plain.median / demoted.median);
        bench_csv(o, "listing2,%d,plain,%.3f,%.3f,%.3f,,,,1", read_counts[n], plain.median, plain.min, plain.max);
        bench_csv(o, "listing2,%d,demote,%.3f,%.3f,%.3f,,,,%.3f", read_counts[n], demoted.median, demoted.min,
                  demoted.max, plain.median / demoted.median);
    }
    free(array);
    free(l1_data);
}

/* ------------------------------------------------------------------------------------------------ */
/* (3) Listing 3                                                                                    */

static double listing3_run(unsigned char *line, unsigned ops, size_t iterations) {
    uint64_t t0 = bench_now_ns();
    for (size_t it = 0; it < iterations; it++) {
        memset(line, (int)it, LINE);
        MEMORY_CLOBBER();
        if (ops) cf_prestore(line, LINE, ops);
    }
    return (double)(bench_now_ns() - t0) / (double)iterations;
}

static void listing3(const bench_opts *o) {
    size_t iterations = o->quick ? 200000 : 2000000;
    int runs = o->quick ? 3 : 9;
    static const struct {
        const char *name;
        unsigned ops;
    } variants[] = {{"plain", 0}, {"clean", CF_CLEAN}, {"demote", CF_DEMOTE}};
    printf("\n(3) Listing 3, the pitfall: rewrite one line, pre-store it, repeat; ns per iteration, median\n"
           "    (min..max) of %d runs of %zu iterations; slowdown = variant / plain\n", runs, iterations);
    printf("%-8s | %-26s | %9s\n", "variant", "ns per rewrite", "slowdown");
    unsigned char *line = aligned_alloc(LINE, LINE);
    if (!line) exit(1);
    double samples[3][MAX_RUNS];
    for (int run = 0; run < runs; run++)
        for (int v = 0; v < 3; v++) samples[v][run] = listing3_run(line, variants[v].ops, iterations);
    bench_summary plain = summarize_copy(samples[0], runs);
    for (int v = 0; v < 3; v++) {
        bench_summary s = summarize_copy(samples[v], runs);
        printf("%-8s |", variants[v].name);
        print_cell(&s);
        printf(" | %8.1fx\n", s.median / plain.median);
        bench_csv(o, "listing3,64,%s,%.3f,%.3f,%.3f,,,,%.3f", variants[v].name, s.median, s.min, s.max,
                  plain.median / s.median);
    }
    free(line);
}

/* ------------------------------------------------------------------------------------------------ */
/* (4) hand-off after a re-read distance                                                            */

static struct {
    unsigned char *buffer;
    size_t bytes;
    int round, acked, rounds;
    double consumer_ns[MAX_RUNS * NVARIANTS * 2];
} ho;

static void *handoff_consumer(void *arg) {
    (void)arg;
    bench_pin(1);
    for (int r = 1; r <= ho.rounds; r++) {
        while (__atomic_load_n(&ho.round, __ATOMIC_ACQUIRE) != r) {
        }
        uint64_t t0 = bench_now_ns(), sum = 0;
        for (size_t i = 0; i < ho.bytes; i += 8) sum += *(const uint64_t *)(ho.buffer + i);
        bench_sink += sum;
        ho.consumer_ns[r - 1] = (double)(bench_now_ns() - t0);
        __atomic_store_n(&ho.acked, r, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void handoff_distance(const bench_opts *o) {
    static const size_t sizes[] = {1024, 4096};
    static const size_t distances[] = {0, 16u << 10, 64u << 10, 256u << 10, 512u << 10, 1u << 20, 4u << 20};
    /* A round's re-write finds the lines where the previous round's pre-store left them, so each variant runs
     * in blocks of consecutive rounds (the first of each block not sampled), blocks interleaved. */
    int blocks = o->quick ? 3 : 7, block = 5, runs = blocks * (block - 1);
    size_t max_distance = distances[sizeof distances / sizeof *distances - 1];
    unsigned char *other = aligned_alloc(4096, max_distance), *source = aligned_alloc(4096, 4096);
    ho.buffer = aligned_alloc(4096, 4096);
    if (!other || !source || !ho.buffer) exit(1);
    memset(other, 3, max_distance);
    memset(source, 5, 4096);
    printf("\n(4) Hand-off core 0 -> core 1 after a re-read distance: core 0 writes B bytes (pre-store or not),\n"
           "    then writes D bytes of other data, then core 1 reads the B bytes; the next round re-writes them.\n"
           "    us, median of %d rounds (blocks of %d, first not sampled), producer write+pre-store and consumer\n"
           "    read; x = plain / variant of the sum\n", runs, block);
    printf("%-6s %-9s | %-15s %-15s %-15s | %7s %7s\n", "B", "D", "plain p+c", "clean p+c", "demote p+c", "x clean",
           "x demote");
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (size_t d = 0; d < sizeof distances / sizeof *distances; d++) {
            ho.bytes = sizes[s];
            ho.rounds = blocks * block * 3;
            ho.round = ho.acked = 0;
            pthread_t consumer;
            if (pthread_create(&consumer, NULL, handoff_consumer, NULL) != 0) exit(1);
            double producer[3][MAX_RUNS], consumer_read[3][MAX_RUNS];
            int r = 0;
            for (int b = 0; b < blocks; b++)
                for (int v = 0; v < 3; v++)
                    for (int i = 0; i < block; i++) {
                        r++;
                        uint64_t t0 = bench_now_ns();
                        memcpy(ho.buffer, source, ho.bytes);
                        if (v) cf_prestore(ho.buffer, ho.bytes, variant_ops[v]); /* CLEAN, DEMOTE */
                        double producer_us = (double)(bench_now_ns() - t0) / 1e3;
                        for (size_t at = 0; at < distances[d]; at += LINE) other[at] = (unsigned char)r;
                        __atomic_store_n(&ho.round, r, __ATOMIC_RELEASE);
                        while (__atomic_load_n(&ho.acked, __ATOMIC_ACQUIRE) != r) {
                        }
                        if (i == 0) continue;
                        producer[v][b * (block - 1) + i - 1] = producer_us;
                        consumer_read[v][b * (block - 1) + i - 1] = ho.consumer_ns[r - 1] / 1e3;
                    }
            pthread_join(consumer, NULL);
            double sum[3];
            for (int v = 0; v < 3; v++)
                sum[v] = summarize_copy(producer[v], runs).median + summarize_copy(consumer_read[v], runs).median;
            char distance[32];
            bench_size_name(distances[d], distance, sizeof distance);
            printf("%-6zu %-9s | %15.3f %15.3f %15.3f | %7.2f %7.2f\n", sizes[s], distances[d] ? distance : "0",
                   sum[0], sum[1], sum[2], sum[0] / sum[1], sum[0] / sum[2]);
            for (int v = 0; v < 3; v++)
                bench_csv(o, "handoff,%zu/%zu,%s,%.3f,,,%.3f,,,%.3f", sizes[s], distances[d], variant_names[v],
                          summarize_copy(producer[v], runs).median, summarize_copy(consumer_read[v], runs).median,
                          sum[0] / sum[v]);
        }
    free(other);
    free(source);
    free(ho.buffer);
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "the pre-stores paper's microbenchmarks (Listings 1-3)",
                               "test,param,variant,median,min,max,consumer_median,consumer_min,consumer_max,"
                               "speedup_vs_plain");
    char cpu[256];
    cf_cpu_describe(cpu, sizeof cpu);
    printf("cpu: %s\n", cpu);
    printf("(units: listing1 us per round, listing2/3 ns per iteration; param = element bytes / L1 reads /\n"
           " line bytes / B bytes over D bytes; speedup_vs_plain = plain / variant, of producer + consumer for\n"
           " listing1 and handoff)\n");
    bench_pin(0);
    listing1(&o);
    listing2(&o);
    listing3(&o);
    handoff_distance(&o);
    if (o.csv) fclose(o.csv);
    return 0;
}
