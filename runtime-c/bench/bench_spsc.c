/* bench_spsc: the rdy-ack channel (cacheflow/channel.h) against public single-producer single-consumer
 * queues, in one interleaved run: 8-byte messages, two threads pinned to two CPUs, every side spinning.
 *
 *   channel   cf_channel_send / cf_channel_receive, default layout (word for 8-byte messages; --layout
 *             picks another, e.g. tagged or packed, the layouts before it), a spin budget large enough
 *             that it never sleeps here
 *   zero-copy the same channel as generated code uses it: cf_channel_reserve, the 8 bytes stored into the
 *             slot handed out, cf_channel_commit; cf_channel_acquire, the 8 bytes read in place,
 *             cf_channel_release (no target: the targets' figures are the copying API's)
 *   ck_ring   Concurrency Kit's ck_ring_enqueue_spsc / ck_ring_dequeue_spsc (Debian's libck-dev; left
 *             out, with a message, when <ck_ring.h> was not found at build time); a ring of k entries
 *             holds k - 1
 *   ff        a FastForward queue (Giacomoni, Moseley, Vachharajani, PPoPP'08) written here as the
 *             reference: k 8-byte slots, 0 = empty; the producer waits for its slot to be 0 and stores,
 *             the consumer waits for non-zero, takes it and stores 0 -- no shared index at all
 *   lamport   bench/lamport_ring.h, the classic Lamport ring (length word + payload per slot)
 *
 * at k = 8 and 1024 slots:
 *   throughput  the sender sends N messages back to back, the receiver checks each and reads the counter
 *               after every 1024; the rate is the median over these windows -- the rate while both
 *               threads run: on this shared 2-vCPU machine a window in which either thread was
 *               descheduled is an outlier, and the whole-run rate (kept in the CSV as `overall`) mostly
 *               measures the scheduler;
 *   one-way     one message at a time: the sender stamps the time-stamp counter and sends the stamp, the
 *               receiver reads the counter on arrival; the receiver acknowledges on a separate line and
 *               the sender waits 1 us after that before the next message, so nothing queues and the
 *               receiver is polling when a message comes. The interquartile mean (the mean of the middle
 *               half: the counter advances in steps, 10 ns on this VM, and a median stays on that grid) of
 *               (arrival - stamp - the counter's own read cost), measured in both directions and averaged
 *               (any offset between the two CPUs' counters cancels);
 *   floor       the same one-way measure on a one-line ping-pong: the stamp written into a line, the
 *               answer into the same line (the least one message can cost).
 *
 * PLACEMENT. This VM's two vCPUs move between three host placements within seconds: "shared" (one physical
 * core's two hardware threads, ~33-36 ns one-way), "near" (two cores, 40-60 ns) and "far" (two cores, 200-250
 * ns). Every trial (one k: all queues' throughput, then all one-way measures, in an order rotated per trial) is
 * bracketed by a probe -- a running one-line ping-pong (half its median round trip: near below NEAR_LIMIT_NS)
 * and the core-sharing measure of cf_bench_sharing.h (shared at CF_SHARED_LIMIT and above) -- and counts for a
 * placement only when both probes agree; ratios are taken within a trial and summarised per placement (median
 * and min..max over trials).
 *
 * Usage: bench_spsc [--quick] [--trials N] [--layout auto|line|packed|tagged|word] [--csv FILE] [--help] */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch/arch.h"
#include "cacheflow/channel.h"
#include "cf_bench_sharing.h"
#include "cf_bench_util.h"
#include "cf_bench_ticks.h"
#include "lamport_ring.h"
#ifdef CF_HAVE_CK_RING
#include <ck_ring.h>
#endif

enum { Q_CHANNEL, Q_ZEROCOPY, Q_CK, Q_FF, Q_LAMPORT, Q_FLOOR, Q_KINDS };
static const char *const queue_names[Q_KINDS] = {"channel", "zero-copy", "ck_ring", "ff", "lamport", "floor"};
#ifdef CF_HAVE_CK_RING
static const int have_ck = 1;
#else
static const int have_ck = 0;
#endif

