/* The support of generated programs: see cacheflow/support.h. */
#define _GNU_SOURCE /* pthread_attr_setaffinity_np */
#include "cacheflow/support.h"

#include "arch/arch.h"
#include "stats_internal.h"
#include "support_internal.h"

#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- MD5 (RFC 1321) ---- */

static const uint32_t md5_sine[64] = {
    0xd76aa478u, 0xe8c7b756u, 0x242070dbu, 0xc1bdceeeu, 0xf57c0fafu, 0x4787c62au, 0xa8304613u, 0xfd469501u,
    0x698098d8u, 0x8b44f7afu, 0xffff5bb1u, 0x895cd7beu, 0x6b901122u, 0xfd987193u, 0xa679438eu, 0x49b40821u,
    0xf61e2562u, 0xc040b340u, 0x265e5a51u, 0xe9b6c7aau, 0xd62f105du, 0x02441453u, 0xd8a1e681u, 0xe7d3fbc8u,
    0x21e1cde6u, 0xc33707d6u, 0xf4d50d87u, 0x455a14edu, 0xa9e3e905u, 0xfcefa3f8u, 0x676f02d9u, 0x8d2a4c8au,
    0xfffa3942u, 0x8771f681u, 0x6d9d6122u, 0xfde5380cu, 0xa4beea44u, 0x4bdecfa9u, 0xf6bb4b60u, 0xbebfbc70u,
    0x289b7ec6u, 0xeaa127fau, 0xd4ef3085u, 0x04881d05u, 0xd9d4d039u, 0xe6db99e5u, 0x1fa27cf8u, 0xc4ac5665u,
    0xf4292244u, 0x432aff97u, 0xab9423a7u, 0xfc93a039u, 0x655b59c3u, 0x8f0ccc92u, 0xffeff47du, 0x85845dd1u,
    0x6fa87e4fu, 0xfe2ce6e0u, 0xa3014314u, 0x4e0811a1u, 0xf7537e82u, 0xbd3af235u, 0x2ad7d2bbu, 0xeb86d391u};
static const uint8_t md5_shift[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                      5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                                      4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                      6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};

