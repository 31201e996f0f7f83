/* Two-thread stress of cf_channel: millions of messages carrying their sequence number, a length that
 * varies with it and a byte pattern derived from it; the receiver checks every message and both sides
 * keep a checksum of every byte. k in {1, 2, 8, 1024}, copying and zero-copy APIs, with the default spin
 * budget and with a spin budget of 1 (nearly every wait sleeps on the futex), every homing option, and
 * with and without membarrier; the packed, tagged and word layouts. Messages of 8-byte slots have every
 * length 0..8, and a quarter of the 8-byte ones carry the values the word layout must escape (EMPTY,
 * ESCAPE) or 0 or -1 instead of their sequence number.
 *
 * Each configuration runs until its message count or its time budget is reached (whichever is first), so
 * the program stays fast under sanitizers and qemu; CF_TEST_SCALE=<percent> scales both. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cacheflow/channel.h"
#include "cacheflow/stats.h"
#include "helpers.h"

typedef struct stress_config {
    size_t slots;
    size_t max_message;
    int zero_copy;
    uint32_t spin_limit;
    cf_channel_homing homing;
    cf_channel_layout layout;
    uint32_t flags;
    uint64_t messages;
} stress_config;

typedef struct sender_result {
    cf_channel *ch;
    const stress_config *config;
    double budget_seconds;
    uint64_t sent;
    uint64_t checksum;
} sender_result;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static size_t message_length(uint64_t seq, size_t max_message) {
    uint64_t h = seq * 2654435761u;
    if (max_message == 8) return (h >> 7) % 4 ? 8 : (size_t)(h >> 9) % 8; /* a quarter shorter */
    return 8 + (size_t)(h % (max_message - 7)); /* 8 .. max_message */
}

static unsigned char pattern_byte(uint64_t seq, size_t i) { return (unsigned char)(seq ^ (seq >> 8) ^ (i * 29u)); }

static const uint64_t special_values[] = {CF_CHANNEL_WORD_EMPTY, CF_CHANNEL_WORD_ESCAPE, 0, UINT64_MAX};

/* The sequence number (as much of it as fits), then a pattern; a quarter of the 8-byte messages are one
 * of the special values instead. */
static void write_message(unsigned char *area, uint64_t seq, size_t len) {
    uint64_t pick = (seq * UINT64_C(0x9e3779b97f4a7c15)) >> 60;
    if (len == 8 && pick < 4) {
        memcpy(area, &special_values[pick], 8);
        return;
    }
    memcpy(area, &seq, len < 8 ? len : 8);
    for (size_t i = 8; i < len; i++) area[i] = pattern_byte(seq, i);
}

static uint64_t mix(uint64_t sum, const unsigned char *bytes, size_t len) {
    for (size_t i = 0; i < len; i++) sum = (sum ^ bytes[i]) * 1099511628211u; /* FNV-1a */
    return sum;
}

static void *sender_main(void *arg) {
    sender_result *result = arg;
    const stress_config *config = result->config;
    unsigned char message[512];
    uint64_t checksum = 14695981039346656037u;
    double deadline = now_seconds() + result->budget_seconds;
    uint64_t seq = 0;
    for (; seq < config->messages; seq++) {
        if ((seq & 1023) == 0 && now_seconds() > deadline) break;
        size_t len = message_length(seq, config->max_message);
        if (config->zero_copy) {
            void *area;
            CF_CHECK(cf_channel_reserve(result->ch, &area) == 0);
            write_message(area, seq, len);
            checksum = mix(checksum, area, len);
            CF_CHECK(cf_channel_commit(result->ch, len) == 0);
        } else {
            write_message(message, seq, len);
            checksum = mix(checksum, message, len);
            CF_CHECK(cf_channel_send(result->ch, message, len) == 0);
        }
    }
    result->sent = seq;
    result->checksum = checksum;
    cf_channel_close(result->ch); /* the receiver drains, then gets -EPIPE */
    return NULL;
}

static void check_message(const unsigned char *message, size_t len, uint64_t expected, size_t max_message) {
    unsigned char want[512];
    size_t want_len = message_length(expected, max_message);
    write_message(want, expected, want_len);
    if (len != want_len || memcmp(message, want, len) != 0) {
        uint64_t head = 0;
        memcpy(&head, message, len < 8 ? len : 8);
        fprintf(stderr, "message %llu: got length %zu (expected %zu), first word %#llx\n", (unsigned long long)expected,
                len, want_len, (unsigned long long)head);
        exit(1);
    }
}