#define ONEWAY_GAP_NS 1000.0
#define ONEWAY_WARMUP 200
#define PROBE_ROUNDS 2000
#define NEAR_LIMIT_NS 90.0 /* probe one-way below this: "near" */
#define MAX_TRIALS 200
#define WINDOW 1024 /* messages per throughput window */

static cf_channel_layout channel_layout = CF_CHANNEL_LAYOUT_AUTO; /* --layout */
static const char *const layout_names[] = {"auto", "line", "packed", "tagged", "word"}; /* enum order */

static __attribute__((noreturn)) void die(const char *what) {
    fprintf(stderr, "bench_spsc: %s\n", what);
    exit(1);
}

/* ---- time-stamp counter ---- */

static inline uint64_t ticks(void) { return cf_bench_ticks(); }

static double ticks_per_ns = 1.0;
static double stamp_overhead_ns; /* median distance of two back-to-back counter reads, subtracted */
static double counter_step_ns;   /* the counter's resolution: the least step between distinct read distances */

static void calibrate(void) {
    uint64_t t0 = bench_now_ns(), c0 = ticks();
    while (bench_now_ns() - t0 < 50000000) {
    }
    ticks_per_ns = (double)(ticks() - c0) / (double)(bench_now_ns() - t0);
    static double gaps[10001];
    for (size_t i = 0; i < 10001; i++) {
        uint64_t a = ticks(), b = ticks();
        gaps[i] = (double)(b - a) / ticks_per_ns;
    }
    stamp_overhead_ns = bench_summarize(gaps, 10001).median; /* sorts gaps */
    /* On this VM the counter advances in steps of about 24.5 ticks (10 ns): back-to-back distances are 49, 73-74,
     * 98, ... ticks. Steps of a tick or two between distinct distances are the rounding of a fractional step. */
    counter_step_ns = 0;
    for (size_t i = 1; i < 10001; i++) {
        double step = gaps[i] - gaps[i - 1];
        if (step * ticks_per_ns > 2.5 && (counter_step_ns == 0 || step < counter_step_ns)) counter_step_ns = step;
    }
    if (counter_step_ns == 0) counter_step_ns = 1 / ticks_per_ns;
}

static void spin_ticks(uint64_t until) {
    while (ticks() < until) {
    }
}

/* ---- the FastForward reference ---- */

typedef struct ff_queue {
    alignas(128) size_t head; /* producer's own */
    alignas(128) size_t tail; /* consumer's own */
    alignas(128) uint64_t *slots;
    size_t mask;
} ff_queue;

static inline void ff_push(ff_queue *q, uint64_t value) { /* value != 0 */
    uint64_t *slot = &q->slots[q->head];
    while (__atomic_load_n(slot, __ATOMIC_ACQUIRE) != 0) cf_arch_cpu_relax();
    __atomic_store_n(slot, value, __ATOMIC_RELEASE);
    q->head = (q->head + 1) & q->mask;
}

static inline uint64_t ff_pop(ff_queue *q) {
    uint64_t *slot = &q->slots[q->tail], value;
    while ((value = __atomic_load_n(slot, __ATOMIC_ACQUIRE)) == 0) cf_arch_cpu_relax();
    __atomic_store_n(slot, 0, __ATOMIC_RELEASE);
    q->tail = (q->tail + 1) & q->mask;
    return value;
}

/* ---- one queue of any kind, created (and first touched) by the receiving thread ---- */

typedef struct queue {
    int kind;
    size_t slots;
    cf_channel *ch;
    ff_queue *ff;
    lamport_ring *lamport;
#ifdef CF_HAVE_CK_RING
    ck_ring_t *ck;
    ck_ring_buffer_t *ck_buffer;
#endif
} queue;

static void *zalloc(size_t bytes) {
    void *p = aligned_alloc(128, (bytes + 127) / 128 * 128);
    if (!p) die("out of memory");
    memset(p, 0, bytes);
    return p;
}