static void md5_block(uint32_t state[4], const uint8_t block[64]) {
    uint32_t m[16];
    for (int i = 0; i < 16; i++)
        m[i] = (uint32_t)block[4 * i] | (uint32_t)block[4 * i + 1] << 8 | (uint32_t)block[4 * i + 2] << 16 |
               (uint32_t)block[4 * i + 3] << 24;
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    for (int i = 0; i < 64; i++) {
        uint32_t f;
        int g;
        if (i < 16) {
            f = (b & c) | (~b & d);
            g = i;
        } else if (i < 32) {
            f = (d & b) | (~d & c);
            g = (5 * i + 1) % 16;
        } else if (i < 48) {
            f = b ^ c ^ d;
            g = (3 * i + 5) % 16;
        } else {
            f = c ^ (b | ~d);
            g = (7 * i) % 16;
        }
        uint32_t rotated = a + f + md5_sine[i] + m[g];
        a = d;
        d = c;
        c = b;
        b = b + ((rotated << md5_shift[i]) | (rotated >> (32 - md5_shift[i])));
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
}

void cf_md5_init(cf_md5 *md5) {
    md5->state[0] = 0x67452301u;
    md5->state[1] = 0xefcdab89u;
    md5->state[2] = 0x98badcfeu;
    md5->state[3] = 0x10325476u;
    md5->bytes = 0;
}

void cf_md5_update(cf_md5 *md5, const void *data, size_t size) {
    const uint8_t *p = data;
    size_t used = (size_t)(md5->bytes % 64);
    md5->bytes += size;
    if (used) {
        size_t take = 64 - used < size ? 64 - used : size;
        memcpy(md5->block + used, p, take);
        p += take;
        size -= take;
        if (used + take < 64) return;
        md5_block(md5->state, md5->block);
    }
    for (; size >= 64; p += 64, size -= 64) md5_block(md5->state, p);
    memcpy(md5->block, p, size);
}

void cf_md5_final(cf_md5 *md5, uint8_t digest[16]) {
    uint64_t bits = md5->bytes * 8;
    static const uint8_t pad[64] = {0x80};
    size_t used = (size_t)(md5->bytes % 64);
    cf_md5_update(md5, pad, used < 56 ? 56 - used : 120 - used);
    uint8_t length[8];
    for (int i = 0; i < 8; i++) length[i] = (uint8_t)(bits >> (8 * i));
    cf_md5_update(md5, length, 8);
    for (int i = 0; i < 16; i++) digest[i] = (uint8_t)(md5->state[i / 4] >> (8 * (i % 4)));
}

/* ---- --time: core 0 stamps the start of each iteration ---- */

#define CF_TIMING_MAX (1L << 20)
static double *iteration_starts; /* NULL unless --time */
static long timing_capacity;
static int timing_validate;

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static int timing_start(long iterations) {
    long capacity = iterations < CF_TIMING_MAX ? iterations + 2 : CF_TIMING_MAX; /* pipelined loops: + skew */
    iteration_starts = calloc((size_t)capacity, sizeof *iteration_starts);
    if (!iteration_starts) return -1;
    timing_capacity = capacity;
    return 0;
}

/* Only core 0 writes, before the run's threads are joined: no synchronisation needed. Stamped once the iteration
 * is agreed to run: a refused one is no iteration. */
static inline void timing_stamp(int core, long iteration) {
    if (__builtin_expect(iteration_starts != NULL, 0) && core == 0 && iteration >= 0 && iteration < timing_capacity)
        iteration_starts[iteration] = seconds_now();
}

void cf_gen_iteration_begins(int core, long iteration) { timing_stamp(core, iteration); }

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void cf_gen_print_time(long iterations, double seconds) {
    if (!iteration_starts) return;
    if (!timing_validate) printf("time: %.6f s for %ld iterations\n", seconds, iterations);
    long stamped = 0;
    while (stamped < timing_capacity && iteration_starts[stamped] != 0) stamped++;
    if (stamped < 2) {
        printf("iterations: fewer than 2 timed, no iteration times\n");
        return;
    }
    long n = stamped - 1;
    double *times = malloc((size_t)n * sizeof *times);
    if (!times) return;
    for (long i = 0; i < n; i++) times[i] = iteration_starts[i + 1] - iteration_starts[i];
    qsort(times, (size_t)n, sizeof *times, compare_doubles);
    int ms = times[n / 2] >= 1e-3; /* else microseconds */
    double scale = ms ? 1e3 : 1e6;
    const char *unit = ms ? "ms" : "us";
    printf("iterations (core 0, start to start): median %.3f %s, quartiles %.3f-%.3f %s, min-max %.3f-%.3f %s over "
           "%ld\n",
           times[n / 2] * scale, unit, times[n / 4] * scale, times[(3 * n) / 4] * scale, unit, times[0] * scale,
           times[n - 1] * scale, unit, n);
    free(times);
}

/* ---- command line ---- */

int cf_gen_parse_arguments(int argc, char **argv, const char *program, long iterations, cf_gen_options *out) {
    out->iterations = iterations;
    out->validate = 0;
    out->time = 0;
    const char *no_pin = getenv("CACHEFLOW_NO_PIN");
    out->pin = !(no_pin && *no_pin && strcmp(no_pin, "0") != 0);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            long n = strtol(argv[++i], &end, 10);
            if (errno || *end || n < 0) {
                fprintf(stderr, "%s: --iterations needs a non-negative integer, got '%s'\n", program, argv[i]);
                return 2;
            }
            out->iterations = n;
        } else if (strcmp(argv[i], "--validate") == 0 || strcmp(argv[i], "--validate=cacheflow") == 0) {
            out->validate = CF_VALIDATE_CACHEFLOW;
        } else if (strcmp(argv[i], "--validate=preesm") == 0) {
            out->validate = CF_VALIDATE_PREESM;
        } else if (strcmp(argv[i], "--no-pin") == 0) {
            out->pin = 0;
        } else if (strcmp(argv[i], "--time") == 0) {
            out->time = 1;
        } else if (strcmp(argv[i], "--help") == 0) {
            printf("usage: %s [--iterations N] [--validate[=preesm]] [--no-pin] [--time]\n"
                   "  --iterations N  graph iterations to run at most (default %ld; fewer when an actor sets\n"
                   "                  preesmStopThreads)\n"
                   "  --validate      print the MD5 of every sink FIFO's data and the runtime statistics\n"
                   "  --validate=preesm  the MD5 of every sink buffer as PREESM's code prints them\n"
                   "                  (preesm_md5_<buffer> : <md5>, for its .validation.hash)\n"
                   "  --no-pin        do not pin core threads to CPUs (also CACHEFLOW_NO_PIN=1)\n"
                   "  --time          print the run's time and its iterations' (median, quartiles, min-max)\n",
                   program, iterations);
            return 1;
        } else {
            fprintf(stderr, "%s: unknown argument '%s' (try --help)\n", program, argv[i]);
            return 2;
        }
    }
    timing_validate = out->validate;
    if (out->time && timing_start(out->iterations) != 0) {
        fprintf(stderr, "%s: --time: no memory for %ld iteration times\n", program, out->iterations);
        return 2;
    }
    return 0;
}

