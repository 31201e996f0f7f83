/* Calibration: measures the machine it runs on and prints a cacheflow target file (docs/boards.md) on stdout,
 * the measurements `plan --strategy auto` decides with, made the way the benchmarks beside it make them:
 *
 *   cache geometry   the kernel's sysfs cache description (L1D, L2, last level, line); where it is missing, a
 *                    pointer chase over growing working sets, a level ending where the latency per load jumps
 *   handoff.ns       bench_flag: the rdy-ack flag ping-pong between CPU 0 and CPU 1, twice the one-way time (a
 *                    hand-off moves the flag's line there and back), as MeasuredCosts.HANDOFF_NANOS is made
 *   transfer.ns      a 16 KiB buffer handed back and forth between the two CPUs: the time per line its reader
 *                    pulls and its writer takes back, above the same accesses on one CPU; the larger
 *   memory.gbs       cold memcpy of 64 MiB (16 MiB with --quick), bytes per ns
 *   ntm.min          bench_ntm_copy: cold copies, cf_ntm_copy against memcpy; the smallest size from which the
 *                    streaming copy keeps within 5% of memcpy's time
 *   cow.readonly.min, cow.readmostly.min
 *                    bench_cow: an iteration of a consumer through an eager copy-on-write view against a memcpy of
 *                    the buffer, reading every page, then also writing one page; the smallest size from which the
 *                    view stays cheaper
 *   prestore.max     bench_prestore: a hand-off CPU 0 -> CPU 1 written plainly or pre-stored (clean, demote), the
 *                    writer's and reader's time summed; the largest size up to which pre-storing stays faster
 *
 * A break-even that no measured size reached is written as 1G (never, in practice); an operation the processor
 * does not offer (no streaming stores, no cache maintenance) gives the value that keeps `auto` from choosing it.
 * Comment lines carry the figures behind every value, the load average and the machine. Progress goes to stderr
 * as "progress: STEP/STEPS what" lines.
 *   bench_calibrate [--quick] [--name NAME] */
#include "cf_bench_util.h" /* first: it sets _GNU_SOURCE */

#include "arch/arch.h"
#include "cf_bench_cow.h"
#include "cacheflow/copy.h"
#include "cacheflow/cpu.h"
#include "cacheflow/flag.h"
#include "cacheflow/prestore.h"
#include "cacheflow/stats.h"

#include <pthread.h>
#include <sys/utsname.h>
#include <unistd.h>

#define STEPS 7
#define MAX_REPS 15
#define NEVER ((size_t)1 << 30)

static int quick, reps;

static void progress(int step, const char *what) {
    fprintf(stderr, "progress: %d/%d %s\n", step, STEPS, what);
    fflush(stderr);
}