static void queue_create(queue *q, int kind, size_t slots) {
    memset(q, 0, sizeof *q);
    q->kind = kind;
    q->slots = slots;
    if (kind == Q_CHANNEL || kind == Q_ZEROCOPY) {
        cf_channel_options o = {.slots = slots, .max_message = 8, .spin_limit = 1u << 30, .layout = channel_layout};
        if (cf_channel_create(&q->ch, &o) || cf_channel_home_here(q->ch)) die("cf_channel_create");
    } else if (kind == Q_FF) {
        q->ff = zalloc(sizeof *q->ff);
        q->ff->slots = zalloc(slots * sizeof(uint64_t));
        q->ff->mask = slots - 1;
    } else if (kind == Q_LAMPORT) {
        q->lamport = lamport_ring_create(slots, 8);
        if (!q->lamport) die("lamport_ring_create");
#ifdef CF_HAVE_CK_RING
    } else if (kind == Q_CK) {
        q->ck = zalloc(sizeof *q->ck);
        q->ck_buffer = zalloc(slots * sizeof *q->ck_buffer);
        ck_ring_init(q->ck, (unsigned)slots);
#endif
    }
}

static void queue_destroy(queue *q) {
    cf_channel_destroy(q->ch);
    if (q->ff) free(q->ff->slots);
    free(q->ff);
    lamport_ring_destroy(q->lamport);
#ifdef CF_HAVE_CK_RING
    free(q->ck);
    free(q->ck_buffer);
#endif
}

/* `kind` is a constant at every call site below, so each loop is compiled for one queue. */
static inline __attribute__((always_inline)) void queue_push(queue *q, uint64_t value, int kind) {
    switch (kind) {
    case Q_CHANNEL:
        if (cf_channel_send(q->ch, &value, sizeof value) != 0) die("cf_channel_send");
        break;
    case Q_ZEROCOPY: {
        void *slot;
        if (cf_channel_reserve(q->ch, &slot) != 0) die("cf_channel_reserve");
        memcpy(slot, &value, sizeof value);
        if (cf_channel_commit(q->ch, sizeof value) != 0) die("cf_channel_commit");
        break;
    }
    case Q_FF: ff_push(q->ff, value); break;
    case Q_LAMPORT: lamport_ring_push(q->lamport, &value, sizeof value); break;
#ifdef CF_HAVE_CK_RING
    case Q_CK:
        while (!ck_ring_enqueue_spsc(q->ck, q->ck_buffer, (void *)(uintptr_t)value)) cf_arch_cpu_relax();
        break;
#endif
    }
}

static inline __attribute__((always_inline)) uint64_t queue_pop(queue *q, int kind) {
    uint64_t value; /* written by every case (the channel's receive, or die) */
    size_t len;
    switch (kind) {
    case Q_CHANNEL:
        if (cf_channel_receive(q->ch, &value, sizeof value, &len) != 0 || len != sizeof value) die("cf_channel_receive");
        break;
    case Q_ZEROCOPY: {
        void *message;
        if (cf_channel_acquire(q->ch, &message, &len) != 0 || len != sizeof value) die("cf_channel_acquire");
        memcpy(&value, message, sizeof value);
        if (cf_channel_release(q->ch) != 0) die("cf_channel_release");
        break;
    }
    case Q_FF: value = ff_pop(q->ff); break;
    case Q_LAMPORT: lamport_ring_pop(q->lamport, &value); break;
#ifdef CF_HAVE_CK_RING
    case Q_CK: {
        void *p;
        while (!ck_ring_dequeue_spsc(q->ck, q->ck_buffer, &p)) cf_arch_cpu_relax();
        value = (uint64_t)(uintptr_t)p;
        break;
    }
#endif
    default: die("queue_pop: a queue kind this build lacks"); /* Q_CK without Concurrency Kit */
    }
    return value;
}

/* ---- the two threads ---- */

static int cpus[2];

static void choose_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) die("sched_getaffinity");
    int found = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && found < 2; cpu++)
        if (CPU_ISSET(cpu, &set)) cpus[found++] = cpu;
    if (found < 2) {
        fprintf(stderr, "bench_spsc: needs two CPUs\n");
        exit(77);
    }
}

typedef struct run {
    int kind;
    size_t slots;
    uint64_t count;          /* messages (throughput) or samples (one-way) */
    int receiver_cpu;
    queue q;
    alignas(128) uint64_t ready;    /* receiver: queue created */
    alignas(128) uint64_t consumed; /* one-way: messages taken, written by the receiver */
    alignas(128) uint64_t line[2];  /* floor: the stamp and the answer, one line */
    alignas(128) uint64_t end;      /* receiver's counter after the last message */
    uint64_t *window_end;           /* receiver's counter after each WINDOW messages */
    uint64_t errors;
    double *deltas;
    size_t samples;
} run;