/* ---- preesmStopThreads ---- */

/* Dekker-style agreement: a core publishes the iteration it begins, then looks for a stop; the core recording
 * a stop raises the request, then reads what every core has begun. Sequentially consistent atomics make at
 * least one of the two see the other, so no core runs an iteration beyond the last one agreed on. */
/* PREESM's generated main defines it for the actors (extern int preesmStopThreads;): non-zero stops the run */
int preesmStopThreads;

#define CF_STOP_PENDING LONG_MIN
/* each core's on its own cache line: every core stores its own at every iteration */
static struct {
    _Atomic long value;
} __attribute__((aligned(64))) begun_lines[CF_GEN_MAX_CORES];
#define begun(core) (begun_lines[core].value)
static atomic_int stop_requested;
static _Atomic long last_iteration = CF_STOP_PENDING;

int cf_gen_keep_running(int core, long iteration) {
    atomic_store(&begun(core), iteration);
    if (atomic_load(&stop_requested)) {
        long last;
        while ((last = atomic_load(&last_iteration)) == CF_STOP_PENDING) sched_yield();
        if (iteration > last) return 0;
    }
    timing_stamp(core, iteration);
    return 1;
}

/* preesmStopThreads is a plain int that actors write (PREESM's API), so polling it from the other cores is a race
 * by design; only the poll is left out of ThreadSanitizer's view, the stop itself is agreed on with atomics. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline, no_sanitize("thread")))
#endif
static int stop_flag_set(void) {
    return *(volatile int *)&preesmStopThreads != 0 || cf_gen_stop_requested_by_signal() != 0;
}

/* A core that sees the flag returns only once the last iteration is agreed on, also when another core records it:
 * were it to go on and publish its next iteration while the recorder reads begun[], that iteration would become
 * the last although the core began it after the stop (so a run whose reader stops after its 6th frame would read
 * a 7th now and then). So when every core's next iteration begins after the actor's write (each waited for data
 * the stopping firing produced, or is that firing's core), the run stops where a sequential program does; a core
 * that began its next iteration before the write, needing nothing from it, makes that iteration the last. */
void cf_gen_check_stop(void) {
    if (!stop_flag_set()) return;
    int expected = 0;
    if (!atomic_compare_exchange_strong(&stop_requested, &expected, 1)) {
        while (atomic_load(&last_iteration) == CF_STOP_PENDING) sched_yield();
        return;
    }
    long last = 0;
    for (int i = 0; i < CF_GEN_MAX_CORES; i++) {
        long b = atomic_load(&begun(i));
        if (b > last) last = b;
    }
    atomic_store(&last_iteration, last);
}

long cf_gen_iterations_run(long requested) {
    long last = atomic_load(&last_iteration);
    return last != CF_STOP_PENDING && last + 1 < requested ? last + 1 : requested;
}

/* A pass of a pipelined loop is agreed on as an iteration is: the passes after the last one begun only drain the
 * graph iterations already begun (the vertices with an offset), so they run up to last + skew. */
int cf_gen_keep_running_pipelined(int core, long pass, int skew) {
    atomic_store(&begun(core), pass);
    if (atomic_load(&stop_requested)) {
        long last;
        while ((last = atomic_load(&last_iteration)) == CF_STOP_PENDING) sched_yield();
        if (pass > last + skew) return 0;
    }
    timing_stamp(core, pass);
    return 1;
}