static void print_size(const char *key, size_t bytes, const char *why) {
    char text[32];
    if (bytes >= (1u << 30) && bytes % (1u << 30) == 0)
        snprintf(text, sizeof text, "%zuG", bytes >> 30);
    else if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        snprintf(text, sizeof text, "%zuM", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(text, sizeof text, "%zuK", bytes >> 10);
    else
        snprintf(text, sizeof text, "%zu", bytes);
    printf("%-18s = %-8s # %s\n", key, text, why);
}

/* ---- cache geometry ---------------------------------------------------------------------------- */

typedef struct geometry {
    size_t l1d, l2, llc, line;
    const char *source;
} geometry;

static size_t read_sysfs_size(int index, const char *file) {
    char path[128], text[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t value = 0;
    if (fgets(text, sizeof text, f)) {
        char *end;
        unsigned long v = strtoul(text, &end, 10);
        value = (size_t)v * (*end == 'K' ? 1024u : *end == 'M' ? 1024u * 1024u : 1u);
    }
    fclose(f);
    return value;
}

static int read_sysfs_text(int index, const char *file, char *text, size_t size) {
    char path[128];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/%s", index, file);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int ok = fgets(text, (int)size, f) != NULL;
    fclose(f);
    return ok;
}

static int sysfs_geometry(geometry *g) {
    char type[32];
    for (int i = 0; i < 8; i++) {
        size_t level = read_sysfs_size(i, "level"), size = read_sysfs_size(i, "size");
        if (!level || !size || !read_sysfs_text(i, "type", type, sizeof type)) continue;
        if (strncmp(type, "Instruction", 11) == 0) continue;
        if (level == 1) g->l1d = size, g->line = read_sysfs_size(i, "coherency_line_size");
        if (level == 2) g->l2 = size;
        if (level >= 2 && size >= g->llc) g->llc = size;
    }
    return g->l1d && g->l2 && g->llc;
}

/* ns per dependent load over a random cyclic chain through `bytes`, one pointer per 64-byte line. */
static double chase_ns(size_t bytes) {
    size_t n = bytes / 64;
    void **lines = aligned_alloc(64, n * 64);
    size_t *order = malloc(n * sizeof *order);
    if (!lines || !order) abort();
    for (size_t i = 0; i < n; i++) order[i] = i;
    uint64_t seed = 88172645463325252ull;
    for (size_t i = n - 1; i > 0; i--) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        size_t j = (size_t)(seed % (i + 1)), t = order[i];
        order[i] = order[j], order[j] = t;
    }
    for (size_t i = 0; i < n; i++) lines[order[i] * 8] = &lines[order[(i + 1) % n] * 8];
    size_t loads = quick ? 200000 : 2000000;
    void **p = &lines[order[0] * 8];
    for (size_t i = 0; i < n; i++) p = *p; /* warm */
    uint64_t t0 = bench_now_ns();
    for (size_t i = 0; i < loads; i++) p = *p;
    double ns = (double)(bench_now_ns() - t0) / (double)loads;
    bench_sink += (uintptr_t)p;
    free(lines);
    free(order);
    return ns;
}

/* Where sysfs says nothing: the level boundaries are the sizes after which the latency per load jumps by half. */
static void measured_geometry(geometry *g) {
    size_t bounds[3] = {0, 0, 0};
    int found = 0;
    double last = chase_ns(4096);
    for (size_t bytes = 8192; bytes <= ((size_t)64 << 20) && found < 3; bytes *= 2) {
        double now = chase_ns(bytes);
        if (now > 1.5 * last) bounds[found++] = bytes / 2;
        last = now;
    }
    g->l1d = bounds[0] ? bounds[0] : 32u << 10;
    g->l2 = bounds[1] ? bounds[1] : 4 * g->l1d;
    g->llc = bounds[2] ? bounds[2] : g->l2;
}

static geometry cache_geometry(void) {
    geometry g = {0, 0, 0, 0, "sysfs"};
    if (!sysfs_geometry(&g)) {
        g.source = "measured (pointer chase; no sysfs cache description)";
        measured_geometry(&g);
    }
    if (!g.line) g.line = cf_cpu_cache_line();
    return g;
}

/* ---- two CPUs: the flag hand-off and the line transfer ------------------------------------------- */

typedef struct pair {
    cf_flag rdy, ack; /* rdy homed at the echo thread, ack at the caller */
    __attribute__((aligned(128))) unsigned char lines[16384];
    long rounds;
    int transfer; /* 0: flag ping-pong; 1: buffer handed back and forth */
    double pulled[MAX_REPS];
    pthread_barrier_t ready;
} pair;

static uint64_t read_lines(const unsigned char *p, size_t n) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i += 64) sum += *(const volatile uint64_t *)(p + i);
    return sum;
}

static void write_lines(unsigned char *p, size_t n, uint64_t value) {
    for (size_t i = 0; i < n; i += 64) *(volatile uint64_t *)(p + i) = value;
}

static void *echo(void *arg) {
    pair *s = arg;
    bench_pin(1);
    cf_flag_init(&s->rdy, 0, 0);
    pthread_barrier_wait(&s->ready);
    for (long i = 1; i <= s->rounds; i++) {
        cf_flag_wait(&s->rdy, i);
        if (s->transfer) {
            uint64_t t0 = bench_now_ns();
            bench_sink += read_lines(s->lines, sizeof s->lines);
            s->pulled[(i - 1) % MAX_REPS] = (double)(bench_now_ns() - t0);
        }
        cf_flag_raise(&s->ack, i);
    }
    return NULL;
}

/* One run of `rounds`; returns the mean one-way ns (ping-pong) or fills taken[] and s->pulled[] (transfer). */
static double two_cpus(pair *s, int transfer, long rounds, double *taken) {
    memset(&s->rdy, 0, sizeof s->rdy);
    memset(&s->ack, 0, sizeof s->ack);
    s->rounds = rounds;
    s->transfer = transfer;
    pthread_barrier_init(&s->ready, NULL, 2);
    cf_flag_init(&s->ack, 0, 0);
    pthread_t thread;
    if (pthread_create(&thread, NULL, echo, s) != 0) return -1;
    pthread_barrier_wait(&s->ready);
    uint64_t start = bench_now_ns();
    for (long i = 1; i <= rounds; i++) {
        if (transfer) {
            uint64_t t0 = bench_now_ns();
            write_lines(s->lines, sizeof s->lines, (uint64_t)i);
            taken[(i - 1) % MAX_REPS] = (double)(bench_now_ns() - t0);
        }
        cf_flag_raise(&s->rdy, i);
        cf_flag_wait(&s->ack, i);
    }
    double one_way = (double)(bench_now_ns() - start) / (2.0 * (double)rounds);
    pthread_join(thread, NULL);
    pthread_barrier_destroy(&s->ready);
    return one_way;
}

