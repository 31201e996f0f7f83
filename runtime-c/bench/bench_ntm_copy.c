/* memcpy vs cf_ntm_copy, 4 KiB .. 256 MiB, warm and cold, and the cache pollution each leaves behind.
 *
 *   warm: the same copy repeated, so source and destination are as cached as their size allows.
 *   cold: source and destination are evicted (clflushopt / dc civac) before every copy.
 *   pollution: before each cold copy an unrelated working set (WS, 1 MiB: fits this core's L2) is
 *   read twice; after the copy its re-read is timed. "untouched" spins, without touching memory, for
 *   as long as the cf_ntm_copy took, then times the re-read: on this VM elapsed time alone ages the
 *   caches (timer ticks, the host), measurably from ~2 ms on, so the baseline must be time-matched.
 *   A copy that streams past the caches should leave the re-read time near "untouched".
 *
 * Bandwidth is bytes copied per second. Each cell is the median of repeated runs with min..max. */
#include "cf_bench_util.h" /* first: it sets _GNU_SOURCE for sched_setaffinity */

#include "cacheflow/copy.h"
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <sys/mman.h>

#define WS_BYTES (1u << 20)
#define MAX_REPS 41

static unsigned char *ws;

static uint64_t read_ws(void) {
    uint64_t sum = 0;
    for (size_t i = 0; i < WS_BYTES; i += 64) sum += *(volatile uint64_t *)(ws + i);
    return sum;
}

static void evict(const void *p, size_t n) { cf_prestore(p, n, CF_EVICT | CF_FENCE); }

typedef void (*copy_fn)(void *, const void *, size_t);
static void plain_memcpy(void *d, const void *s, size_t n) { memcpy(d, s, n); }

typedef struct result {
    bench_summary warm, cold, reread;
} result;

static uint64_t spin_ns;
static void spin_instead(void *d, const void *s, size_t n) {
    (void)d, (void)s, (void)n;
    uint64_t t0 = bench_now_ns();
    while (bench_now_ns() - t0 < spin_ns) {
    }
}

static result measure(copy_fn copy, unsigned char *dst, const unsigned char *src, size_t n, int reps, int do_copy) {
    double warm[MAX_REPS], cold[MAX_REPS], reread[MAX_REPS];
    result r;
    copy(dst, src, n); /* first touch / warm up */
    for (int i = 0; i < reps; i++) {
        uint64_t t0 = bench_now_ns();
        if (do_copy) copy(dst, src, n);
        warm[i] = (double)(bench_now_ns() - t0);
    }
    for (int i = 0; i < reps; i++) {
        evict(src, n);
        evict(dst, n);
        bench_sink += read_ws();
        bench_sink += read_ws();
        uint64_t t0 = bench_now_ns();
        if (do_copy) copy(dst, src, n);
        uint64_t t1 = bench_now_ns();
        bench_sink += read_ws();
        uint64_t t2 = bench_now_ns();
        cold[i] = (double)(t1 - t0);
        reread[i] = (double)(t2 - t1);
    }
    r.warm = bench_summarize(warm, (size_t)reps);
    r.cold = bench_summarize(cold, (size_t)reps);
    r.reread = bench_summarize(reread, (size_t)reps);
    return r;
}