long cf_gen_iteration_end(long requested) {
    return cf_gen_iterations_run(requested);
}

/* ---- checked runtime calls ---- */

void cf_gen_check(int rc, const char *what) {
    if (rc < 0) {
        fprintf(stderr, "error: %s failed: %s\n", what, strerror(-rc));
        exit(3);
    }
}

uint8_t *cf_gen_alloc(cf_heap_local *heap, size_t bytes, const char *what) {
    void *block = NULL;
    int rc = cf_heap_alloc(heap, bytes, CF_HEAP_ZERO, &block);
    if (rc < 0) {
        fprintf(stderr, "error: allocating %s (%zu bytes) failed: %s\n", what, bytes, strerror(-rc));
        exit(3);
    }
    return block;
}

uint8_t *cf_gen_channel_region(size_t bytes, const char *what) {
    if (bytes == 0) return NULL;
    /* Fresh anonymous pages: zero (the channels' initial state) and untouched, so the receiving core's
     * cf_channel_home_here is the first to write them. */
    void *region = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) {
        fprintf(stderr, "error: allocating %s (%zu bytes) failed: %s\n", what, bytes, strerror(errno));
        exit(3);
    }
    return region;
}

void cf_gen_channel_region_free(uint8_t *region, size_t bytes) {
    if (region) munmap(region, bytes);
}

uint8_t *cf_gen_reserve(cf_channel *channel, const char *what) {
    void *slot = NULL;
    cf_gen_check(cf_channel_reserve(channel, &slot), what);
    return slot;
}

void cf_gen_commit(cf_channel *channel, size_t bytes, const char *what) {
    cf_gen_check(cf_channel_commit(channel, bytes), what);
}

uint8_t *cf_gen_acquire(cf_channel *channel, const char *what) {
    void *message = NULL;
    size_t length = 0;
    cf_gen_check(cf_channel_acquire(channel, &message, &length), what);
    return message;
}

void cf_gen_release(cf_channel *channel, const char *what) {
    cf_gen_check(cf_channel_release(channel), what);
}

void cf_gen_prime(cf_channel *channel, size_t bytes, const char *what) {
    uint8_t *slot = cf_gen_reserve(channel, what);
    memset(slot, 0, bytes);
    cf_gen_commit(channel, bytes, what);
}

/* Copy-on-write buffers synchronise one iteration at a time; a side that must wait yields the CPU. */
uint8_t *cf_gen_cow_write_begin(cf_cow_buffer *buffer, const char *what) {
    void *data = NULL;
    int rc;
    while ((rc = cf_cow_write_begin(buffer, &data)) == -EBUSY) sched_yield();
    cf_gen_check(rc, what);
    return data;
}

void cf_gen_cow_publish(cf_cow_buffer *buffer, const char *what) { cf_gen_check(cf_cow_publish(buffer), what); }

/* A part waits (-EBUSY) both for the other parts to finish the iteration and for the views to release it. */
uint8_t *cf_gen_cow_write_begin_part(cf_cow_buffer *buffer, unsigned part, const char *what) {
    void *data = NULL;
    int rc;
    while ((rc = cf_cow_write_begin_part(buffer, part, &data)) == -EBUSY) sched_yield();
    cf_gen_check(rc, what);
    return data;
}

void cf_gen_cow_publish_part(cf_cow_buffer *buffer, unsigned part, const char *what) {
    cf_gen_check(cf_cow_publish_part(buffer, part), what);
}

uint8_t *cf_gen_cow_acquire(cf_cow_view *view, const char *what) {
    void *data = NULL;
    int rc;
    while ((rc = cf_cow_acquire(view, &data)) == -EAGAIN) sched_yield();
    cf_gen_check(rc, what);
    return data;
}

void cf_gen_cow_release(cf_cow_view *view, const char *what) { cf_gen_check(cf_cow_release(view), what); }

/* CF_SEM_SPIN=<n> (a whole number): cf_gen_sem_wait tries the semaphore up to n times, with a spin-wait hint between
 * tries, before it sleeps in sem_wait. The default, 0, sleeps at once, as PREESM's generated code does; the rdy-ack
 * flags spin first (CF_FLAG_SPIN). Read at the first wait (or cf_gen_sem_spin_reload); -1: not read yet. */