static double handoff_ns(pair *s) {
    double one_way[MAX_REPS];
    int trials = quick ? 3 : 9;
    for (int t = 0; t < trials; t++) one_way[t] = two_cpus(s, 0, quick ? 2000 : 50000, NULL);
    bench_summary b = bench_summarize(one_way, (size_t)trials);
    printf("# flag ping-pong CPU 0 <-> CPU 1: one-way %.1f ns (median of %d trials, %.1f-%.1f)\n", b.median, trials,
           b.min, b.max);
    return 2 * b.median;
}

static double transfer_ns(pair *s) {
    size_t n = sizeof s->lines, lines = n / 64;
    double taken[MAX_REPS], local_write[MAX_REPS], local_read[MAX_REPS];
    two_cpus(s, 1, reps, taken);
    for (int r = 0; r < reps; r++) { /* the same accesses on one CPU, its own lines */
        write_lines(s->lines, n, (uint64_t)r);
        uint64_t t0 = bench_now_ns();
        write_lines(s->lines, n, (uint64_t)r + 1);
        uint64_t t1 = bench_now_ns();
        bench_sink += read_lines(s->lines, n);
        local_write[r] = (double)(t1 - t0);
        local_read[r] = (double)(bench_now_ns() - t1);
    }
    double pulled = (bench_summarize(s->pulled, (size_t)reps).median - bench_summarize(local_read, (size_t)reps).median) /
                    (double)lines;
    double back = (bench_summarize(taken, (size_t)reps).median - bench_summarize(local_write, (size_t)reps).median) /
                  (double)lines;
    printf("# line transfer, 16 KiB handed CPU 0 <-> CPU 1: pulled %.2f ns, taken back %.2f ns per line (above one "
           "CPU's own accesses)\n",
           pulled, back);
    double worst = pulled > back ? pulled : back;
    return worst > 0 ? worst : 0;
}

/* ---- cold copies: bandwidth and the non-temporal break-even ---------------------------------------- */

static unsigned char *thrash;
static size_t thrash_bytes;

/* Leaves `p` out of the caches: cf_prestore's evict where the processor has one, else reading a buffer twice
 * the last-level cache. */
static void make_cold(const void *p, size_t n) {
    cf_stats before, after;
    cf_stats_thread(&before);
    cf_prestore(p, n, CF_EVICT | CF_FENCE);
    cf_stats_thread(&after);
    if (after.prestore_lines == before.prestore_lines) bench_sink += read_lines(thrash, thrash_bytes);
}

typedef void (*copy_fn)(void *, const void *, size_t);
static void plain_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }

static double cold_copy_ns(copy_fn copy, unsigned char *dst, const unsigned char *src, size_t n) {
    double t[MAX_REPS];
    for (int r = 0; r < reps; r++) {
        make_cold(src, n);
        make_cold(dst, n);
        uint64_t t0 = bench_now_ns();
        copy(dst, src, n);
        t[r] = (double)(bench_now_ns() - t0);
    }
    return bench_summarize(t, (size_t)reps).median;
}

static int streams(void) {
    static unsigned char a[4096] __attribute__((aligned(64))), b[4096] __attribute__((aligned(64)));
    cf_stats before, after;
    cf_stats_thread(&before);
    cf_ntm_copy(a, b, sizeof a);
    cf_stats_thread(&after);
    return after.bytes_ntm != before.bytes_ntm;
}

static size_t ntm_min(unsigned char *dst, unsigned char *src, size_t max, double *gbs) {
    size_t big = quick ? (16u << 20) : (64u << 20);
    if (big > max) big = max;
    double mc = cold_copy_ns(plain_memcpy, dst, src, big);
    *gbs = (double)big / mc;
    printf("# cold memcpy of %zu MiB: %.2f GB/s\n", big >> 20, *gbs);
    if (!streams()) {
        printf("# no streaming-store path on this processor (cf_ntm_copy is memcpy)\n");
        return NEVER;
    }
    static const size_t sizes[] = {64u << 10, 256u << 10, 1u << 20, 4u << 20, 16u << 20};
    size_t from = NEVER;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && sizes[i] <= max; i++) {
        double m = cold_copy_ns(plain_memcpy, dst, src, sizes[i]), s = cold_copy_ns(cf_ntm_copy, dst, src, sizes[i]);
        printf("# cold copy %6zu KiB: cf_ntm_copy %.2fx memcpy's speed\n", sizes[i] >> 10, m / s);
        if (s <= 1.05 * m) {
            if (from == NEVER) from = sizes[i];
        } else {
            from = NEVER;
        }
    }
    return from;
}

