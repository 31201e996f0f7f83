/* bench_channel: the rdy-ack channel against its floor and two baselines, in one run, with the two threads
 * pinned to two cores.
 *
 *   pingpong   one cache line written alternately by the two threads: the floor of any hand-off
 *   channel    cf_channel, copying API (send/receive), k = 8 and 1024, each homing option
 *   lamport    the classic head/tail ring without cached indices (lamport_ring.h)
 *   semaphore  PREESM-style signalling: sem_wait/sem_post around a shared buffer of k slots
 *
 * One-way latency (the target's measure): 8-byte messages, one at a time, stamped with the time-stamp
 * counter by the sender and timed on arrival by the receiver, in both directions (see the section below).
 * Round-trip/2: 8-byte messages bounced A -> B -> A through two transports (one per direction), halved,
 * sampled over batches of round trips; median and 10th/90th percentiles.
 * Throughput: A streams messages (8 B or 4 KiB, copied in and out) to B for a fixed time, split into
 * windows (the machine is shared: the median window and the best one are both reported).
 * Every configuration is measured once per repetition, repetitions interleaved, and the table shows the
 * median over repetitions; the target ratios at the end are computed from those medians.
 *
 * Usage: bench_channel [--quick] [--repeat N] [--csv FILE] [--only oneway|roundtrip|throughput] */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdalign.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arch/arch.h"
#include "cacheflow/channel.h"
#include "cf_bench_ticks.h"
#include "lamport_ring.h"

#define BIG_MESSAGE 4096
#define STOP UINT64_MAX /* first 8 bytes of the message that ends a run */
#define LATENCY_BATCH 32
#define MAX_SAMPLES 20000
#define MAX_REPEAT 15

/* ------------------------------------------------------------------------------------------------ */
/* Time and placement                                                                               */

static double now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return 1e9 * (double)ts.tv_sec + (double)ts.tv_nsec;
}

static int cpu_a = -1, cpu_b = -1; /* the two cores; -1: not pinned */

static void choose_cpus(void) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) return;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &set)) continue;
        if (cpu_a < 0) cpu_a = cpu;
        else if (cpu_b < 0) cpu_b = cpu;
    }
    if (cpu_b < 0) cpu_a = -1;
}