static _Atomic long sem_spin = -1;

long cf_gen_sem_spin(void) {
    long limit = atomic_load_explicit(&sem_spin, memory_order_relaxed);
    if (limit < 0) {
        const char *text = getenv("CF_SEM_SPIN");
        char *end = NULL;
        errno = 0;
        unsigned long value = text && *text ? strtoul(text, &end, 10) : 0;
        limit = text && *text && *end == '\0' && errno == 0 && value <= LONG_MAX / 2 ? (long)value : 0;
        atomic_store_explicit(&sem_spin, limit, memory_order_relaxed);
    }
    return limit;
}

void cf_gen_sem_spin_reload(void) { atomic_store_explicit(&sem_spin, -1, memory_order_relaxed); }

void cf_gen_sem_wait(sem_t *semaphore) {
    for (long spin = cf_gen_sem_spin(); spin > 0; spin--) {
        if (sem_trywait(semaphore) == 0) return;
        cf_arch_cpu_relax();
    }
    while (sem_wait(semaphore) != 0) {
        if (errno != EINTR) cf_gen_check(-errno, "sem_wait");
    }
}

void cf_gen_sem_post(sem_t *semaphore) {
    if (sem_post(semaphore) != 0) cf_gen_check(-errno, "sem_post");
}

void cf_gen_barrier_wait(pthread_barrier_t *barrier) {
    int rc = pthread_barrier_wait(barrier);
    if (rc != 0 && rc != PTHREAD_BARRIER_SERIAL_THREAD) cf_gen_check(-rc, "pthread_barrier_wait");
}

/* ---- threads ---- */

/* A core thread of the last cf_gen_run_cores. The thread records its own counters when its function returns
 * (they are thread-local: cf_stats_thread), before its slot's counts are folded into the retired ones at exit;
 * pthread_join orders that record before the main thread reads it in cf_gen_print_stats. */
typedef struct core_run {
    void *(*function)(void *);
    pthread_t thread;
    cf_stats counters;
} core_run;
static core_run *core_runs; /* [core_run_count], of the last cf_gen_run_cores; NULL before the first */
static int core_run_count;

static void *run_core(void *argument) {
    core_run *run = argument;
    void *stack = cf_gen_core_thread_begin((int)(run - core_runs));
    void *result = run->function(NULL);
    cf_stats_thread(&run->counters);
    cf_gen_core_thread_end(stack);
    return result;
}

double cf_gen_run_cores(void *(*const cores[])(void *), int count, int pin) {
    core_run *runs = calloc(count > 0 ? (size_t)count : 1, sizeof *runs);
    if (!runs) cf_gen_check(-ENOMEM, "cf_gen_run_cores");
    free(core_runs);
    core_runs = runs;
    core_run_count = count > 0 ? count : 0;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    double start = seconds_now();
    for (int i = 0; i < count; i++) {
        runs[i].function = cores[i];
        pthread_attr_t attributes;
        cf_gen_check(-pthread_attr_init(&attributes), "pthread_attr_init");
        if (pin && cpus > 0) {
            cpu_set_t set;
            CPU_ZERO(&set);
            CPU_SET((int)(i % cpus), &set);
            /* pinning is a hint: where the platform refuses it (containers, emulators) threads still run */
            (void)pthread_attr_setaffinity_np(&attributes, sizeof set, &set);
        }
        int rc = pthread_create(&runs[i].thread, &attributes, run_core, &runs[i]);
        if (rc == EINVAL && pin) rc = pthread_create(&runs[i].thread, NULL, run_core, &runs[i]);
        if (rc != 0) {
            fprintf(stderr, "error: creating the thread of core %d (of %d) failed: %s\n", i, count, strerror(rc));
            exit(3);
        }
        pthread_attr_destroy(&attributes);
    }
    for (int i = 0; i < count; i++) cf_gen_check(-pthread_join(runs[i].thread, NULL), "pthread_join");
    return seconds_now() - start;
}

/* ---- validation output ---- */