static inline __attribute__((always_inline)) void throughput_receive(run *r, int kind) {
    uint64_t errors = 0;
    for (uint64_t w = 0; w < r->count / WINDOW; w++) {
        for (uint64_t i = w * WINDOW + 1; i <= (w + 1) * WINDOW; i++) errors += queue_pop(&r->q, kind) != i;
        r->window_end[w] = ticks();
    }
    r->end = ticks();
    r->errors = errors;
}

static inline __attribute__((always_inline)) void throughput_send(run *r, int kind) {
    for (uint64_t i = 1; i <= r->count; i++) queue_push(&r->q, i, kind);
}

static inline void record(run *r, uint64_t i, uint64_t stamp, uint64_t arrival) {
    if (i >= ONEWAY_WARMUP && r->samples < r->count)
        r->deltas[r->samples++] = (double)(int64_t)(arrival - stamp) / ticks_per_ns - stamp_overhead_ns;
}

static inline __attribute__((always_inline)) void oneway_receive(run *r, int kind) {
    for (uint64_t i = 0; i < r->count + ONEWAY_WARMUP; i++) {
        uint64_t stamp = queue_pop(&r->q, kind);
        record(r, i, stamp, ticks());
        __atomic_store_n(&r->consumed, i + 1, __ATOMIC_RELEASE);
    }
}

static inline __attribute__((always_inline)) void oneway_send(run *r, int kind) {
    uint64_t gap = (uint64_t)(ONEWAY_GAP_NS * ticks_per_ns);
    for (uint64_t i = 0; i < r->count + ONEWAY_WARMUP; i++) {
        while (__atomic_load_n(&r->consumed, __ATOMIC_ACQUIRE) != i) cf_arch_cpu_relax();
        spin_ticks(ticks() + gap);
        queue_push(&r->q, ticks() | 1, kind); /* never 0: ff's empty */
    }
}

static void floor_receive(run *r) {
    uint64_t last = 0;
    for (uint64_t i = 0; i < r->count + ONEWAY_WARMUP; i++) {
        uint64_t stamp;
        while ((stamp = __atomic_load_n(&r->line[0], __ATOMIC_ACQUIRE)) == last) {
        }
        record(r, i, stamp, ticks());
        last = stamp;
        __atomic_store_n(&r->line[1], i + 1, __ATOMIC_RELEASE);
    }
}

static void floor_send(run *r) {
    uint64_t gap = (uint64_t)(ONEWAY_GAP_NS * ticks_per_ns);
    for (uint64_t i = 0; i < r->count + ONEWAY_WARMUP; i++) {
        while (__atomic_load_n(&r->line[1], __ATOMIC_ACQUIRE) != i) {
        }
        spin_ticks(ticks() + gap);
        __atomic_store_n(&r->line[0], ticks() | 1, __ATOMIC_RELEASE);
    }
}

/* The probe: a running one-line ping-pong (no gap); line[0] odd values from the sender, line[1] the echo. */
static void probe_echo(run *r) {
    for (uint64_t i = 1; i <= r->count; i++) {
        while (__atomic_load_n(&r->line[0], __ATOMIC_ACQUIRE) != i) {
        }
        __atomic_store_n(&r->line[1], i, __ATOMIC_RELEASE);
    }
}

static void probe_ask(run *r) {
    for (uint64_t i = 1; i <= r->count; i++) {
        uint64_t t0 = ticks();
        __atomic_store_n(&r->line[0], i, __ATOMIC_RELEASE);
        while (__atomic_load_n(&r->line[1], __ATOMIC_ACQUIRE) != i) {
        }
        r->deltas[r->samples++] = (double)(ticks() - t0) / ticks_per_ns / 2;
    }
}

typedef enum { MODE_THROUGHPUT, MODE_ONEWAY, MODE_PROBE } mode;
static mode current_mode;