static void pin_to(int cpu) {
    if (cpu < 0) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* ------------------------------------------------------------------------------------------------ */
/* Transports: one direction each, created by the measuring thread, homed by the receiving thread.   */

typedef enum { PINGPONG, PINGPONG2, CHANNEL, LAMPORT, SEMAPHORE } transport_kind;

typedef struct sem_ring {
    sem_t empty, full;
    alignas(128) size_t head; /* receiver's */
    alignas(128) size_t tail; /* sender's */
    alignas(128) char *slots;
    size_t capacity, stride;
} sem_ring;

typedef struct direction {
    transport_kind kind;
    cf_channel *channel;
    lamport_ring *lamport;
    sem_ring *sem;
} direction;

typedef struct config {
    transport_kind kind;
    size_t slots;
    cf_channel_homing homing;
    size_t bytes;  /* message size */
    cf_channel_layout layout;
} config;

static int is_floor(transport_kind kind) { return kind == PINGPONG || kind == PINGPONG2; }

static const char *kind_name(transport_kind kind) {
    static const char *names[] = {"pingpong", "pingpong2", "channel", "lamport", "semaphore"};
    return names[kind];
}

static const char *homing_name(const config *c) {
    static const char *names[] = {"none", "ntm", "clean", "demote"};
    return c->kind == CHANNEL ? names[c->homing] : "-";
}

static const char *layout_name(const config *c) {
    return c->kind != CHANNEL ? "-" : c->layout == CF_CHANNEL_LAYOUT_PACKED ? "packed" : "line";
}

static void die(const char *what) {
    fprintf(stderr, "bench_channel: %s failed\n", what);
    exit(1);
}

static direction make_direction(const config *c, size_t max_message) {
    direction d = {.kind = c->kind};
    if (c->kind == CHANNEL) {
        cf_channel_options options = {.slots = c->slots, .max_message = max_message, .homing = c->homing,
                                      .layout = c->layout};
        if (cf_channel_create(&d.channel, &options) != 0) die("cf_channel_create");
    } else if (c->kind == LAMPORT) {
        d.lamport = lamport_ring_create(c->slots, max_message);
        if (!d.lamport) die("lamport_ring_create");
    } else if (c->kind == SEMAPHORE) {
        sem_ring *ring = aligned_alloc(128, sizeof *ring);
        if (!ring) die("malloc");
        memset(ring, 0, sizeof *ring);
        ring->capacity = c->slots;
        ring->stride = (sizeof(uint64_t) + max_message + 7) / 8 * 8;
        ring->slots = calloc(c->slots, ring->stride);
        if (!ring->slots || sem_init(&ring->empty, 0, (unsigned)c->slots) || sem_init(&ring->full, 0, 0))
            die("sem_ring");
        d.sem = ring;
    }
    return d;
}

static void home_direction(direction *d) {
    if (d->kind == CHANNEL) cf_channel_home_here(d->channel);
}

static void destroy_direction(direction *d) {
    if (d->kind == CHANNEL) cf_channel_destroy(d->channel);
    if (d->kind == LAMPORT) lamport_ring_destroy(d->lamport);
    if (d->kind == SEMAPHORE) {
        sem_destroy(&d->sem->empty);
        sem_destroy(&d->sem->full);
        free(d->sem->slots);
        free(d->sem);
    }
}

static inline void sem_ring_send(sem_ring *ring, const void *message, size_t len) {
    while (sem_wait(&ring->empty) != 0) {
    }
    char *slot = ring->slots + (ring->tail++ % ring->capacity) * ring->stride;
    uint64_t length = len;
    memcpy(slot, &length, sizeof length);
    memcpy(slot + sizeof length, message, len);
    sem_post(&ring->full);
}

static inline size_t sem_ring_receive(sem_ring *ring, void *buffer) {
    while (sem_wait(&ring->full) != 0) {
    }
    const char *slot = ring->slots + (ring->head++ % ring->capacity) * ring->stride;
    uint64_t length;
    memcpy(&length, slot, sizeof length);
    memcpy(buffer, slot + sizeof length, (size_t)length);
    sem_post(&ring->empty);
    return (size_t)length;
}

static inline void send_message(direction *d, const void *message, size_t len) {
    switch (d->kind) {
    case CHANNEL:
        if (cf_channel_send(d->channel, message, len) != 0) die("cf_channel_send");
        break;
    case LAMPORT: lamport_ring_push(d->lamport, message, len); break;
    case SEMAPHORE: sem_ring_send(d->sem, message, len); break;
    case PINGPONG:
    case PINGPONG2: break;
    }
}

static inline size_t receive_message(direction *d, void *buffer, size_t capacity) {
    size_t len = 0;
    switch (d->kind) {
    case CHANNEL:
        if (cf_channel_receive(d->channel, buffer, capacity, &len) != 0) die("cf_channel_receive");
        break;
    case LAMPORT: len = lamport_ring_pop(d->lamport, buffer); break;
    case SEMAPHORE: len = sem_ring_receive(d->sem, buffer); break;
    case PINGPONG:
    case PINGPONG2: break;
    }
    return len;
}

/* ------------------------------------------------------------------------------------------------ */
/* Latency                                                                                          */

typedef struct latency_run {
    const config *c;
    direction to_b, to_a;
    alignas(128) uint64_t line;      /* the ping-pong floor's shared line (PINGPONG2: A's flag) */
    alignas(128) uint64_t line_back; /* PINGPONG2: B's flag */
    pthread_barrier_t ready;
} latency_run;

static void *latency_echo(void *arg) {
    latency_run *run = arg;
    pin_to(cpu_b);
    if (run->c->kind == PINGPONG2) {
        pthread_barrier_wait(&run->ready);
        /* Each side writes only its own line, as two one-way channels do. */
        for (uint64_t expect = 1;; expect++) {
            uint64_t seen;
            while ((seen = __atomic_load_n(&run->line, __ATOMIC_ACQUIRE)) != expect && seen != STOP)
                cf_arch_cpu_relax();
            if (seen == STOP) break;
            __atomic_store_n(&run->line_back, expect, __ATOMIC_RELEASE);
        }
        return NULL;
    }
    if (run->c->kind == PINGPONG) {
        pthread_barrier_wait(&run->ready);
        /* A writes odd values, B answers with the next even one; A's STOP (odd) ends it. */
        for (uint64_t expect = 1;; expect += 2) {
            uint64_t seen;
            while ((seen = __atomic_load_n(&run->line, __ATOMIC_ACQUIRE)) != expect && seen != STOP)
                cf_arch_cpu_relax();
            if (seen == STOP) break;
            __atomic_store_n(&run->line, expect + 1, __ATOMIC_RELEASE);
        }
        return NULL;
    }
    home_direction(&run->to_b);
    pthread_barrier_wait(&run->ready);
    for (;;) {
        uint64_t value;
        receive_message(&run->to_b, &value, sizeof value);
        send_message(&run->to_a, &value, sizeof value);
        if (value == STOP) break;
    }
    return NULL;
}

static inline void round_trip(latency_run *run, uint64_t i) {
    if (run->c->kind == PINGPONG) {
        __atomic_store_n(&run->line, 2 * i + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&run->line, __ATOMIC_ACQUIRE) != 2 * i + 2) cf_arch_cpu_relax();
        return;
    }
    if (run->c->kind == PINGPONG2) {
        __atomic_store_n(&run->line, i + 1, __ATOMIC_RELEASE);
        while (__atomic_load_n(&run->line_back, __ATOMIC_ACQUIRE) != i + 1) cf_arch_cpu_relax();
        return;
    }
    uint64_t value = i;
    send_message(&run->to_b, &value, sizeof value);
    receive_message(&run->to_a, &value, sizeof value);
}

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *sorted, size_t n, double p) { return n ? sorted[(size_t)(p * (double)(n - 1) + 0.5)] : 0; }

typedef struct result {
    double median, low, high; /* latency: ns, median/p10/p90; throughput: M msgs/s, median/min/max */
} result;

