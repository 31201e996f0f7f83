/* Two-thread stress of the channel's fast path: random delays on both sides (so the receiver alternates
 * between keeping up -- polling the group being filled -- and lagging -- taking several messages from one
 * header load), random use of the copying, zero-copy and try_ calls on both sides, small k (many
 * wrap-arounds of rings of one or two groups) and large k, every packed group size (7, 3, 2 and 1
 * messages per line), the line, tagged and word layouts, with and without sleeping (a spin budget of 1).
 * Messages of up to 8 bytes have every length 0..8, and a quarter of the 8-byte ones carry the values the
 * word layout must escape (EMPTY, ESCAPE) or 0 or -1 instead of their sequence number.
 *
 * Checked for every message: its sequence number, its length (a function of it) and every byte. Checked
 * against the API's promise: when the sender gets a slot for message n, the receiver has already taken
 * message n - k (the receiver announces each zero-copy message before releasing it, and a copying receive
 * before the call), so no more than k are ever in flight. With the inline rdy-ack fast path, the receiver also counts the receives that found their
 * message already announced by an earlier header load (batching) and the test requires some.
 *
 * Each configuration stops at its message count or its time budget; CF_TEST_SCALE=<percent> scales
 * both (the budget to a quarter at least), sanitizer builds use a tenth. The random seed is printed; CF_TEST_SEED=<n> repeats a run. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cacheflow/channel.h"
#include "helpers.h"

typedef struct config {
    size_t slots;
    size_t max_message;
    cf_channel_layout layout;
    uint32_t spin_limit;
    uint64_t messages;
} config;

typedef struct shared {
    cf_channel *ch;
    const config *c;
    uint64_t seed;
    double deadline;
    uint64_t sent;
    uint64_t announced; /* messages the receiver has taken, stored before it releases them */
} shared;

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

/* Mostly nothing or a short spin; sometimes a yield or a sleep long enough for the other side to fill or
 * drain the channel (and, with a spin budget of 1, to fall asleep). */
static void random_delay(uint64_t *state) {
    uint64_t r = next_random(state) % 1000;
    if (r < 600) return;
    if (r < 950) {
        for (volatile uint64_t i = next_random(state) % 400; i > 0; i--) {
        }
    } else if (r < 995) {
        sched_yield();
    } else {
        struct timespec pause = {0, (long)(next_random(state) % 50000)};
        nanosleep(&pause, NULL);
    }
}

static size_t length_of(uint64_t seq, size_t max_message) {
    uint64_t h = seq * 2654435761u;
    if (max_message == 8) return (h >> 7) % 4 ? 8 : (size_t)(h >> 9) % 8; /* a quarter shorter */
    return max_message < 8 ? max_message : 8 + (size_t)(h % (max_message - 7));
}

/* A quarter of the 8-byte messages: a value the word layout escapes, or a common one. */
static const uint64_t special_values[] = {CF_CHANNEL_WORD_EMPTY, CF_CHANNEL_WORD_ESCAPE, 0, UINT64_MAX};

static unsigned char byte_of(uint64_t seq, size_t i) { return (unsigned char)(seq * 31u ^ (seq >> 7) ^ (i * 73u)); }

static void fill(unsigned char *area, uint64_t seq, size_t len) {
    uint64_t pick = (seq * UINT64_C(0x9e3779b97f4a7c15)) >> 60;
    if (len == 8 && pick < 4) {
        memcpy(area, &special_values[pick], 8);
        return;
    }
    size_t head = len < 8 ? len : 8;
    memcpy(area, &seq, head);
    for (size_t i = head; i < len; i++) area[i] = byte_of(seq, i);
}

static void check(const unsigned char *message, size_t len, uint64_t seq, size_t max_message) {
    unsigned char expect[64];
    size_t want = length_of(seq, max_message);
    fill(expect, seq, want);
    if (len != want || memcmp(message, expect, len) != 0) {
        fprintf(stderr, "message %llu: wrong length (%zu, expected %zu) or content\n", (unsigned long long)seq, len,
                want);
        exit(1);
    }
}

static void *sender_main(void *arg) {
    shared *s = arg;
    const config *c = s->c;
    uint64_t state = s->seed * 2 + 1;
    unsigned char message[64];
    uint64_t seq = 0;
    for (; seq < c->messages; seq++) {
        if ((seq & 255) == 0 && now_seconds() > s->deadline) break;
        random_delay(&state);
        size_t len = length_of(seq, c->max_message);
        uint64_t how = next_random(&state) % 4;
        void *area;
        int rc;
        if (how < 2) { /* zero-copy, blocking or trying until it works */
            while ((rc = how ? cf_channel_try_reserve(s->ch, &area) : cf_channel_reserve(s->ch, &area)) == -EAGAIN)
                sched_yield();
            CF_CHECK(rc == 0);
        }
        /* The slot for message seq is free only once message seq - k was taken. */
        uint64_t taken = __atomic_load_n(&s->announced, __ATOMIC_ACQUIRE);
        if (seq >= c->slots && taken < seq - c->slots + 1 && how < 2) {
            fprintf(stderr, "message %llu got a slot with only %llu taken (k = %zu)\n", (unsigned long long)seq,
                    (unsigned long long)taken, c->slots);
            exit(1);
        }
        if (how < 2) {
            fill(area, seq, len);
            CF_CHECK(cf_channel_commit(s->ch, len) == 0);
        } else {
            fill(message, seq, len);
            while ((rc = how == 3 ? cf_channel_try_send(s->ch, message, len) : cf_channel_send(s->ch, message, len)) ==
                   -EAGAIN)
                sched_yield();
            CF_CHECK(rc == 0);
        }
    }
    s->sent = seq;
    cf_channel_close(s->ch);
    return NULL;
}