#define DISPATCH(fn, r)                                                                                       \
    switch ((r)->kind) {                                                                                      \
    case Q_CHANNEL: fn(r, Q_CHANNEL); break;                                                                  \
    case Q_ZEROCOPY: fn(r, Q_ZEROCOPY); break;                                                                \
    case Q_CK: fn(r, Q_CK); break;                                                                            \
    case Q_FF: fn(r, Q_FF); break;                                                                            \
    case Q_LAMPORT: fn(r, Q_LAMPORT); break;                                                                  \
    }

static void *receiver_main(void *arg) {
    run *r = arg;
    bench_pin(r->receiver_cpu);
    if (r->kind != Q_FLOOR) queue_create(&r->q, r->kind, r->slots);
    __atomic_store_n(&r->ready, 1, __ATOMIC_RELEASE);
    if (current_mode == MODE_PROBE) probe_echo(r);
    else if (r->kind == Q_FLOOR) floor_receive(r);
    else if (current_mode == MODE_THROUGHPUT) DISPATCH(throughput_receive, r)
    else DISPATCH(oneway_receive, r)
    return NULL;
}

/* Runs one measurement with the sender on `sender_cpu` and the receiver on the other CPU; returns the
 * receiver's end counter (throughput) after filling r. */
static uint64_t execute(run *r, int sender_cpu, uint64_t *start) {
    r->receiver_cpu = cpus[sender_cpu == cpus[0]];
    bench_pin(sender_cpu);
    pthread_t receiver;
    if (pthread_create(&receiver, NULL, receiver_main, r) != 0) die("pthread_create");
    while (!__atomic_load_n(&r->ready, __ATOMIC_ACQUIRE)) cf_arch_cpu_relax();
    *start = ticks();
    if (current_mode == MODE_PROBE) probe_ask(r);
    else if (r->kind == Q_FLOOR) floor_send(r);
    else if (current_mode == MODE_THROUGHPUT) DISPATCH(throughput_send, r)
    else DISPATCH(oneway_send, r)
    pthread_join(receiver, NULL);
    if (r->kind != Q_FLOOR) queue_destroy(&r->q);
    return r->end;
}

static run *new_run(int kind, size_t slots, uint64_t count, double *deltas) {
    run *r = zalloc(sizeof *r);
    r->kind = kind;
    r->slots = slots;
    r->count = count;
    r->deltas = deltas;
    return r;
}

static double *sample_buffer;

/* The one-way time of a one-line ping-pong (returned) and the two CPUs' core sharing (*sharing). */
static double probe(double *sharing) {
    current_mode = MODE_PROBE;
    run *r = new_run(Q_FLOOR, 0, PROBE_ROUNDS, sample_buffer);
    uint64_t start;
    execute(r, cpus[0], &start); /* leaves this thread pinned to cpus[0] */
    double one_way = bench_summarize(r->deltas, r->samples).median;
    free(r);
    *sharing = cf_core_sharing(cpus[1]);
    if (*sharing < 0) die("cannot run the core-sharing measure on the second CPU");
    return one_way;
}

/* M messages/s: the median window (returned) and the whole run (*overall). */
static double throughput(int kind, size_t slots, uint64_t messages, int sender_cpu, double *overall) {
    current_mode = MODE_THROUGHPUT;
    run *r = new_run(kind, slots, messages, NULL);
    size_t windows = messages / WINDOW;
    r->window_end = zalloc(windows * sizeof *r->window_end);
    uint64_t start, end = execute(r, sender_cpu, &start);
    if (r->errors) die("a queue delivered a wrong message");
    *overall = (double)messages / ((double)(end - start) / ticks_per_ns) * 1e3;
    /* The first window includes the start-up (thread wake-up, cold lines): left out. */
    for (size_t w = 1; w < windows; w++)
        sample_buffer[w - 1] = WINDOW / ((double)(r->window_end[w] - r->window_end[w - 1]) / ticks_per_ns) * 1e3;
    double median = bench_summarize(sample_buffer, windows - 1).median;
    free(r->window_end);
    free(r);
    return median;
}

static double oneway_direction(int kind, size_t slots, uint64_t samples, int sender_cpu) {
    current_mode = MODE_ONEWAY;
    run *r = new_run(kind, slots, samples, sample_buffer);
    uint64_t start;
    execute(r, sender_cpu, &start);
    /* the interquartile mean, not the median: the median of samples on the counter's grid (10 ns steps here)
     * stays on that grid, so a ratio of two medians moved in steps of 1/6 at a 60 ns floor */
    double iqm = bench_summarize(r->deltas, r->samples).iqm;
    free(r);
    return iqm;
}