static result measure_latency(const config *c, double budget_ns) {
    static double samples[MAX_SAMPLES];
    latency_run *run = aligned_alloc(128, sizeof *run);
    if (!run) die("malloc");
    memset(run, 0, sizeof *run);
    run->c = c;
    if (!is_floor(c->kind)) {
        run->to_b = make_direction(c, sizeof(uint64_t));
        run->to_a = make_direction(c, sizeof(uint64_t));
        home_direction(&run->to_a);
    }
    pthread_barrier_init(&run->ready, NULL, 2);
    pthread_t echo;
    if (pthread_create(&echo, NULL, latency_echo, run) != 0) die("pthread_create");
    pthread_barrier_wait(&run->ready);

    uint64_t i = 0;
    double start = now_ns();
    while (now_ns() - start < budget_ns / 10) round_trip(run, i++); /* warm-up */
    size_t n = 0;
    start = now_ns();
    while (n < MAX_SAMPLES && (now_ns() - start < budget_ns || n < 5)) {
        double t0 = now_ns();
        for (int b = 0; b < LATENCY_BATCH; b++) round_trip(run, i++);
        samples[n++] = (now_ns() - t0) / LATENCY_BATCH / 2;
    }
    if (is_floor(c->kind)) {
        __atomic_store_n(&run->line, STOP, __ATOMIC_RELEASE);
    } else {
        uint64_t stop = STOP;
        send_message(&run->to_b, &stop, sizeof stop);
        receive_message(&run->to_a, &stop, sizeof stop);
    }
    pthread_join(echo, NULL);
    if (!is_floor(c->kind)) {
        destroy_direction(&run->to_b);
        destroy_direction(&run->to_a);
    }
    pthread_barrier_destroy(&run->ready);
    free(run);
    qsort(samples, n, sizeof *samples, compare_double);
    return (result){percentile(samples, n, 0.5), percentile(samples, n, 0.1), percentile(samples, n, 0.9)};
}

/* ------------------------------------------------------------------------------------------------ */
/* One-way latency, timed by the time-stamp counter                                                  */
/*
 * The round trip / 2 above charges a channel with the return channel's line transfers and its ack, which
 * a one-line ping-pong does not pay. Here the sender reads the counter just before it sends and puts the
 * value in the message; the receiver reads the counter as soon as the message has arrived. One sample =
 * one message, paced: after each send the sender waits a fixed gap (several one-way times), so no
 * message queues behind another and the receiver is always polling when the next one comes.
 *
 * Two counters on two cores are compared, so this is only meaningful if they tick at a constant rate
 * and agree. main() reports /proc/cpuinfo's constant_tsc/nonstop_tsc, calibrates ticks per ns against
 * CLOCK_MONOTONIC and runs a bracket test: a reads t0, asks b for its counter tb, reads t1 when the answer
 * is back; then offset(b - a) lies in [tb - t1, tb - t0], and the tightest bracket over many trials is
 * printed. Its width is about one minimal round trip, too wide to prove agreement to a few ns, so every
 * transport is also measured in both directions (a -> b and b -> a): an offset adds to one and subtracts
 * from the other, the mean of the two is free of it, and half their difference estimates it. The ratios
 * for the target use the two-direction means. */

static inline uint64_t ticks(void) { return cf_bench_ticks(); }

static double ticks_per_ns = 1.0;
/* What reading the counter itself adds to a one-way time: the rest of the sender's read after its value
 * was taken plus the receiver's read up to its value, about one whole read (rdtscp takes ~50 ns in this
 * VM). Estimated as the median distance between two back-to-back reads on one core; subtracted. */
static double stamp_overhead_ns;

static void measure_stamp_overhead(void) {
    static double gaps[MAX_SAMPLES];
    for (size_t i = 0; i < MAX_SAMPLES; i++) {
        uint64_t t0 = ticks();
        uint64_t t1 = ticks();
        gaps[i] = (double)(t1 - t0) / ticks_per_ns;
    }
    qsort(gaps, MAX_SAMPLES, sizeof *gaps, compare_double);
    stamp_overhead_ns = gaps[MAX_SAMPLES / 2];
}

static void calibrate_ticks(double duration_ns) {
    double t0 = now_ns();
    uint64_t c0 = ticks();
    while (now_ns() - t0 < duration_ns) {
    }
    double t1 = now_ns();
    uint64_t c1 = ticks();
    ticks_per_ns = (double)(c1 - c0) / (t1 - t0);
}

static int cpuinfo_has_flag(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    char line[8192];
    int found = 0;
    size_t flag_len = strlen(flag);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        for (char *p = strstr(line, flag); p && !found; p = strstr(p + 1, flag))
            found = p[-1] == ' ' && (p[flag_len] == ' ' || p[flag_len] == '\n');
        break; /* the first processor's flags */
    }
    fclose(f);
    return found;
}

typedef struct clock_bracket {
    alignas(128) uint64_t request; /* trial number, written by a */
    alignas(128) uint64_t answer;  /* b's counter, written by b */
    alignas(128) uint64_t answered; /* trial number answered */
    int trials;
} clock_bracket;