static void run(const stress_config *config, double budget_seconds) {
    cf_channel_options options = {.slots = config->slots, .max_message = config->max_message,
                                  .homing = config->homing, .layout = config->layout,
                                  .spin_limit = config->spin_limit,
                                  .flags = config->flags};
    cf_channel *ch;
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    CF_CHECK(cf_channel_home_here(ch) == 0); /* this thread receives; homed before the sender starts */

    sender_result result = {.ch = ch, .config = config, .budget_seconds = budget_seconds};
    pthread_t sender;
    CF_CHECK(pthread_create(&sender, NULL, sender_main, &result) == 0);

    uint64_t checksum = 14695981039346656037u, received = 0;
    unsigned char buffer[512];
    double start = now_seconds();
    for (;; received++) {
        int rc;
        if (config->zero_copy) {
            void *message;
            size_t len;
            rc = cf_channel_acquire(ch, &message, &len);
            if (rc == 0) {
                check_message(message, len, received, config->max_message);
                checksum = mix(checksum, message, len);
                CF_CHECK(cf_channel_release(ch) == 0);
            }
        } else {
            size_t len;
            rc = cf_channel_receive(ch, buffer, sizeof buffer, &len);
            if (rc == 0) {
                check_message(buffer, len, received, config->max_message);
                checksum = mix(checksum, buffer, len);
            }
        }
        if (rc == -EPIPE) break;
        CF_CHECK(rc == 0);
    }
    double elapsed = now_seconds() - start;
    CF_CHECK(pthread_join(sender, NULL) == 0);
    CF_CHECK(received == result.sent);
    CF_CHECK(checksum == result.checksum);
    printf("k=%-5zu max=%-3zu %-9s spin=%-5u homing=%u%s%s: %9llu messages, %6.2f M/s\n", config->slots,
           config->max_message, config->zero_copy ? "zero-copy" : "copying", config->spin_limit, config->homing,
           config->flags & CF_CHANNEL_NO_MEMBARRIER ? " fences" : "",
           config->layout == CF_CHANNEL_LAYOUT_PACKED   ? " packed"
           : config->layout == CF_CHANNEL_LAYOUT_TAGGED ? " tagged"
           : config->layout == CF_CHANNEL_LAYOUT_WORD   ? " word"
                                                        : "",
           (unsigned long long)received,
           (double)received / elapsed / 1e6);
    cf_channel_destroy(ch);
}

int main(void) {
    double factor = cf_test_scale();
    uint64_t spinning = (uint64_t)(2000000 * factor) + 1000, sleeping = (uint64_t)(200000 * factor) + 1000;
    /* scaled runs (sanitizers, emulators): the time budget shrinks too, to a quarter at least */
    double budget = 0.45 * (factor < 0.25 ? 0.25 : factor);
    static const size_t slot_counts[] = {1, 2, 8, 1024};
    cf_stats before, after;
    cf_stats_total(&before);
    for (size_t i = 0; i < sizeof slot_counts / sizeof *slot_counts; i++)
        for (int zero_copy = 0; zero_copy <= 1; zero_copy++) {
            stress_config fast = {.slots = slot_counts[i], .max_message = zero_copy ? 200 : 40,
                                  .zero_copy = zero_copy, .messages = spinning};
            run(&fast, budget);
            stress_config slow = fast;
            slow.spin_limit = 1;
            slow.messages = sleeping;
            run(&slow, budget);
        }
    cf_stats_total(&after);
    uint64_t sleeps = after.channel_sleeps - before.channel_sleeps;
    printf("waits %llu, sleeps %llu\n", (unsigned long long)(after.channel_waits - before.channel_waits),
           (unsigned long long)sleeps);
    CF_CHECK(sleeps > 0); /* a spin budget of 1 must have reached the futex path */

    for (int homing = CF_CHANNEL_HOMING_NTM; homing <= CF_CHANNEL_HOMING_DEMOTE; homing++)
        for (int zero_copy = 0; zero_copy <= 1; zero_copy++) {
            stress_config config = {.slots = 8, .max_message = 300, .zero_copy = zero_copy,
                                    .homing = (cf_channel_homing)homing, .messages = spinning / 4};
            run(&config, budget / 2);
        }
    /* Packed groups (24-byte messages) and tagged slots (8-byte): k = 8, k = 1024 (tagged: 147 lines, the
     * sender's batch wait), then sleeping. */
    for (int tagged = 0; tagged <= 1; tagged++) {
        stress_config small = {.slots = 8, .max_message = tagged ? 8 : 24,
                               .layout = tagged ? CF_CHANNEL_LAYOUT_TAGGED : CF_CHANNEL_LAYOUT_PACKED,
                               .messages = spinning};
        run(&small, budget / 2);
        small.slots = 1024;
        small.zero_copy = 1;
        run(&small, budget / 2);
        small.spin_limit = 1;
        small.messages = sleeping;
        run(&small, budget / 2);
    }
    /* Word slots: k in {1, 2, 3, 7, 8, 13, 1024}, copying and zero-copy in turn, spinning, then sleeping. */
    static const size_t word_slots[] = {1, 2, 3, 7, 8, 13, 1024};
    for (size_t i = 0; i < sizeof word_slots / sizeof *word_slots; i++) {
        stress_config word = {.slots = word_slots[i], .max_message = 8, .layout = CF_CHANNEL_LAYOUT_WORD,
                              .zero_copy = (int)(i % 2), .messages = spinning};
        run(&word, budget / 2);
        word.zero_copy = !word.zero_copy;
        word.spin_limit = 1;
        word.messages = sleeping;
        run(&word, budget / 2);
    }
    /* Symmetric fences: a packed ring, and a word ring (its fast paths are off: the general path's wake test
     * includes the fence). */
    static const stress_config fenced_configs[] = {
        {.slots = 2, .max_message = 16, .flags = CF_CHANNEL_NO_MEMBARRIER},
        {.slots = 8, .max_message = 8, .layout = CF_CHANNEL_LAYOUT_WORD, .flags = CF_CHANNEL_NO_MEMBARRIER},
    };
    for (size_t i = 0; i < sizeof fenced_configs / sizeof *fenced_configs; i++) {
        stress_config fenced = fenced_configs[i];
        fenced.messages = spinning;
        run(&fenced, budget / 4);
        fenced.spin_limit = 1;
        fenced.messages = sleeping;
        run(&fenced, budget / 4);
    }
    printf("channel stress: ok\n");
    return 0;
}