static double oneway(int kind, size_t slots, uint64_t samples) {
    return (oneway_direction(kind, slots, samples, cpus[0]) + oneway_direction(kind, slots, samples, cpus[1])) / 2;
}

/* ---- trials and the summary ---- */

enum { M_THROUGHPUT, M_ONEWAY, M_OVERALL, METRICS };
static const char *const metric_names[METRICS] = {"throughput_Mmsg_s", "oneway_ns", "overall_Mmsg_s"};
static const size_t slot_counts[] = {8, 1024};
#define SLOT_COUNTS (sizeof slot_counts / sizeof *slot_counts)

typedef struct trial {
    size_t slots;
    double probe_before, probe_after;
    double sharing_before, sharing_after;
    const char *placement;
    double value[METRICS][Q_KINDS]; /* 0: not measured */
} trial;

static trial trials[MAX_TRIALS * SLOT_COUNTS];
static size_t trial_count;

static const char *placement_of(const trial *t) {
    int shared_before = t->sharing_before >= CF_SHARED_LIMIT, shared_after = t->sharing_after >= CF_SHARED_LIMIT;
    if (shared_before != shared_after) return "mixed";
    if (shared_before) return "shared";
    int near_before = t->probe_before < NEAR_LIMIT_NS, near_after = t->probe_after < NEAR_LIMIT_NS;
    if (near_before != near_after) return "mixed";
    return near_before ? "near" : "far";
}

static int measured(int kind) { return kind != Q_CK || have_ck; }

static void run_trial(trial *t, size_t slots, int index, uint64_t messages, uint64_t samples) {
    t->slots = slots;
    t->probe_before = probe(&t->sharing_before);
    int sender_cpu = cpus[index % 2]; /* throughput direction alternates between trials */
    for (int j = 0; j < Q_FLOOR; j++) {
        int kind = (j + index) % Q_FLOOR;
        if (measured(kind))
            t->value[M_THROUGHPUT][kind] = throughput(kind, slots, messages, sender_cpu, &t->value[M_OVERALL][kind]);
    }
    for (int j = 0; j < Q_KINDS; j++) {
        int kind = (j + index) % Q_KINDS;
        if (measured(kind)) t->value[M_ONEWAY][kind] = oneway(kind, slots, samples);
    }
    t->probe_after = probe(&t->sharing_after);
    t->placement = placement_of(t);
}

typedef struct ratio_spec {
    int metric, kind, reference;
    const char *target;
} ratio_spec;

static const ratio_spec ratios[] = {
    {M_THROUGHPUT, Q_CHANNEL, Q_CK, ">= 1.0"},   {M_THROUGHPUT, Q_CHANNEL, Q_FF, ">= 0.8"},
    {M_THROUGHPUT, Q_CHANNEL, Q_LAMPORT, ""},    {M_ONEWAY, Q_CHANNEL, Q_FLOOR, "<= 1.3"},
    {M_ONEWAY, Q_CK, Q_FLOOR, ""},               {M_ONEWAY, Q_FF, Q_FLOOR, ""},
    {M_ONEWAY, Q_LAMPORT, Q_FLOOR, ""},          {M_THROUGHPUT, Q_ZEROCOPY, Q_FF, ""},
    {M_ONEWAY, Q_ZEROCOPY, Q_FLOOR, ""},
};