/* ---- copy-on-write views against memcpy --------------------------------------------------------- */

static size_t cow_min(int write_one) {
    static const size_t sizes[] = {16u << 10, 32u << 10, 64u << 10, 128u << 10, 256u << 10, 512u << 10,
                                   1u << 20,  2u << 20,  4u << 20,  8u << 20};
    size_t from = NEVER;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        int writes = write_one ? CF_BENCH_WRITE_ONE : CF_BENCH_WRITE_NONE;
        double m = cf_bench_memcpy_iteration(sizes[i], writes, reps).median;
        double c = cf_bench_cow_iteration(sizes[i], CF_COW_EAGER, writes, reps).median;
        printf("# %s, %5zu KiB: a copy-on-write view %.2fx as cheap as memcpy\n", write_one ? "one page written" : "read-only",
               sizes[i] >> 10, m / c);
        if (c < m) {
            if (from == NEVER) from = sizes[i];
        } else {
            from = NEVER;
        }
    }
    return from;
}

/* ---- pre-stored hand-offs ----------------------------------------------------------------------- */

typedef struct handoff {
    unsigned char *buf;
    size_t n;
    int rounds, round_no, acked;
    double consumer[MAX_REPS];
} handoff;

static void *reader(void *arg) {
    handoff *h = arg;
    bench_pin(1);
    for (int r = 1; r <= h->rounds; r++) {
        while (__atomic_load_n(&h->round_no, __ATOMIC_ACQUIRE) != r) cf_arch_cpu_relax();
        uint64_t t0 = bench_now_ns();
        bench_sink += read_lines(h->buf, h->n);
        h->consumer[r - 1] = (double)(bench_now_ns() - t0);
        __atomic_store_n(&h->acked, r, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* Writer's plus reader's median time for one hand-off of n bytes written with `ops`. */
static double handoff_ns_with(unsigned char *buf, const unsigned char *src, size_t n, unsigned ops) {
    handoff h = {buf, n, reps, 0, 0, {0}};
    double producer[MAX_REPS];
    pthread_t t;
    if (pthread_create(&t, NULL, reader, &h)) abort();
    for (int r = 1; r <= reps; r++) {
        uint64_t t0 = bench_now_ns();
        cf_prestore_write(buf, src, n, ops);
        producer[r - 1] = (double)(bench_now_ns() - t0);
        __atomic_store_n(&h.round_no, r, __ATOMIC_RELEASE);
        while (__atomic_load_n(&h.acked, __ATOMIC_ACQUIRE) != r) cf_arch_cpu_relax();
    }
    pthread_join(t, NULL);
    return bench_summarize(producer, (size_t)reps).median + bench_summarize(h.consumer, (size_t)reps).median;
}

static size_t prestore_max(void) {
    static unsigned char probe[4096] __attribute__((aligned(64)));
    cf_stats before, after;
    cf_stats_thread(&before);
    cf_prestore(probe, sizeof probe, CF_CLEAN | CF_DEMOTE);
    cf_stats_thread(&after);
    if (after.prestore_lines == before.prestore_lines) {
        printf("# no cache operation behind clean or demote on this processor: nothing to pre-store\n");
        return 0;
    }
    static const size_t sizes[] = {1u << 10, 2u << 10, 4u << 10, 8u << 10, 16u << 10, 64u << 10};
    size_t best = 0;
    unsigned char *buf = aligned_alloc(4096, 64u << 10), *src = aligned_alloc(4096, 64u << 10);
    if (!buf || !src) abort();
    memset(src, 5, 64u << 10);
    memset(buf, 0, 64u << 10);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        double plain = handoff_ns_with(buf, src, sizes[i], 0), clean = handoff_ns_with(buf, src, sizes[i], CF_CLEAN),
               demote = handoff_ns_with(buf, src, sizes[i], CF_DEMOTE);
        printf("# hand-off %2zu KiB: pre-stored with clean %.2fx, demote %.2fx as fast as plain\n", sizes[i] >> 10,
               plain / clean, plain / demote);
        if (clean >= plain && demote >= plain) break;
        best = sizes[i];
    }
    free(buf);
    free(src);
    return best;
}

/* ---- the target file ---------------------------------------------------------------------------- */

static void header(const char *name, long cpus) {
    struct utsname u;
    char host[256] = "unknown", cpu[256], when[32], load[64] = "unknown";
    if (uname(&u) == 0) snprintf(host, sizeof host, "%s", u.nodename);
    cf_cpu_describe(cpu, sizeof cpu);
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fgets(load, sizeof load, f)) load[strcspn(load, "\n")] = '\0';
        fclose(f);
    }
    printf("# cacheflow target file written by bench_calibrate%s\n", quick ? " --quick" : "");
    printf("# runtime: %s; %ld CPUs online; load average at start: %s\n", cpu, cpus, load);
    printf("name               = %s\n", name ? name : host);
    printf("measured.on        = %s %s\n", host, uname(&u) == 0 ? u.machine : "");
    printf("measured.at        = %s\n", when);
}