static void *clock_bracket_answer(void *arg) {
    clock_bracket *b = arg;
    pin_to(cpu_b);
    for (uint64_t trial = 1; trial <= (uint64_t)b->trials; trial++) {
        while (__atomic_load_n(&b->request, __ATOMIC_ACQUIRE) != trial) cf_arch_cpu_relax();
        __atomic_store_n(&b->answer, ticks(), __ATOMIC_RELAXED);
        __atomic_store_n(&b->answered, trial, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* The tightest bounds, in ns, of (b's counter - a's counter) over `trials` request/answer exchanges. */
static void clock_offset_bracket(int trials, double *low_ns, double *high_ns) {
    clock_bracket *b = aligned_alloc(128, sizeof *b);
    if (!b) die("malloc");
    memset(b, 0, sizeof *b);
    b->trials = trials;
    pthread_t answerer;
    if (pthread_create(&answerer, NULL, clock_bracket_answer, b) != 0) die("pthread_create");
    int64_t low = INT64_MIN, high = INT64_MAX;
    for (uint64_t trial = 1; trial <= (uint64_t)trials; trial++) {
        uint64_t t0 = ticks();
        __atomic_store_n(&b->request, trial, __ATOMIC_RELEASE);
        while (__atomic_load_n(&b->answered, __ATOMIC_ACQUIRE) != trial) cf_arch_cpu_relax();
        uint64_t t1 = ticks();
        uint64_t tb = __atomic_load_n(&b->answer, __ATOMIC_RELAXED);
        if ((int64_t)(tb - t1) > low) low = (int64_t)(tb - t1);
        if ((int64_t)(tb - t0) < high) high = (int64_t)(tb - t0);
    }
    pthread_join(answerer, NULL);
    free(b);
    *low_ns = (double)low / ticks_per_ns;
    *high_ns = (double)high / ticks_per_ns;
}

#define ONEWAY_GAP_NS 1000.0 /* pause after a message was consumed: the receiver is back to polling */
#define ONEWAY_WARMUP 200    /* first messages of a run, not sampled */

typedef struct oneway_run {
    const config *c;
    direction d;
    int sender_cpu, receiver_cpu;
    alignas(128) uint64_t line;      /* PINGPONG: the one line; PINGPONG2: the sender's flag */
    alignas(128) uint64_t line_back; /* PINGPONG2: the receiver's flag; queues: messages consumed */
    alignas(128) int64_t *deltas;    /* receiver's counter - sender's stamp, in ticks */
    size_t count;
    pthread_barrier_t ready;
} oneway_run;

static inline void oneway_record(oneway_run *run, uint64_t stamp, uint64_t arrival, uint64_t *seen) {
    if (++*seen > ONEWAY_WARMUP && run->count < MAX_SAMPLES) run->deltas[run->count++] = (int64_t)(arrival - stamp);
}

static void *oneway_receiver(void *arg) {
    oneway_run *run = arg;
    pin_to(run->receiver_cpu);
    uint64_t seen = 0;
    if (run->c->kind == PINGPONG) {
        /* The sender writes (stamp << 1) | 1; the answer, on the same line, is that value + 1 (even). */
        pthread_barrier_wait(&run->ready);
        for (uint64_t last = 0;;) {
            uint64_t value;
            while (((value = __atomic_load_n(&run->line, __ATOMIC_ACQUIRE)) & 1) == 0 || value == last)
                cf_arch_cpu_relax();
            uint64_t arrival = ticks();
            if (value == STOP) break;
            oneway_record(run, value >> 1, arrival, &seen);
            __atomic_store_n(&run->line, value + 1, __ATOMIC_RELEASE);
            last = value;
        }
        return NULL;
    }
    if (run->c->kind == PINGPONG2) {
        pthread_barrier_wait(&run->ready);
        for (uint64_t last = 0;;) {
            uint64_t value;
            while ((value = __atomic_load_n(&run->line, __ATOMIC_ACQUIRE)) == last) cf_arch_cpu_relax();
            uint64_t arrival = ticks();
            if (value == STOP) break;
            oneway_record(run, value, arrival, &seen);
            __atomic_store_n(&run->line_back, value, __ATOMIC_RELEASE);
            last = value;
        }
        return NULL;
    }
    home_direction(&run->d);
    pthread_barrier_wait(&run->ready);
    for (uint64_t consumed = 1;; consumed++) {
        uint64_t stamp;
        receive_message(&run->d, &stamp, sizeof stamp);
        uint64_t arrival = ticks();
        if (stamp == STOP) break;
        oneway_record(run, stamp, arrival, &seen);
        __atomic_store_n(&run->line_back, consumed, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* Sends message number `n` (from 1) and returns once it has been consumed and a gap has passed. */
static inline void oneway_send(oneway_run *run, uint64_t n, uint64_t gap_ticks) {
    uint64_t stamp = ticks();
    if (run->c->kind == PINGPONG) {
        uint64_t value = stamp << 1 | 1;
        __atomic_store_n(&run->line, value, __ATOMIC_RELEASE);
        while (__atomic_load_n(&run->line, __ATOMIC_ACQUIRE) != value + 1) cf_arch_cpu_relax();
    } else if (run->c->kind == PINGPONG2) {
        __atomic_store_n(&run->line, stamp, __ATOMIC_RELEASE);
        while (__atomic_load_n(&run->line_back, __ATOMIC_ACQUIRE) != stamp) cf_arch_cpu_relax();
    } else {
        send_message(&run->d, &stamp, sizeof stamp);
        /* Without this, a receiver descheduled for a few ms (the machine is shared) would find up to k
         * messages queued, and with k = 1024 those would dominate the distribution. */
        while (__atomic_load_n(&run->line_back, __ATOMIC_ACQUIRE) != n) cf_arch_cpu_relax();
    }
    uint64_t answered = ticks();
    while (ticks() - answered < gap_ticks) cf_arch_cpu_relax();
}

/* One direction: the sender on `sender_cpu` (this thread, re-pinned), the receiver on `receiver_cpu`.
 * Returns the median and 10th/90th percentiles in ns. */
static result measure_oneway(const config *c, int sender_cpu, int receiver_cpu, double gap_ns, double budget_ns) {
    static int64_t deltas[MAX_SAMPLES];
    static double samples[MAX_SAMPLES];
    oneway_run *run = aligned_alloc(128, sizeof *run);
    if (!run) die("malloc");
    memset(run, 0, sizeof *run);
    run->c = c;
    run->sender_cpu = sender_cpu;
    run->receiver_cpu = receiver_cpu;
    run->deltas = deltas;
    if (!is_floor(c->kind)) run->d = make_direction(c, sizeof(uint64_t));
    pthread_barrier_init(&run->ready, NULL, 2);
    pin_to(sender_cpu);
    pthread_t receiver;
    if (pthread_create(&receiver, NULL, oneway_receiver, run) != 0) die("pthread_create");
    pthread_barrier_wait(&run->ready);
    uint64_t gap_ticks = (uint64_t)(gap_ns * ticks_per_ns);
    double start = now_ns();
    for (size_t sent = 0; sent < ONEWAY_WARMUP + MAX_SAMPLES; sent++) {
        if ((sent & 63) == 0 && sent > ONEWAY_WARMUP + 5 && now_ns() - start > budget_ns) break;
        oneway_send(run, sent + 1, gap_ticks);
    }
    if (is_floor(c->kind)) {
        __atomic_store_n(&run->line, STOP, __ATOMIC_RELEASE);
    } else {
        uint64_t stop = STOP;
        send_message(&run->d, &stop, sizeof stop);
    }
    pthread_join(receiver, NULL);
    pin_to(cpu_a);
    if (!is_floor(c->kind)) destroy_direction(&run->d);
    pthread_barrier_destroy(&run->ready);
    size_t n = run->count;
    free(run);
    for (size_t i = 0; i < n; i++) samples[i] = (double)deltas[i] / ticks_per_ns - stamp_overhead_ns;
    qsort(samples, n, sizeof *samples, compare_double);
    return (result){percentile(samples, n, 0.5), percentile(samples, n, 0.1), percentile(samples, n, 0.9)};
}

/* ------------------------------------------------------------------------------------------------ */
/* Throughput                                                                                       */

typedef struct throughput_run {
    const config *c;
    direction to_b;
    pthread_barrier_t ready;
    uint64_t received;
    double elapsed_ns;
} throughput_run;

static void *throughput_receiver(void *arg) {
    throughput_run *run = arg;
    pin_to(cpu_b);
    home_direction(&run->to_b);
    static _Thread_local unsigned char buffer[BIG_MESSAGE];
    pthread_barrier_wait(&run->ready);
    double start = now_ns();
    uint64_t count = 0;
    for (;; count++) {
        receive_message(&run->to_b, buffer, sizeof buffer);
        uint64_t first;
        memcpy(&first, buffer, sizeof first); /* use the message */
        if (first == STOP) break;
    }
    run->elapsed_ns = now_ns() - start;
    run->received = count;
    return NULL;
}

static double measure_throughput(const config *c, double budget_ns) {
    static unsigned char message[BIG_MESSAGE];
    throughput_run run = {.c = c};
    run.to_b = make_direction(c, c->bytes);
    pthread_barrier_init(&run.ready, NULL, 2);
    pthread_t receiver;
    if (pthread_create(&receiver, NULL, throughput_receiver, &run) != 0) die("pthread_create");
    pthread_barrier_wait(&run.ready);
    double start = now_ns();
    for (uint64_t seq = 0;; seq++) {
        if ((seq & 255) == 0 && now_ns() - start > budget_ns) break;
        memcpy(message, &seq, sizeof seq);
        send_message(&run.to_b, message, c->bytes);
    }
    uint64_t stop = STOP;
    memcpy(message, &stop, sizeof stop);
    send_message(&run.to_b, message, c->bytes);
    pthread_join(receiver, NULL);
    destroy_direction(&run.to_b);
    pthread_barrier_destroy(&run.ready);
    return (double)run.received / run.elapsed_ns * 1e3; /* M msgs/s */
}

/* The machine is shared: a window in which the other thread was descheduled measures the scheduler,
 * not the transport. So the budget is split into short windows (each a full run: fresh channel, both
 * threads, warm-up included) and a repetition reports the median window and the best one. */
#define THROUGHPUT_WINDOWS 7

static result measure_throughput_windows(const config *c, double budget_ns) {
    double windows[THROUGHPUT_WINDOWS];
    for (int w = 0; w < THROUGHPUT_WINDOWS; w++) windows[w] = measure_throughput(c, budget_ns / THROUGHPUT_WINDOWS);
    qsort(windows, THROUGHPUT_WINDOWS, sizeof *windows, compare_double);
    return (result){windows[THROUGHPUT_WINDOWS / 2], windows[0], windows[THROUGHPUT_WINDOWS - 1]};
}

/* ------------------------------------------------------------------------------------------------ */
/* The table                                                                                        */

typedef enum { LATENCY, THROUGHPUT, ONEWAY } metric;

typedef struct measurement {
    metric what;
    config c;
    result reps[MAX_REPEAT];    /* ONEWAY: a -> b */
    result reps_ba[MAX_REPEAT]; /* ONEWAY: b -> a */
    result summary, summary_ba;
} measurement;

static measurement table[96];
static size_t table_size;

static void add(metric what, transport_kind kind, size_t slots, cf_channel_homing homing, size_t bytes,
                cf_channel_layout layout) {
    table[table_size++] = (measurement){.what = what, .c = {kind, slots, homing, bytes, layout}};
}

/* Every channel variant: each homing option with one line per slot, and packed slots (no homing; the
 * default layout for messages up to 24 bytes). */
static void add_channel_variants(metric what, size_t slots, size_t bytes) {
    for (int h = CF_CHANNEL_HOMING_NONE; h <= CF_CHANNEL_HOMING_DEMOTE; h++)
        add(what, CHANNEL, slots, (cf_channel_homing)h, bytes, CF_CHANNEL_LAYOUT_LINE);
    if (bytes <= 24) add(what, CHANNEL, slots, CF_CHANNEL_HOMING_NONE, bytes, CF_CHANNEL_LAYOUT_PACKED);
}

static void build_table(void) {
    static const size_t slot_counts[] = {8, 1024};
    add(ONEWAY, PINGPONG, 0, 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    add(ONEWAY, PINGPONG2, 0, 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    for (size_t s = 0; s < 2; s++) {
        add_channel_variants(ONEWAY, slot_counts[s], 8);
        add(ONEWAY, LAMPORT, slot_counts[s], 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    }
    add(LATENCY, PINGPONG, 0, 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    add(LATENCY, PINGPONG2, 0, 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    for (size_t s = 0; s < 2; s++) {
        add_channel_variants(LATENCY, slot_counts[s], 8);
        add(LATENCY, LAMPORT, slot_counts[s], 0, 8, CF_CHANNEL_LAYOUT_AUTO);
        add(LATENCY, SEMAPHORE, slot_counts[s], 0, 8, CF_CHANNEL_LAYOUT_AUTO);
    }
    static const size_t sizes[] = {8, BIG_MESSAGE};
    for (size_t b = 0; b < 2; b++)
        for (size_t s = 0; s < 2; s++) {
            add_channel_variants(THROUGHPUT, slot_counts[s], sizes[b]);
            add(THROUGHPUT, LAMPORT, slot_counts[s], 0, sizes[b], CF_CHANNEL_LAYOUT_AUTO);
            add(THROUGHPUT, SEMAPHORE, slot_counts[s], 0, sizes[b], CF_CHANNEL_LAYOUT_AUTO);
        }
}

static double median_of(double *values, size_t n) {
    qsort(values, n, sizeof *values, compare_double);
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/* Median over repetitions of each repetition's median, low and high (latency: 10th/90th percentile of the
 * batch samples; throughput: worst/best window). */
static result summarise_reps(const result *reps, int repeat) {
    double medians[MAX_REPEAT], lows[MAX_REPEAT], highs[MAX_REPEAT];
    for (int r = 0; r < repeat; r++) medians[r] = reps[r].median, lows[r] = reps[r].low, highs[r] = reps[r].high;
    return (result){median_of(medians, repeat), median_of(lows, repeat), median_of(highs, repeat)};
}

static void summarise(measurement *m, int repeat) {
    m->summary = summarise_reps(m->reps, repeat);
    if (m->what == ONEWAY) m->summary_ba = summarise_reps(m->reps_ba, repeat);
}

/* One-way latency free of a counter offset between the cores: the mean of the two directions. */
static double oneway_mean(const measurement *m) { return (m->summary.median + m->summary_ba.median) / 2; }

static const measurement *find(metric what, transport_kind kind, size_t slots, cf_channel_layout layout,
                               size_t bytes) {
    for (size_t i = 0; i < table_size; i++) {
        const config *c = &table[i].c;
        if (table[i].what == what && c->kind == kind && (is_floor(kind) || c->slots == slots) &&
            c->homing == CF_CHANNEL_HOMING_NONE && c->layout == layout && c->bytes == bytes)
            return &table[i];
    }
    return NULL;
}

static void print_ratio(FILE *csv, const char *name, double value, const char *op, double target) {
    int met = op[0] == '<' ? value <= target : value >= target;
    printf("  %-58s %7.2f  (target %s %.1f: %s)\n", name, value, op, target, met ? "met" : "NOT met");
    if (csv) fprintf(csv, "ratio,\"%s\",,,,,x,%.3f,%s%.1f,%s\n", name, value, op, target, met ? "met" : "not met");
}

static void print_lscpu_summary(void) {
    FILE *p = popen("lscpu 2>/dev/null | grep -E '^(Model name|CPU\\(s\\)|Thread|L1d|L2|L3|Hypervisor)'", "r");
    if (!p) return;
    char line[256];
    while (fgets(line, sizeof line, p)) printf("# %s", line);
    pclose(p);
}

static void print_measurement(FILE *csv, const char *metric_name, const measurement *m, const result *r,
                              const char *unit) {
    char slots[16] = "-";
    if (!is_floor(m->c.kind)) snprintf(slots, sizeof slots, "%zu", m->c.slots);
    printf("%-12s %-10s %5s %-7s %-6s %6zu %-9s %10.2f %10.2f %10.2f\n", metric_name, kind_name(m->c.kind), slots,
           homing_name(&m->c), layout_name(&m->c), m->c.bytes, unit, r->median, r->low, r->high);
    if (csv)
        fprintf(csv, "%s,%s,%s,%s,%s,%zu,%s,%.3f,%.3f,%.3f\n", metric_name, kind_name(m->c.kind), slots,
                homing_name(&m->c), layout_name(&m->c), m->c.bytes, unit, r->median, r->low, r->high);
}

static void print_clock_check(FILE *csv, int quick) {
    int constant = cpuinfo_has_flag("constant_tsc"), nonstop = cpuinfo_has_flag("nonstop_tsc");
#if defined(__x86_64__)
    printf("# time-stamp counter: constant_tsc %s, nonstop_tsc %s (/proc/cpuinfo)\n", constant ? "yes" : "NO",
           nonstop ? "yes" : "NO");
#elif defined(__aarch64__)
    printf("# counter: cntvct_el0 (the architected generic timer)\n");
#else
    printf("# no cycle counter: one-way times use CLOCK_MONOTONIC\n");
#endif
    calibrate_ticks(quick ? 20e6 : 100e6);
    printf("# calibrated against CLOCK_MONOTONIC: %.4f ticks per ns\n", ticks_per_ns);
    measure_stamp_overhead();
    printf("# stamp overhead (median of back-to-back counter reads on one core): %.1f ns, subtracted\n",
           stamp_overhead_ns);
    if (csv) fprintf(csv, "clock,stamp overhead,,,,,ns,%.3f,,\n", stamp_overhead_ns);
    if (cpu_a < 0) return;
    double low, high;
    clock_offset_bracket(quick ? 2000 : 20000, &low, &high);
    int agree = low <= 0 && high >= 0;
    printf("# counter offset CPU %d - CPU %d lies in [%.1f, %.1f] ns (tightest request/answer bracket): %s\n", cpu_b,
           cpu_a, low, high, agree ? "consistent with synchronised counters" : "NOT synchronised: one-way values are skewed");
    if (csv) fprintf(csv, "clock,offset bracket,,,,,ns,,%.3f,%.3f\n", low, high);
    (void)constant, (void)nonstop;
}

int main(int argc, char **argv) {
    int quick = 0, repeat = 3;
    int run_oneway = 1, run_round_trip = 1, run_throughput = 1;
    const char *csv_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1, repeat = 1;
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv_path = argv[++i];
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            const char *what = argv[++i];
            run_oneway = !strcmp(what, "oneway");
            run_round_trip = !strcmp(what, "roundtrip");
            run_throughput = !strcmp(what, "throughput");
            if (!run_oneway && !run_round_trip && !run_throughput) {
                fprintf(stderr, "%s: --only takes oneway, roundtrip or throughput, not '%s'\n", argv[0], what);
                return 2;
            }
        } else {
            fprintf(stderr, "usage: %s [--quick] [--repeat N] [--csv FILE] [--only oneway|roundtrip|throughput]\n",
                    argv[0]);
            return 2;
        }
    }
    if (repeat < 1) repeat = 1;
    if (repeat > MAX_REPEAT) repeat = MAX_REPEAT;
    double latency_budget = quick ? 30e6 : 200e6, throughput_budget = quick ? 30e6 : 200e6;
    double oneway_budget = quick ? 15e6 : 60e6;

    FILE *csv = csv_path ? fopen(csv_path, "w") : NULL;
    if (csv_path && !csv) die("opening the CSV file");
    if (csv) fprintf(csv, "metric,transport,k,homing,slots,bytes,unit,median,low,high\n");

    choose_cpus();
    pin_to(cpu_a);
    print_lscpu_summary();
    if (cpu_a < 0) printf("# fewer than two CPUs available: threads not pinned\n");
    else printf("# threads pinned to CPUs %d and %d; %d repetition(s), medians shown\n", cpu_a, cpu_b, repeat);
    if (run_oneway) print_clock_check(csv, quick);

    build_table();
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < table_size; i++) {
            measurement *m = &table[i];
            if (m->what == ONEWAY && run_oneway) {
                m->reps[r] = measure_oneway(&m->c, cpu_a, cpu_b, ONEWAY_GAP_NS, oneway_budget);
                m->reps_ba[r] = measure_oneway(&m->c, cpu_b, cpu_a, ONEWAY_GAP_NS, oneway_budget);
            } else if (m->what == LATENCY && run_round_trip) {
                m->reps[r] = measure_latency(&m->c, latency_budget);
            } else if (m->what == THROUGHPUT && run_throughput) {
                m->reps[r] = measure_throughput_windows(&m->c, throughput_budget);
            }
        }
    for (size_t i = 0; i < table_size; i++) summarise(&table[i], repeat);

    static const size_t slot_counts[] = {8, 1024};
    static const cf_channel_layout layouts[] = {CF_CHANNEL_LAYOUT_LINE, CF_CHANNEL_LAYOUT_PACKED};
    char name[112];
    if (run_oneway) {
        printf("\nOne-way latency, 8-byte messages, timed by the counter: sender's stamp before the send ->\n"
               "receiver's counter on arrival, minus the stamp overhead (%.1f ns); one message at a time, the next\n"
               "sent %.0f ns after the receiver took the last. ns: median, 10th, 90th percentile.\n",
               stamp_overhead_ns, ONEWAY_GAP_NS);
        printf("%-12s %-10s %5s %-7s %-6s %6s %-9s %10s %10s %10s\n", "metric", "transport", "k", "homing", "slots",
               "bytes", "unit", "median", "p10", "p90");
        for (size_t i = 0; i < table_size; i++) {
            const measurement *m = &table[i];
            if (m->what != ONEWAY) continue;
            print_measurement(csv, "oneway a->b", m, &m->summary, "ns");
            print_measurement(csv, "oneway b->a", m, &m->summary_ba, "ns");
            result mean = {oneway_mean(m), (m->summary.low + m->summary_ba.low) / 2,
                           (m->summary.high + m->summary_ba.high) / 2};
            print_measurement(csv, "oneway mean", m, &mean, "ns");
        }
        const measurement *floor = find(ONEWAY, PINGPONG, 0, CF_CHANNEL_LAYOUT_AUTO, 8);
        const measurement *floor2 = find(ONEWAY, PINGPONG2, 0, CF_CHANNEL_LAYOUT_AUTO, 8);
        printf("(a = CPU %d, b = CPU %d; mean = mean of the two directions, free of a counter offset; half the\n"
               " a->b minus b->a difference of the ping-pong floor: %.1f ns, an estimate of offset + asymmetry)\n",
               cpu_a, cpu_b, (floor->summary.median - floor->summary_ba.median) / 2);
        printf("\nTarget: channel one-way latency (8 B, median) <= 1.5x the ping-pong floor (two-direction means):\n");
        for (size_t l = 0; l < 2; l++)
            for (size_t s = 0; s < 2; s++) {
                size_t k = slot_counts[s];
                const char *layout = layouts[l] == CF_CHANNEL_LAYOUT_PACKED ? "packed" : "line";
                double channel_ns = oneway_mean(find(ONEWAY, CHANNEL, k, layouts[l], 8));
                snprintf(name, sizeof name, "one-way k=%zu %s: channel / pingpong", k, layout);
                print_ratio(csv, name, channel_ns / oneway_mean(floor), "<=", 1.5);
                snprintf(name, sizeof name, "one-way k=%zu %s: channel / pingpong2", k, layout);
                print_ratio(csv, name, channel_ns / oneway_mean(floor2), "<=", 1.5);
                snprintf(name, sizeof name, "one-way k=%zu %s: lamport / channel", k, layout);
                print_ratio(csv, name, oneway_mean(find(ONEWAY, LAMPORT, k, CF_CHANNEL_LAYOUT_AUTO, 8)) / channel_ns,
                            ">=", 1.0);
            }
    }

    if (run_round_trip || run_throughput) {
        printf("\n%-12s %-10s %5s %-7s %-6s %6s %-9s %10s %10s %10s\n", "metric", "transport", "k", "homing",
               "slots", "bytes", "unit", "median", "low", "high");
        for (size_t i = 0; i < table_size; i++) {
            const measurement *m = &table[i];
            if (m->what == LATENCY && run_round_trip) print_measurement(csv, "round-trip/2", m, &m->summary, "ns");
            if (m->what == THROUGHPUT && run_throughput) print_measurement(csv, "throughput", m, &m->summary, "M msgs/s");
        }
        printf("(round-trip/2: A -> B -> A through two transports, halved; low/high = 10th/90th percentile of batch\n"
               " samples. throughput: median/worst/best of %d windows. Each column: median over repetitions)\n",
               THROUGHPUT_WINDOWS);
    }
    if (run_round_trip) {
        printf("\nRound-trip/2 ratios (pingpong = one line carrying both directions, pingpong2 = one flag line per\n"
               "direction; a round trip through two channels also pays the return channel's and the acks' lines):\n");
        double floor_ns = find(LATENCY, PINGPONG, 0, CF_CHANNEL_LAYOUT_AUTO, 8)->summary.median;
        double floor2_ns = find(LATENCY, PINGPONG2, 0, CF_CHANNEL_LAYOUT_AUTO, 8)->summary.median;
        for (size_t l = 0; l < 2; l++)
            for (size_t s = 0; s < 2; s++) {
                size_t k = slot_counts[s];
                const char *layout = layouts[l] == CF_CHANNEL_LAYOUT_PACKED ? "packed" : "line";
                double channel_ns = find(LATENCY, CHANNEL, k, layouts[l], 8)->summary.median;
                snprintf(name, sizeof name, "round-trip/2 k=%zu %s: channel / pingpong", k, layout);
                print_ratio(csv, name, channel_ns / floor_ns, "<=", 1.5);
                snprintf(name, sizeof name, "round-trip/2 k=%zu %s: channel / pingpong2", k, layout);
                print_ratio(csv, name, channel_ns / floor2_ns, "<=", 1.5);
                snprintf(name, sizeof name, "round-trip/2 k=%zu %s: semaphore / channel", k, layout);
                print_ratio(csv, name, find(LATENCY, SEMAPHORE, k, CF_CHANNEL_LAYOUT_AUTO, 8)->summary.median / channel_ns,
                            ">=", 20);
            }
    }
    if (run_oneway && run_round_trip) {
        printf("\nOne-way channel against the hop of a running one-line ping-pong (round-trip/2), whose writer\n"
               "already owns the line it writes - a message to a waiting receiver cannot (reference, no target):\n");
        double running_hop = find(LATENCY, PINGPONG, 0, CF_CHANNEL_LAYOUT_AUTO, 8)->summary.median;
        for (size_t l = 0; l < 2; l++)
            for (size_t s = 0; s < 2; s++) {
                const char *layout = layouts[l] == CF_CHANNEL_LAYOUT_PACKED ? "packed" : "line";
                double channel_ns = oneway_mean(find(ONEWAY, CHANNEL, slot_counts[s], layouts[l], 8));
                snprintf(name, sizeof name, "one-way k=%zu %s: channel / running ping-pong hop", slot_counts[s], layout);
                printf("  %-58s %7.2f\n", name, channel_ns / running_hop);
                if (csv) fprintf(csv, "ratio,\"%s\",,,,,x,%.3f,,\n", name, channel_ns / running_hop);
            }
    }
    if (run_throughput) {
        printf("\nThroughput targets:\n");
        for (size_t l = 0; l < 2; l++)
            for (size_t s = 0; s < 2; s++) {
                size_t k = slot_counts[s];
                const char *layout = layouts[l] == CF_CHANNEL_LAYOUT_PACKED ? "packed" : "line";
                const measurement *channel = find(THROUGHPUT, CHANNEL, k, layouts[l], 8);
                const measurement *lamport = find(THROUGHPUT, LAMPORT, k, CF_CHANNEL_LAYOUT_AUTO, 8);
                snprintf(name, sizeof name, "throughput 8 B k=%zu %s: channel / lamport", k, layout);
                print_ratio(csv, name, channel->summary.median / lamport->summary.median, ">=", k == 8 ? 1.0 : 1.5);
                snprintf(name, sizeof name, "throughput 8 B k=%zu %s: channel / lamport, best windows", k, layout);
                print_ratio(csv, name, channel->summary.high / lamport->summary.high, ">=", k == 8 ? 1.0 : 1.5);
            }
    }
    if (csv) fclose(csv);
    return 0;
}