static void summarise(FILE *csv) {
    static const char *const placements[] = {"near", "far", "shared", "mixed"};
    enum { MIXED = 3 };
    double values[MAX_TRIALS];
    for (size_t p = 0; p <= MIXED; p++)
        for (size_t s = 0; s < SLOT_COUNTS; s++) {
            size_t n = 0;
            for (size_t i = 0; i < trial_count; i++)
                n += trials[i].slots == slot_counts[s] && strcmp(trials[i].placement, placements[p]) == 0;
            if (n == 0) continue;
            printf("\n%s placement, k = %zu: %zu trial(s)%s\n", placements[p], slot_counts[s], n,
                   p == MIXED ? " (probes disagree: not compared)" : "");
            if (p == MIXED) continue;
            printf("  %-10s %-30s %-30s\n", "queue", "throughput, M msg/s", "one-way, ns");
            for (int kind = 0; kind < Q_KINDS; kind++) {
                if (!measured(kind)) {
                    printf("  %-10s (not built: <ck_ring.h> missing)\n", queue_names[kind]);
                    continue;
                }
                printf("  %-10s", queue_names[kind]);
                for (int m = 0; m < M_OVERALL; m++) {
                    size_t count = 0;
                    for (size_t i = 0; i < trial_count; i++)
                        if (trials[i].slots == slot_counts[s] && strcmp(trials[i].placement, placements[p]) == 0 &&
                            trials[i].value[m][kind] > 0)
                            values[count++] = trials[i].value[m][kind];
                    if (count == 0) {
                        printf(" %-30s", "-");
                        continue;
                    }
                    bench_summary sum = bench_summarize(values, count);
                    char cell[64];
                    snprintf(cell, sizeof cell, "%.1f [%.1f-%.1f]", sum.median, sum.min, sum.max);
                    printf(" %-30s", cell);
                    if (csv)
                        fprintf(csv, "summary,,%zu,%s,,,,,%s,%s,%.3f,%.3f,%.3f,%zu\n", slot_counts[s], placements[p],
                                metric_names[m], queue_names[kind], sum.median, sum.min, sum.max, count);
                }
                printf("\n");
            }
            for (size_t q = 0; q < sizeof ratios / sizeof *ratios; q++) {
                const ratio_spec *spec = &ratios[q];
                if (!measured(spec->kind) || !measured(spec->reference)) continue;
                size_t count = 0;
                for (size_t i = 0; i < trial_count; i++)
                    if (trials[i].slots == slot_counts[s] && strcmp(trials[i].placement, placements[p]) == 0 &&
                        trials[i].value[spec->metric][spec->reference] > 0)
                        values[count++] = trials[i].value[spec->metric][spec->kind] /
                                          trials[i].value[spec->metric][spec->reference];
                if (count == 0) continue;
                bench_summary sum = bench_summarize(values, count);
                int met = !*spec->target ||
                          (spec->target[0] == '>' ? sum.median >= atof(spec->target + 3) : sum.median <= atof(spec->target + 3));
                printf("  %-8s / %-8s %-10s %.2f [%.2f-%.2f]%s%s%s\n", queue_names[spec->kind], queue_names[spec->reference],
                       spec->metric == M_THROUGHPUT ? "throughput" : "one-way", sum.median, sum.min, sum.max,
                       *spec->target ? "   target " : "", spec->target, *spec->target ? (met ? ": met" : ": NOT met") : "");
                if (csv)
                    fprintf(csv, "summary,,%zu,%s,,,,,%s,%s/%s,%.3f,%.3f,%.3f,%zu\n", slot_counts[s], placements[p],
                            metric_names[spec->metric], queue_names[spec->kind], queue_names[spec->reference],
                            sum.median, sum.min, sum.max, count);
            }
        }
}

static void usage(FILE *out, int status) {
    fprintf(out, "usage: bench_spsc [--quick] [--trials N] [--layout auto|line|packed|tagged|word] [--csv FILE] [--help]\n"
                 "Compares the cacheflow rdy-ack channel with ck_ring, a FastForward queue and a Lamport ring:\n"
                 "8-byte messages, 2 pinned spinning threads, k = 8 and 1024 slots; throughput and one-way\n"
                 "latency against a one-line ping-pong floor; trials bracketed by a ping-pong probe that\n"
                 "classifies the vCPU placement (near / far / shared), compared within one placement.\n"
                 "  --quick      4 trials per k, shorter windows (default: 12 trials)\n"
                 "  --trials N   trials per k (1-%d)\n"
                 "  --layout L   the channel's slot layout (default auto: word for 8-byte messages)\n"
                 "  --csv FILE   also write every trial and the summary as CSV\n",
            MAX_TRIALS);
    exit(status);
}