int main(int argc, char **argv) {
    const char *name = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--name") == 0 && i + 1 < argc) {
            name = argv[++i];
        } else {
            fprintf(stderr, "usage: %s [--quick] [--name NAME]\nmeasures this machine and prints a cacheflow target "
                            "file\n", argv[0]);
            return 2;
        }
    }
    reps = quick ? 5 : MAX_REPS;
    size_t page = cf_bench_page();
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    bench_pin(0);
    header(name, cpus);

    progress(1, "cache geometry");
    geometry g = cache_geometry();
    printf("# cache geometry: %s\n", g.source);
    print_size("l1d", g.l1d, "L1 data cache per core");
    print_size("l2", g.l2, "L2 per core");
    print_size("llc", g.llc, "last-level cache");
    print_size("line", g.line, "cache line");
    print_size("page", page, "memory page");
    printf("%-18s = %-8ld # CPUs online\n", "cores", cpus > 0 ? cpus : 1);
    long pages = sysconf(_SC_PHYS_PAGES);
    unsigned long long memory = pages > 0 ? (unsigned long long)pages * page : 1ull << 30;
    char memory_text[32];
    snprintf(memory_text, sizeof memory_text, "%lluM", memory >> 20);
    printf("%-18s = %-8s # physical memory: generate refuses a program that needs more\n", "memory", memory_text);

    static pair two;
    if (cpus >= 2) {
        progress(2, "flag hand-off between two CPUs");
        printf("%-18s = %-8.0f # twice the flag's one-way time\n", "handoff.ns", handoff_ns(&two));
        progress(3, "line transfer between two CPUs");
        printf("%-18s = %-8.1f # per line, the larger of pulled and taken back\n", "transfer.ns", transfer_ns(&two));
    } else {
        printf("# one CPU: no hand-off or line transfer to measure (the base profile's figures stay)\n");
    }

    progress(4, "cold copies: bandwidth and non-temporal copies");
    size_t max = quick ? (16u << 20) : (64u << 20);
    thrash_bytes = 2 * g.llc < (8u << 20) ? (8u << 20) : 2 * g.llc > (128u << 20) ? (128u << 20) : 2 * g.llc;
    thrash = aligned_alloc(4096, thrash_bytes);
    unsigned char *src = aligned_alloc(4096, max), *dst = aligned_alloc(4096, max);
    if (!thrash || !src || !dst) {
        fprintf(stderr, "bench_calibrate: out of memory\n");
        return 1;
    }
    memset(thrash, 1, thrash_bytes);
    memset(src, 0x3c, max);
    memset(dst, 0, max);
    double gbs = 0;
    size_t ntm = ntm_min(dst, src, max, &gbs);
    printf("%-18s = %-8.2f # cold memcpy bandwidth, GB/s\n", "memory.gbs", gbs);
    print_size("ntm.min", ntm, "smallest cold copy streamed within 5% of memcpy's time");
    free(src);
    free(dst);
    free(thrash);

    progress(5, "copy-on-write views, read-only");
    print_size("cow.readonly.min", cow_min(0), "smallest buffer a read-only view stays cheaper than memcpy");
    progress(6, "copy-on-write views, one page written");
    print_size("cow.readmostly.min", cow_min(1), "the same when the consumer writes one page");
    progress(7, "pre-stored hand-offs");
    if (cpus >= 2)
        print_size("prestore.max", prestore_max(), "largest hand-off that pre-storing made faster");
    else
        print_size("prestore.max", 0, "one CPU: no hand-off to pre-store");
    return 0;
}
