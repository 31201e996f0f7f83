/* What one cache line of a cross-core buffer costs the core that moves it (the planner's
 * MeasuredCosts.lineNanos, target key transfer.ns). Two threads, pinned to CPU 0 and CPU 1, hand a buffer back and
 * forth as the generated 2-core programs do: the writer fills it (taking every line back from the reader's cache),
 * raises a flag; the reader reads every word (pulling every line from the writer's cache), raises a flag back.
 * The same phases on one CPU, the buffer warm in its own cache, are the reference:
 *   pull    = (read across - read local) / lines      taken back = (write across - write local) / lines
 * Medians over many hand-offs, so that a preempted phase does not count.
 * With --slots K the two threads take turns over K buffers of the size (round r uses buffer r % K, as generated
 * code uses a merge group's k slots), so a buffer is written again K rounds after the other core read it: the
 * taken-back cost falls once the K buffers together outgrow the reader's L2 (plan: GroupSlots).
 *   line_cost [--rounds N] [--slots K] [SIZE_KIB...]     (default: 4 16 64 256 KiB, 2000 rounds, 1 slot)
 * Prints one line per size: "line-cost: <KiB> KiB[ x <K> slots], <lines> lines: pull <ns> ns/line, taken back <ns>
 * ns/line". */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { LINE = 64 };

static uint64_t *buffers; /* slots buffers of `words` words each */
static uint64_t *buffer;  /* the round's */
static size_t words;
static int rounds = 2000;
static int slots = 1;
static _Alignas(LINE) atomic_long written; /* round the writer finished */
static _Alignas(LINE) atomic_long read_done; /* round the reader finished */
static double *write_ns, *read_ns;
static volatile uint64_t sink;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) != 0) {
        fprintf(stderr, "line_cost: cannot pin a thread to CPU %d (needs 2 CPUs)\n", cpu);
        exit(1);
    }
}

static void use_slot(long round) {
    buffer = buffers + (size_t)(round % slots) * words;
}

static void fill(long round) {
    use_slot(round);
    for (size_t i = 0; i < words; i++) buffer[i] = (uint64_t)round + i;
    __asm__ __volatile__("" ::: "memory");
}

static void sum(long round) {
    use_slot(round);
    uint64_t s = 0;
    for (size_t i = 0; i < words; i++) s += buffer[i];
    sink = s;
}

static void *reader(void *unused) {
    (void)unused;
    pin(1);
    for (long r = 1; r <= rounds; r++) {
        while (atomic_load_explicit(&written, memory_order_acquire) < r) {}
        double t0 = now_ns();
        sum(r);
        read_ns[r - 1] = now_ns() - t0;
        atomic_store_explicit(&read_done, r, memory_order_release);
    }
    return NULL;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return v[n / 2];
}

static void measure(size_t bytes) {
    words = bytes / sizeof(uint64_t);
    if (posix_memalign((void **)&buffers, 4096, bytes * (size_t)slots) != 0) { perror("posix_memalign"); exit(1); }
    memset(buffers, 0, bytes * (size_t)slots);
    /* one CPU: the buffer stays in its cache */
    pin(0);
    for (long r = 1; r <= rounds; r++) {
        double t0 = now_ns();
        fill(r);
        double t1 = now_ns();
        sum(r);
        double t2 = now_ns();
        write_ns[r - 1] = t1 - t0;
        read_ns[r - 1] = t2 - t1;
    }
    double write_local = median(write_ns, rounds), read_local = median(read_ns, rounds);
    /* two CPUs: every round's lines cross twice */
    atomic_store(&written, 0);
    atomic_store(&read_done, 0);
    pthread_t thread;
    if (pthread_create(&thread, NULL, reader, NULL) != 0) { perror("pthread_create"); exit(1); }
    for (long r = 1; r <= rounds; r++) {
        while (atomic_load_explicit(&read_done, memory_order_acquire) < r - 1) {}
        double t0 = now_ns();
        fill(r);
        write_ns[r - 1] = now_ns() - t0;
        atomic_store_explicit(&written, r, memory_order_release);
    }
    pthread_join(thread, NULL);
    double write_across = median(write_ns, rounds), read_across = median(read_ns, rounds);
    double lines = (double)bytes / LINE;
    char slots_text[32];
    snprintf(slots_text, sizeof slots_text, " x %d slots", slots);
    printf("line-cost: %zu KiB%s, %.0f lines: pull %.2f ns/line, taken back %.2f ns/line "
           "(read %.0f ns across, %.0f local; write %.0f ns across, %.0f local)\n",
           bytes >> 10, slots > 1 ? slots_text : "", lines, (read_across - read_local) / lines, (write_across - write_local) / lines,
           read_across, read_local, write_across, write_local);
    fflush(stdout);
    free(buffers);
}

int main(int argc, char **argv) {
    size_t sizes[32];
    int count = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) {
            rounds = atoi(argv[++i]);
        } else if (strcmp(argv[i], "--slots") == 0 && i + 1 < argc) {
            slots = atoi(argv[++i]);
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: line_cost [--rounds N] [--slots K] [SIZE_KIB...]  (default 4 16 64 256 KiB, 2000 rounds, "
                   "1 slot)\n");
            return 0;
        } else if (count < 32 && atoi(argv[i]) > 0) {
            sizes[count++] = (size_t)atoi(argv[i]) << 10;
        } else {
            fprintf(stderr, "line_cost: bad argument '%s' (see --help)\n", argv[i]);
            return 2;
        }
    }
    if (rounds < 10) { fprintf(stderr, "line_cost: --rounds must be at least 10\n"); return 2; }
    if (slots < 1 || slots > 64) { fprintf(stderr, "line_cost: --slots must be 1 to 64\n"); return 2; }
    if (count == 0) {
        size_t defaults[] = {4u << 10, 16u << 10, 64u << 10, 256u << 10};
        for (int i = 0; i < 4; i++) sizes[count++] = defaults[i];
    }
    write_ns = malloc(sizeof(double) * (size_t)rounds);
    read_ns = malloc(sizeof(double) * (size_t)rounds);
    if (!write_ns || !read_ns) { perror("malloc"); return 1; }
    for (int i = 0; i < count; i++) measure(sizes[i]);
    return 0;
}