static void run(const config *c, uint64_t seed, double budget) {
    cf_channel_options options = {.slots = c->slots, .max_message = c->max_message, .layout = c->layout,
                                  .spin_limit = c->spin_limit};
    cf_channel *ch;
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    CF_CHECK(cf_channel_home_here(ch) == 0);
    shared s = {.ch = ch, .c = c, .seed = seed, .deadline = now_seconds() + budget};
    pthread_t sender;
    CF_CHECK(pthread_create(&sender, NULL, sender_main, &s) == 0);

    uint64_t state = seed * 4 + 3, received = 0, batched = 0;
    unsigned char buffer[64];
    for (;;) {
        random_delay(&state);
#ifndef CF_CHANNEL_OUT_OF_LINE
        batched += ch->receiver.ready > 0 && !ch->receiver.acquired; /* announced by an earlier header load */
#endif
        uint64_t how = next_random(&state) % 4;
        int rc;
        size_t len = 0;
        if (how < 2) {
            void *message;
            while ((rc = how ? cf_channel_try_acquire(ch, &message, &len) : cf_channel_acquire(ch, &message, &len)) ==
                   -EAGAIN)
                sched_yield();
            if (rc == -EPIPE) break;
            CF_CHECK(rc == 0);
            check(message, len, received, c->max_message);
            memset(message, 0xee, len); /* in-place use is allowed until release */
            __atomic_store_n(&s.announced, received + 1, __ATOMIC_RELEASE);
            CF_CHECK(cf_channel_release(ch) == 0);
        } else {
            /* A copying receive releases inside the call: announce before it (over by at most this one). */
            __atomic_store_n(&s.announced, received + 1, __ATOMIC_RELEASE);
            while ((rc = how == 3 ? cf_channel_try_receive(ch, buffer, sizeof buffer, &len)
                                  : cf_channel_receive(ch, buffer, sizeof buffer, &len)) == -EAGAIN)
                sched_yield();
            if (rc == -EPIPE) break;
            CF_CHECK(rc == 0);
            check(buffer, len, received, c->max_message);
        }
        received++;
    }
    CF_CHECK(pthread_join(sender, NULL) == 0);
    CF_CHECK(received == s.sent);
    printf("k=%-5zu max=%-2zu %-6s spin=%-4u: %7llu messages, %6llu batched\n", c->slots, c->max_message,
           c->layout == CF_CHANNEL_LAYOUT_LINE     ? "line"
           : c->layout == CF_CHANNEL_LAYOUT_TAGGED ? "tagged"
           : c->layout == CF_CHANNEL_LAYOUT_WORD   ? "word"
                                                   : "packed",
           c->spin_limit, (unsigned long long)received,
           (unsigned long long)batched);
#ifndef CF_CHANNEL_OUT_OF_LINE
    /* A lagging receiver must have taken messages from an earlier header load (packed groups, k >= 2). */
    if (c->layout == CF_CHANNEL_LAYOUT_PACKED && c->max_message <= 24 && c->slots >= 2 && received > 20000)
        CF_CHECK(batched > 0);
#endif
    cf_channel_destroy(ch);
}

int main(void) {
    double factor = cf_test_scale();
    const char *env = getenv("CF_TEST_SEED");
    uint64_t seed = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL);
    printf("seed %llu (CF_TEST_SEED repeats it)\n", (unsigned long long)seed);
    uint64_t messages = (uint64_t)(300000 * factor) + 500;
    /* scaled runs (sanitizers, emulators): the time budget shrinks too, to a quarter at least */
    double budget = 0.3 * (factor < 0.25 ? 0.25 : factor);
    /* Also 1024 > 64 slots: the tagged and word senders' wait 64 ahead. */
    static const size_t slot_counts[] = {1, 2, 3, 7, 8, 13, 1024};
    static const size_t sizes[] = {8, 16, 24, 40}; /* 7, 3, 2, 1 messages per packed line */
    uint64_t n = 0;
    for (size_t i = 0; i < sizeof slot_counts / sizeof *slot_counts; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
            config c = {.slots = slot_counts[i], .max_message = sizes[j], .layout = CF_CHANNEL_LAYOUT_PACKED,
                        .messages = messages};
            run(&c, seed + n++, budget);
        }
    for (size_t i = 0; i < sizeof slot_counts / sizeof *slot_counts; i++) {
        config line = {.slots = slot_counts[i], .max_message = 40, .layout = CF_CHANNEL_LAYOUT_LINE,
                       .messages = messages};
        run(&line, seed + n++, budget);
        config sleepy = {.slots = slot_counts[i], .max_message = 8, .layout = CF_CHANNEL_LAYOUT_PACKED,
                         .spin_limit = 1, .messages = messages / 4};
        run(&sleepy, seed + n++, budget);
        /* Tagged slots (one tag byte per slot, k slots exactly) and word slots (FastForward's ring, escapes
         * through the side entries): spinning, then sleeping. */
        for (int word = 0; word <= 1; word++) {
            config c = {.slots = slot_counts[i], .max_message = 8,
                        .layout = word ? CF_CHANNEL_LAYOUT_WORD : CF_CHANNEL_LAYOUT_TAGGED, .messages = messages};
            run(&c, seed + n++, budget);
            c.spin_limit = 1;
            c.messages = messages / 4;
            run(&c, seed + n++, budget);
        }
    }
    printf("channel fast path stress: ok\n");
    return 0;
}