int main(int argc, char **argv) {
    int quick = 0, trials_per_k = 0;
    FILE *csv = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            quick = 1;
        } else if (strcmp(argv[i], "--trials") == 0 && i + 1 < argc) {
            trials_per_k = atoi(argv[++i]);
            if (trials_per_k < 1 || trials_per_k > MAX_TRIALS) usage(stderr, 2);
        } else if (strcmp(argv[i], "--layout") == 0 && i + 1 < argc) {
            const char *name = argv[++i];
            int found = -1;
            for (int l = 0; l < (int)(sizeof layout_names / sizeof *layout_names); l++)
                if (strcmp(name, layout_names[l]) == 0) found = l;
            if (found < 0) {
                fprintf(stderr, "bench_spsc: --layout %s: unknown (auto, line, packed, tagged or word)\n", name);
                return 2;
            }
            channel_layout = (cf_channel_layout)found;
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            csv = fopen(argv[++i], "w");
            if (!csv) {
                perror(argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            usage(stdout, 0);
        } else {
            usage(stderr, 2);
        }
    }
    if (!trials_per_k) trials_per_k = quick ? 4 : 12;
    uint64_t messages = quick ? (1u << 18) : (1u << 20), samples = quick ? 1000 : 3000;
    choose_cpus();
    bench_pin(cpus[0]);
    calibrate();
    size_t buffer = messages / WINDOW > samples ? messages / WINDOW : samples;
    sample_buffer = zalloc(sizeof(double) * (buffer > PROBE_ROUNDS ? buffer : PROBE_ROUNDS));
    bench_print_load("before");
    queue probe_queue; /* the layout the channel uses for these messages, as the library reports it */
    queue_create(&probe_queue, Q_CHANNEL, 8);
    cf_channel_layout in_use = cf_channel_layout_of(probe_queue.ch);
    queue_destroy(&probe_queue);
    printf("CPUs %d and %d; counter %.3f ticks/ns, steps of %.1f ns, read cost %.1f ns (subtracted); ck_ring %s; "
           "channel layout %s%s%s%s\n",
           cpus[0], cpus[1], ticks_per_ns, counter_step_ns, stamp_overhead_ns,
           have_ck ? "included" : "not built (<ck_ring.h> missing: Debian libck-dev)", layout_names[channel_layout],
           channel_layout == CF_CHANNEL_LAYOUT_AUTO ? " (" : "",
           channel_layout == CF_CHANNEL_LAYOUT_AUTO ? layout_names[in_use] : "",
           channel_layout == CF_CHANNEL_LAYOUT_AUTO ? " for these 8-byte messages)" : "");
    printf("%d trials per k; %llu messages per throughput run (median of %d-message windows), %llu one-way samples "
           "per direction (their interquartile mean)\n",
           trials_per_k, (unsigned long long)messages, WINDOW, (unsigned long long)samples);
    if (csv)
        fprintf(csv, "row,trial,slots,placement,probe_before_ns,probe_after_ns,sharing_before,sharing_after,metric,queue,"
                     "value,min,max,n\n");
    for (int index = 0; index < trials_per_k; index++)
        for (size_t s = 0; s < SLOT_COUNTS; s++) {
            trial *t = &trials[trial_count++];
            run_trial(t, slot_counts[s], index, messages, samples);
            printf("trial %2d k=%-4zu probe %5.1f / %5.1f ns, sharing %.2f / %.2f (%s): channel %.1f M/s %.0f ns, "
                   "floor %.0f ns\n",
                   index, t->slots, t->probe_before, t->probe_after, t->sharing_before, t->sharing_after, t->placement,
                   t->value[M_THROUGHPUT][Q_CHANNEL], t->value[M_ONEWAY][Q_CHANNEL], t->value[M_ONEWAY][Q_FLOOR]);
            fflush(stdout);
            if (csv)
                for (int m = 0; m < METRICS; m++)
                    for (int kind = 0; kind < Q_KINDS; kind++)
                        if (t->value[m][kind] > 0)
                            fprintf(csv, "trial,%d,%zu,%s,%.1f,%.1f,%.2f,%.2f,%s,%s,%.3f,,,\n", index, t->slots,
                                    t->placement, t->probe_before, t->probe_after, t->sharing_before, t->sharing_after,
                                    metric_names[m], queue_names[kind], t->value[m][kind]);
        }
    summarise(csv);
    bench_print_load("after");
    if (csv) fclose(csv);
    return 0;
}