static double gbps(size_t n, double ns) { return ns > 0 ? (double)n / ns : 0; }

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "memcpy vs cf_ntm_copy bandwidth and cache pollution",
                               "size_bytes,method,phase,median_ns,min_ns,max_ns,gbps_median,ws_reread_median_ns,"
                               "ws_reread_min_ns,ws_reread_max_ns");
    static const size_t sizes[] = {4u << 10, 64u << 10, 1u << 20, 8u << 20, 64u << 20, 256u << 20};
    size_t nsizes = sizeof sizes / sizeof sizes[0];
    size_t max = o.quick ? (64u << 20) : sizes[nsizes - 1];
    bench_pin(0);
    char cpu[256];
    cf_cpu_describe(cpu, sizeof cpu);
    printf("cpu: %s\n", cpu);
    printf("working set %u KiB re-read after each cold copy; median (min..max) of runs\n\n", WS_BYTES >> 10);
    unsigned char *src = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    unsigned char *dst = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ws = aligned_alloc(4096, WS_BYTES);
    if (src == MAP_FAILED || dst == MAP_FAILED || !ws) return 1;
    memset(src, 0x3c, max);
    memset(dst, 0, max);
    memset(ws, 1, WS_BYTES);

    printf("%-8s | %-25s %-25s %5s | %-25s %-25s %5s | %-9s %-9s %-9s %6s %6s\n", "size", "memcpy warm GB/s",
           "ntm warm GB/s", "x", "memcpy cold GB/s", "ntm cold GB/s", "x", "WS none", "WS memcpy", "WS ntm",
           "memcpy", "ntm");
    printf("%-8s | %-25s %-25s %5s | %-25s %-25s %5s | %-9s %-9s %-9s %6s %6s\n", "", "", "", "", "", "", "",
           "us", "us", "us", "/none", "/none");
    for (size_t s = 0; s < nsizes && sizes[s] <= max; s++) {
        size_t n = sizes[s];
        int reps = n >= (64u << 20) ? (o.quick ? 5 : 9) : (o.quick ? 11 : MAX_REPS);
        result mc = measure(plain_memcpy, dst, src, n, reps, 1);
        result nt = measure(cf_ntm_copy, dst, src, n, reps, 1);
        spin_ns = (uint64_t)nt.cold.median;
        result none = measure(spin_instead, dst, src, n, reps, 1);
        char name[32], c[4][32];
        snprintf(c[0], 32, "%.1f (%.1f..%.1f)", gbps(n, mc.warm.median), gbps(n, mc.warm.max), gbps(n, mc.warm.min));
        snprintf(c[1], 32, "%.1f (%.1f..%.1f)", gbps(n, nt.warm.median), gbps(n, nt.warm.max), gbps(n, nt.warm.min));
        snprintf(c[2], 32, "%.1f (%.1f..%.1f)", gbps(n, mc.cold.median), gbps(n, mc.cold.max), gbps(n, mc.cold.min));
        snprintf(c[3], 32, "%.1f (%.1f..%.1f)", gbps(n, nt.cold.median), gbps(n, nt.cold.max), gbps(n, nt.cold.min));
        printf("%-8s | %-25s %-25s %5.2f | %-25s %-25s %5.2f | %-9.1f %-9.1f %-9.1f %6.2f %6.2f\n",
               bench_size_name(n, name, sizeof name), c[0], c[1], mc.warm.median / nt.warm.median, c[2], c[3],
               mc.cold.median / nt.cold.median, none.reread.median / 1e3, mc.reread.median / 1e3,
               nt.reread.median / 1e3, mc.reread.median / none.reread.median, nt.reread.median / none.reread.median);
        fflush(stdout);
        const struct {
            const char *name;
            result *r;
        } rows[] = {{"none", &none}, {"memcpy", &mc}, {"ntm", &nt}};
        for (size_t i = 0; i < 3; i++) {
            bench_csv(&o, "%zu,%s,warm,%.0f,%.0f,%.0f,%.3f,,,", n, rows[i].name, rows[i].r->warm.median,
                      rows[i].r->warm.min, rows[i].r->warm.max, gbps(n, rows[i].r->warm.median));
            bench_csv(&o, "%zu,%s,cold,%.0f,%.0f,%.0f,%.3f,%.0f,%.0f,%.0f", n, rows[i].name, rows[i].r->cold.median,
                      rows[i].r->cold.min, rows[i].r->cold.max, gbps(n, rows[i].r->cold.median),
                      rows[i].r->reread.median, rows[i].r->reread.min, rows[i].r->reread.max);
        }
    }
    printf("\nx = ntm bandwidth / memcpy bandwidth (median); /none = WS re-read time / re-read time with no copy\n");
    if (o.csv) fclose(o.csv);
    return 0;
}
