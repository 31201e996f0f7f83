/* Two-thread stress of cf_flag in the pattern generated code uses: a producer fills slot i % k of a ring of
 * plain buffers and raises "ready" (a flag homed at the consumer); the consumer waits for it, checks and
 * rewrites the slot, and raises "free" (a flag homed at the producer), which the producer waits for k
 * iterations later, with the count of iteration i - k (<= 0 for the first k). Events are coalesced as the
 * generator coalesces them: the producer raises only after a random number of events (1 to 3) and the
 * consumer waits for the exact count it needs, so counts are skipped. Both sides add random delays: short
 * busy loops most of the time, sometimes a sleep of up to 2 ms, so that waits end while spinning, just
 * after going to sleep, and long asleep. k in {1, 2, 4}, spin budgets 1 (nearly every wait sleeps) and the
 * default, with and without membarrier.
 *
 * Each configuration runs until its event count is reached (delays only in its first quarter second), or its
 * time budget (four times that) when a loaded machine makes hand-offs slow; CF_TEST_SCALE=<percent> scales
 * both (sanitizer builds run a tenth of the events). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cacheflow/flag.h"
#include "helpers.h"

enum { MAX_SLOTS = 4, SLOT_WORDS = 48 };

typedef struct stress {
    cf_flag ready; /* producer -> consumer */
    cf_flag free;  /* consumer -> producer */
    uint32_t spin;
    uint32_t options;
    long slots;
    long events;
    double deadline;   /* no more delays after it */
    double budget_end; /* the producer stops after it */
    long last; /* 0, or the producer's last event when it stopped at its time budget */
    pthread_barrier_t homed;
    uint64_t slot[MAX_SLOTS][SLOT_WORDS];
} stress;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t next_random(uint64_t *state) { /* xorshift64* */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static _Thread_local volatile uint64_t delay_sink; /* keeps the busy loops; one per thread (no race) */

static void random_delay(uint64_t *state) {
    uint64_t r = next_random(state);
    if (r % 997 == 0) { /* rarely: long enough that the other side goes to sleep */
        struct timespec pause = {0, (long)(r >> 20) % 2000000};
        nanosleep(&pause, NULL);
    } else {
        for (uint64_t i = (r >> 8) % 400; i > 0; i--) delay_sink = delay_sink + i;
    }
}

static uint64_t word(long event, int w) { return (uint64_t)event * 0x9e3779b97f4a7c15u + (uint64_t)w; }

static void *producer(void *arg) {
    stress *s = arg;
    uint64_t random = 0x1234567u + (uint64_t)s->slots;
    CF_CHECK(cf_flag_init(&s->free, s->spin, s->options) == 0);
    pthread_barrier_wait(&s->homed);
    long raised = 0;
    for (long event = 1; event <= s->events; event++) {
        cf_flag_wait(&s->free, event - s->slots); /* the consumer is done with this slot's last event */
        uint64_t *slot = s->slot[event % s->slots];
        if (event > s->slots) /* the consumer's answer to the slot's previous event is still there */
            for (int w = 0; w < SLOT_WORDS; w++) CF_CHECK(slot[w] == ~word(event - s->slots, w));
        for (int w = 0; w < SLOT_WORDS; w++) slot[w] = word(event, w);
        int late = now_seconds() > s->budget_end;
        if (!late && now_seconds() < s->deadline) random_delay(&random);
        if (late && event < s->events) { /* out of time (a loaded machine): stop after this event */
            __atomic_store_n(&s->last, event, __ATOMIC_RELAXED);
            cf_flag_raise(&s->ready, event + 1); /* one past: wakes a consumer waiting for event + 1 */
            return NULL;
        }
        /* coalescing: raise only every 1..3 events (always at the end, and whenever the ring is full,
         * since the next wait needs the consumer to have seen this one) */
        if (next_random(&random) % 3 == 0 || event == s->events || event - raised >= s->slots) {
            cf_flag_raise(&s->ready, event);
            raised = event;
        }
    }
    cf_flag_raise(&s->ready, raised); /* raising the same count again is allowed */
    return NULL;
}

static void run(long slots, uint32_t spin, uint32_t options, long events, double seconds) {
    static stress s;
    memset(&s, 0, sizeof s);
    s.slots = slots;
    s.spin = spin;
    s.options = options;
    s.events = events;
    s.deadline = now_seconds() + seconds;
    s.budget_end = now_seconds() + 4 * seconds;
    CF_CHECK(pthread_barrier_init(&s.homed, NULL, 2) == 0);
    CF_CHECK(cf_flag_init(&s.ready, spin, options) == 0);
    pthread_t thread;
    CF_CHECK(pthread_create(&thread, NULL, producer, &s) == 0);
    pthread_barrier_wait(&s.homed);
    uint64_t random = 0x7654321u + (uint64_t)spin;
    long event = 1;
    for (; event <= events; event++) {
        cf_flag_wait(&s.ready, event);
        long last = __atomic_load_n(&s.last, __ATOMIC_RELAXED); /* ordered by the wait's acquire */
        if (last != 0 && event > last) break;
        uint64_t *slot = s.slot[event % slots];
        for (int w = 0; w < SLOT_WORDS; w++) CF_CHECK(slot[w] == word(event, w));
        if (now_seconds() < s.deadline) random_delay(&random);
        for (int w = 0; w < SLOT_WORDS; w++) slot[w] = ~word(event, w);
        cf_flag_raise(&s.free, event);
    }
    CF_CHECK(pthread_join(thread, NULL) == 0);
    long done = event - 1;
    CF_CHECK(s.last == 0 ? done == events && cf_flag_count(&s.ready) == events : done == s.last);
    CF_CHECK(cf_flag_count(&s.free) == done && done > 0);
    printf("k=%ld spin=%u options=%u: %ld events%s; consumer waited %llu times (slept %llu), producer %llu (%llu)\n",
           slots, spin, options, done, s.last ? " (stopped at the time budget)" : "", (unsigned long long)cf_flag_waits(&s.ready),
           (unsigned long long)cf_flag_sleeps(&s.ready), (unsigned long long)cf_flag_waits(&s.free),
           (unsigned long long)cf_flag_sleeps(&s.free));
    pthread_barrier_destroy(&s.homed);
}

int main(void) {
    double percent = 100;
    const char *env = getenv("CF_TEST_SCALE");
    if (env && atof(env) > 0) percent = atof(env);
    double seconds = 0.25 * percent / 100; /* sanitizers: the same time, fewer events */
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    percent /= 10;
#endif
    long events = (long)(100000 * percent / 100);
    if (events < 1000) events = 1000;
    static const long slot_counts[] = {1, 2, 4};
    static const uint32_t spins[] = {1, 0};
    for (size_t k = 0; k < sizeof slot_counts / sizeof *slot_counts; k++)
        for (size_t p = 0; p < sizeof spins / sizeof *spins; p++) {
            /* a spin budget of 1 sleeps on nearly every wait (tens of microseconds each): fewer events */
            long n = spins[p] == 1 ? events / 10 : events;
            run(slot_counts[k], spins[p], 0, n, seconds);
            run(slot_counts[k], spins[p], CF_FLAG_NO_MEMBARRIER, n, seconds);
        }
    puts("test_flag_stress: ok");
    return 0;
}