void cf_gen_print_digest(const char *label, cf_md5 *parts, int count) {
    uint8_t digest[16];
    if (count == 1) {
        cf_md5_final(&parts[0], digest);
    } else {
        cf_md5 outer;
        cf_md5_init(&outer);
        for (int i = 0; i < count; i++) {
            cf_md5_final(&parts[i], digest);
            cf_md5_update(&outer, digest, sizeof digest);
        }
        cf_md5_final(&outer, digest);
    }
    printf("%s : ", label);
    for (int i = 0; i < 16; i++) printf("%02x", digest[i]);
    printf("\n");
}

void cf_gen_print_preesm_digest(const char *buffer, cf_md5 *part) {
    uint8_t digest[16];
    cf_md5_final(part, digest);
    printf("preesm_md5_%s : ", buffer);
    for (int i = 16; i > 0; i--) printf("%02x", digest[i - 1]);
    printf("\n");
}

/* One line per core thread of the last cf_gen_run_cores, numbered as its cores[] (the graph's cores in a
 * single-process program), when copy-on-write views handed out pages on some core. Nothing without core threads,
 * nor when counts made elsewhere were added (cf_stats_add: a program for several nodes, on rank 0): the lines would
 * then cover this node's cores only, numbered within the node, short of the totals line above them. */
static void print_core_cow_stats(void) {
    if (!core_runs || cf_stats_added_elsewhere()) return;
    int shared = 0;
    for (int i = 0; i < core_run_count; i++) shared |= core_runs[i].counters.cow_pages_shared != 0;
    if (!shared) return;
    for (int i = 0; i < core_run_count; i++)
        printf("stats core %d: cow pages shared %llu, faulted %llu, re-shared %llu\n", i,
               (unsigned long long)core_runs[i].counters.cow_pages_shared,
               (unsigned long long)core_runs[i].counters.cow_pages_faulted,
               (unsigned long long)core_runs[i].counters.cow_pages_reshared);
}

void cf_gen_print_stats(long iterations, double seconds) {
    cf_stats total;
    cf_stats_total(&total);
    printf("stats: bytes copied %llu, non-temporal %llu, cow pages shared %llu, faulted %llu, re-shared %llu, "
           "pre-stores %llu (%llu lines), channel waits %llu (sleeps %llu)\n",
           (unsigned long long)total.bytes_memcpy, (unsigned long long)total.bytes_ntm,
           (unsigned long long)total.cow_pages_shared, (unsigned long long)total.cow_pages_faulted,
           (unsigned long long)total.cow_pages_reshared,
           (unsigned long long)total.prestores, (unsigned long long)total.prestore_lines,
           (unsigned long long)total.channel_waits, (unsigned long long)total.channel_sleeps);
    print_core_cow_stats();
    printf("time: %.6f s for %ld iterations\n", seconds, iterations);
}

/* ---- synthetic actor bodies ---- */

static uint64_t mix64(uint64_t x) { /* splitmix64's finaliser: every input bit reaches every output bit */
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t cf_synth_seed(uint64_t actor, long iteration, long firing) {
    return mix64(mix64(mix64(actor) ^ (uint64_t)iteration) ^ (uint64_t)firing);
}

uint64_t cf_synth_mix(uint64_t seed, uint64_t value) { return mix64(seed ^ value); }

uint64_t cf_synth_absorb(uint64_t seed, const void *data, size_t size) {
    const uint8_t *p = data;
    uint64_t h = seed ^ (uint64_t)size;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, 8);
        h = (h ^ word) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < size; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return mix64(h);
}

void cf_synth_fill(void *data, size_t size, uint64_t seed, uint64_t port) {
    uint8_t *p = data;
    uint64_t state = mix64(seed ^ (port + 1) * 0x9e3779b97f4a7c15ull);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        state += 0x9e3779b97f4a7c15ull;
        uint64_t word = mix64(state);
        memcpy(p + i, &word, 8);
    }
    if (i < size) {
        uint64_t word = mix64(state + 0x9e3779b97f4a7c15ull);
        memcpy(p + i, &word, size - i);
    }
}

void cf_synth_scribble(void *data, size_t size, uint64_t seed) { cf_synth_fill(data, size, ~seed, 0x5c5c5c5cu); }
