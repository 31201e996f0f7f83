/* Single-thread behaviour of cf_channel: argument errors, FIFO order, wrap-around, k = 1, odd and zero
 * message sizes, the zero-copy API's state rules, close semantics, every homing option; for messages of
 * up to 8 bytes, a random mix of every call against a model of the queue, with the 8-byte values the word
 * layout reserves (EMPTY, ESCAPE) among ordinary ones. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "cacheflow/channel.h"
#include "cacheflow/stats.h"
#include "helpers.h"

static cf_channel_layout layout; /* every test runs with every layout (tagged, word: messages up to 8 bytes) */

/* 8-byte values that need the word layout's escape path (EMPTY, ESCAPE) or are common payloads. */
static const uint64_t special_values[] = {CF_CHANNEL_WORD_EMPTY, CF_CHANNEL_WORD_ESCAPE, 0, UINT64_MAX};

static uint64_t next_random(uint64_t *state) { /* xorshift64* */
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717u;
}

static cf_channel *make(size_t slots, size_t max_message, cf_channel_homing homing) {
    cf_channel_options options = {.slots = slots, .max_message = max_message, .homing = homing,
                                  .layout = layout};
    cf_channel *ch = NULL;
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    CF_CHECK(ch != NULL);
    CF_CHECK(cf_channel_home_here(ch) == 0);
    return ch;
}

/* A message's bytes as a function of its seed; half of the 8-byte ones are the special values above. */
static void fill_pattern(unsigned char *buf, size_t len, uint32_t seed) {
    uint32_t pick = (seed * 2654435761u) >> 29;
    if (len == 8 && pick < 4) {
        memcpy(buf, &special_values[pick], 8);
        return;
    }
    for (size_t i = 0; i < len; i++) buf[i] = (unsigned char)(seed * 131u + i * 7u + 1u);
}

static void test_errors(void) {
    cf_channel *ch = (cf_channel *)&ch; /* must be reset to NULL on failure */
    cf_channel_options options = {.slots = 0, .max_message = 8};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    CF_CHECK(ch == NULL);
    CF_CHECK(cf_channel_create(NULL, &options) == -EINVAL);
    CF_CHECK(cf_channel_create(&ch, NULL) == -EINVAL);
    options = (cf_channel_options){.slots = CF_CHANNEL_MAX_SLOTS + 1, .max_message = 8};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    options = (cf_channel_options){.slots = 1, .max_message = CF_CHANNEL_MAX_MESSAGE + 1};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    options = (cf_channel_options){.slots = 1, .max_message = 8, .homing = (cf_channel_homing)7};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    options = (cf_channel_options){.slots = 1, .max_message = 8, .flags = 1u << 9};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    options = (cf_channel_options){.slots = 1, .max_message = 8, .layout = (cf_channel_layout)5};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    /* 2^30 slots of 2^30 bytes: 2^60 bytes cannot be mapped; the failure must not leak the channel. */
    options = (cf_channel_options){.slots = CF_CHANNEL_MAX_SLOTS, .max_message = CF_CHANNEL_MAX_MESSAGE};
    CF_CHECK(cf_channel_create(&ch, &options) == -ENOMEM);
    CF_CHECK(ch == NULL);

    size_t m = layout == CF_CHANNEL_LAYOUT_TAGGED || layout == CF_CHANNEL_LAYOUT_WORD ? 8 : 16; /* slot size */
    ch = make(2, m, CF_CHANNEL_HOMING_NONE);
    unsigned char big[17] = {0};
    size_t len = 0;
    void *area = NULL;
    CF_CHECK(cf_channel_send(ch, big, m + 1) == -EMSGSIZE);
    CF_CHECK(cf_channel_send(ch, NULL, 1) == -EINVAL);
    CF_CHECK(cf_channel_send(NULL, big, 1) == -EINVAL);
    CF_CHECK(cf_channel_commit(ch, 1) == -EINVAL);  /* nothing reserved */
    CF_CHECK(cf_channel_release(ch) == -EINVAL);    /* nothing acquired */
    CF_CHECK(cf_channel_try_receive(ch, big, sizeof big, &len) == -EAGAIN);
    CF_CHECK(cf_channel_try_acquire(ch, &area, &len) == -EAGAIN);
    CF_CHECK(cf_channel_reserve(ch, &area) == 0);
    CF_CHECK(cf_channel_send(ch, big, 1) == -EINVAL); /* a reservation is pending */
    CF_CHECK(cf_channel_send(ch, big, 8) == -EINVAL); /* also for an 8-byte message (word rings' fast path) */
    CF_CHECK(cf_channel_commit(ch, m + 1) == -EMSGSIZE); /* the reservation survives a rejected commit */
    memset(area, 0xab, m);
    CF_CHECK(cf_channel_commit(ch, m) == 0);
    /* A buffer too small leaves the message in the channel. */
    CF_CHECK(cf_channel_receive(ch, big, m - 1, &len) == -EMSGSIZE);
    CF_CHECK(len == m);
    CF_CHECK(cf_channel_receive(ch, big, m, &len) == 0);
    CF_CHECK(len == m && big[0] == 0xab && big[m - 1] == 0xab);
    CF_CHECK(cf_channel_max_message(ch) == m && cf_channel_slots(ch) == 2);
    cf_channel_destroy(ch);
    cf_channel_destroy(NULL);
}

/* The tagged and word layouts exist for messages of up to 8 bytes without homing: anything else is
 * -EINVAL. */
static void test_small_limits(void) {
    cf_channel *ch = (cf_channel *)&ch;
    cf_channel_options options = {.slots = 8, .max_message = 9, .layout = layout};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    CF_CHECK(ch == NULL);
    options = (cf_channel_options){.slots = 8, .max_message = 8, .layout = layout,
                                   .homing = CF_CHANNEL_HOMING_CLEAN};
    CF_CHECK(cf_channel_create(&ch, &options) == -EINVAL);
    /* Exactly k in flight: with k = 8 (tagged: 8 slots over two lines; word: one line), the 9th try_send
     * waits for one receive. */
    options = (cf_channel_options){.slots = 8, .max_message = 8, .layout = layout};
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    uint64_t value = 0;
    size_t len = 0;
    for (uint64_t i = 0; i < 8; i++) CF_CHECK(cf_channel_try_send(ch, &i, sizeof i) == 0);
    CF_CHECK(cf_channel_try_send(ch, &value, sizeof value) == -EAGAIN);
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && len == 8 && value == 0);
    CF_CHECK(cf_channel_try_send(ch, &value, 3) == 0);
    CF_CHECK(cf_channel_try_send(ch, &value, 3) == -EAGAIN);
    cf_channel_close(ch);
    CF_CHECK(cf_channel_try_send(ch, &value, 1) == -EPIPE);
    for (uint64_t i = 1; i < 8; i++) CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && value == i);
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && len == 3);
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == -EPIPE);
    cf_channel_destroy(ch);
}

/* Fill to capacity, check try_send refuses, drain in order; repeat enough laps to wrap every slot. */
static void test_order_and_wrap(size_t slots, size_t max_message, cf_channel_homing homing) {
    cf_channel *ch = make(slots, max_message, homing);
    unsigned char out[300], in[300];
    uint32_t next_send = 0, next_receive = 0;
    for (int lap = 0; lap < 5; lap++) {
        for (size_t i = 0; i < slots; i++, next_send++) {
            size_t len = next_send % (max_message + 1); /* odd sizes and zero */
            fill_pattern(out, len, next_send);
            CF_CHECK(cf_channel_try_send(ch, out, len) == 0);
        }
        CF_CHECK(cf_channel_try_send(ch, out, 0) == -EAGAIN);
        void *area;
        CF_CHECK(cf_channel_try_reserve(ch, &area) == -EAGAIN);
        /* Drain part, refill the freed slots, then drain everything: the sender's free count is refreshed
         * from the ack line mid-lap. */
        for (size_t i = 0; i < (slots + 1) / 2; i++, next_receive++) {
            size_t len = 0;
            CF_CHECK(cf_channel_receive(ch, in, sizeof in, &len) == 0);
            CF_CHECK(len == next_receive % (max_message + 1));
            fill_pattern(out, len, next_receive);
            CF_CHECK(memcmp(in, out, len) == 0);
        }
        for (size_t i = 0; i < (slots + 1) / 2; i++, next_send++) {
            size_t len = next_send % (max_message + 1);
            fill_pattern(out, len, next_send);
            CF_CHECK(cf_channel_send(ch, out, len) == 0);
        }
        while (next_receive < next_send) {
            size_t len = 0;
            CF_CHECK(cf_channel_receive(ch, in, sizeof in, &len) == 0);
            CF_CHECK(len == next_receive % (max_message + 1));
            fill_pattern(out, len, next_receive);
            CF_CHECK(memcmp(in, out, len) == 0);
            next_receive++;
        }
        size_t len;
        CF_CHECK(cf_channel_try_receive(ch, in, sizeof in, &len) == -EAGAIN);
    }
    cf_channel_destroy(ch);
}

/* A random mix of every call on both sides against a model of the queue (messages of up to 8 bytes: every
 * length 0..8, and 8-byte values drawn from the special values, small numbers and random ones): FIFO order,
 * exact contents and lengths, exactly k in flight (try_send / try_reserve refuse only then), -EMSGSIZE
 * leaving the message in place, acquire's in-place changes seen by a later receive, close then drain. */
typedef struct model_message {
    size_t len;
    unsigned char bytes[8];
} model_message;

static void random_message(model_message *m, uint64_t *state) {
    uint64_t r = next_random(state);
    m->len = r % 3 ? 8 : (size_t)(r >> 8) % 8;
    uint64_t value = next_random(state);
    switch ((r >> 16) % 8) {
    case 0: case 1: case 2: case 3: value = special_values[(r >> 16) % 4]; break;
    case 4: value = (r >> 20) % 16; break;
    default: break;
    }
    memcpy(m->bytes, &value, 8);
}

static void test_random_mix(size_t slots, uint64_t seed) {
    cf_channel *ch = make(slots, 8, CF_CHANNEL_HOMING_NONE);
    model_message queue[1024];
    CF_CHECK(slots <= 1024);
    size_t head = 0, count = 0, specials = 0, shorts = 0;
    uint64_t state = seed * 2 + 1;
    for (int step = 0; step < 4000; step++) {
        uint64_t r = next_random(&state);
        unsigned char buffer[32]; /* not 8: gcc warns of the copy of a longer message into it */
        size_t len = 99;
        void *area = NULL;
        if (r % 2) { /* sender */
            model_message m;
            random_message(&m, &state);
            if (count == slots) {
                CF_CHECK(cf_channel_try_send(ch, m.bytes, m.len) == -EAGAIN);
                CF_CHECK(cf_channel_try_reserve(ch, &area) == -EAGAIN);
                continue;
            }
            switch ((r >> 8) % 4) {
            case 0: CF_CHECK(cf_channel_send(ch, m.bytes, m.len) == 0); break;
            case 1: CF_CHECK(cf_channel_try_send(ch, m.bytes, m.len) == 0); break;
            default: {
                void *again = NULL;
                CF_CHECK(((r >> 8) % 4 == 2 ? cf_channel_reserve(ch, &area) : cf_channel_try_reserve(ch, &area)) == 0);
                CF_CHECK(cf_channel_reserve(ch, &again) == 0 && again == area);
                memcpy(area, m.bytes, m.len);
                CF_CHECK(cf_channel_commit(ch, m.len) == 0);
            }
            }
            for (size_t i = 0; i < sizeof special_values / sizeof *special_values; i++)
                specials += m.len == 8 && memcmp(m.bytes, &special_values[i], 8) == 0;
            shorts += m.len < 8;
            queue[(head + count++) % slots] = m;
            continue;
        }
        /* receiver */
        if (count == 0) {
            CF_CHECK(cf_channel_try_receive(ch, buffer, sizeof buffer, &len) == -EAGAIN);
            CF_CHECK(cf_channel_try_acquire(ch, &area, &len) == -EAGAIN);
            continue;
        }
        model_message *m = &queue[head];
        switch ((r >> 8) % 5) {
        case 0: CF_CHECK(cf_channel_receive(ch, buffer, sizeof buffer, &len) == 0); break;
        case 1: CF_CHECK(cf_channel_try_receive(ch, buffer, sizeof buffer, &len) == 0); break;
        case 2: /* too small a buffer: the message stays, its length is told */
            if (m->len > 0) {
                CF_CHECK(cf_channel_receive(ch, buffer, m->len - 1, &len) == -EMSGSIZE && len == m->len);
                len = 99;
            }
            CF_CHECK(cf_channel_receive(ch, buffer, m->len, &len) == 0);
            break;
        default: { /* zero-copy, sometimes changed in place and then taken by a copying receive */
            void *again = NULL;
            size_t len_again = 98;
            CF_CHECK(cf_channel_acquire(ch, &area, &len) == 0);
            CF_CHECK(cf_channel_try_acquire(ch, &again, &len_again) == 0 && again == area && len_again == len);
            CF_CHECK(len == m->len && memcmp(area, m->bytes, len) == 0);
            if ((r >> 8) % 5 == 3) {
                memcpy(buffer, area, len);
                CF_CHECK(cf_channel_release(ch) == 0);
            } else {
                for (size_t i = 0; i < len; i++) m->bytes[i] = ((unsigned char *)area)[i] ^= 0x5a;
                CF_CHECK(cf_channel_receive(ch, buffer, sizeof buffer, &len) == 0);
            }
        }
        }
        CF_CHECK(len == m->len && memcmp(buffer, m->bytes, len) == 0);
        head = (head + 1) % slots;
        count--;
    }
    CF_CHECK(specials > 0 && shorts > 0); /* the escape path was taken (word layout) */
    cf_channel_close(ch);
    unsigned char buffer[32];
    size_t len;
    for (; count > 0; count--, head = (head + 1) % slots)
        CF_CHECK(cf_channel_receive(ch, buffer, sizeof buffer, &len) == 0 && len == queue[head].len &&
                 memcmp(buffer, queue[head].bytes, len) == 0);
    CF_CHECK(cf_channel_receive(ch, buffer, sizeof buffer, &len) == -EPIPE);
    cf_channel_destroy(ch);
}

static void test_zero_copy(size_t slots, size_t max_message) {
    cf_channel *ch = make(slots, max_message, CF_CHANNEL_HOMING_NONE);
    for (uint32_t n = 0; n < 3 * slots + 1; n++) {
        void *area = NULL, *again = NULL;
        CF_CHECK(cf_channel_reserve(ch, &area) == 0);
        CF_CHECK(cf_channel_reserve(ch, &again) == 0 && again == area); /* idempotent until commit */
        CF_CHECK(((uintptr_t)area % (layout == CF_CHANNEL_LAYOUT_LINE ? 16 : 8)) == 0);
        if (max_message > 48 && layout == CF_CHANNEL_LAYOUT_LINE) CF_CHECK(((uintptr_t)area % 64) == 0);
        size_t len = (n * 5u) % (max_message + 1);
        fill_pattern(area, len, n);
        CF_CHECK(cf_channel_commit(ch, len) == 0);

        void *message = NULL, *same = NULL;
        size_t got = 99, got_again = 98;
        CF_CHECK(cf_channel_acquire(ch, &message, &got) == 0);
        CF_CHECK(cf_channel_acquire(ch, &same, &got_again) == 0 && same == message && got_again == got);
        CF_CHECK(got == len);
        unsigned char expect[300];
        fill_pattern(expect, len, n);
        CF_CHECK(memcmp(message, expect, len) == 0);
        memset(message, 0, len); /* the receiver owns the slot until release: in-place use is allowed */
        CF_CHECK(cf_channel_release(ch) == 0);
        CF_CHECK(cf_channel_release(ch) == -EINVAL);
    }
    cf_channel_destroy(ch);
}

static void test_close(void) {
    cf_channel *ch = make(4, 8, CF_CHANNEL_HOMING_NONE);
    uint64_t value = 42, got = 0;
    size_t len;
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    value = 43;
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    cf_channel_close(ch);
    cf_channel_close(ch); /* idempotent */
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == -EPIPE);
    void *area;
    CF_CHECK(cf_channel_reserve(ch, &area) == -EPIPE);
    /* Messages committed before the close are still delivered, then -EPIPE (blocking or not). */
    CF_CHECK(cf_channel_receive(ch, &got, sizeof got, &len) == 0 && got == 42);
    CF_CHECK(cf_channel_try_receive(ch, &got, sizeof got, &len) == 0 && got == 43);
    CF_CHECK(cf_channel_receive(ch, &got, sizeof got, &len) == -EPIPE);
    CF_CHECK(cf_channel_try_receive(ch, &got, sizeof got, &len) == -EPIPE);
    cf_channel_destroy(ch);

    /* A sender blocked on a full channel is released by a close (here: no thread, so the close comes
     * first and the full sender must fail instead of waiting). */
    ch = make(1, 8, CF_CHANNEL_HOMING_NONE);
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    cf_channel_close(ch);
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == -EPIPE);
    cf_channel_destroy(ch);
}

static void test_unhomed(void) {
    /* Without cf_channel_home_here the channel works the same. */
    cf_channel_options options = {.slots = 3, .max_message = 100};
    cf_channel *ch = NULL;
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    char text[100] = "unhomed";
    size_t len;
    CF_CHECK(cf_channel_send(ch, text, 8) == 0);
    memset(text, 0, sizeof text);
    CF_CHECK(cf_channel_receive(ch, text, sizeof text, &len) == 0 && len == 8 && strcmp(text, "unhomed") == 0);
    cf_channel_destroy(ch);
}

static void test_no_waits_counted_single_thread(void) {
    cf_stats before, after;
    cf_stats_thread(&before);
    test_order_and_wrap(3, 8, CF_CHANNEL_HOMING_NONE); /* try_* never wait */
    cf_stats_thread(&after);
    CF_CHECK(after.channel_waits == before.channel_waits);
    CF_CHECK(after.channel_sleeps == before.channel_sleeps);
}

/* AUTO's choice: the layout in use through the API (both builds), the rdy-ack ring's geometry with the inline
 * fast path (its internals are visible there only). */
static void test_auto_layout(void) {
    static const struct {
        size_t max_message;
        cf_channel_homing homing;
        cf_channel_layout rdyack, lamport;
        int word, tagged, per_group;
    } cases[] = {{8, CF_CHANNEL_HOMING_NONE, CF_CHANNEL_LAYOUT_WORD, CF_CHANNEL_LAYOUT_PACKED, 1, 0, 8},
                 {7, CF_CHANNEL_HOMING_NONE, CF_CHANNEL_LAYOUT_TAGGED, CF_CHANNEL_LAYOUT_PACKED, 0, 1, 7},
                 {0, CF_CHANNEL_HOMING_NONE, CF_CHANNEL_LAYOUT_TAGGED, CF_CHANNEL_LAYOUT_PACKED, 0, 1, 7},
                 {16, CF_CHANNEL_HOMING_NONE, CF_CHANNEL_LAYOUT_PACKED, CF_CHANNEL_LAYOUT_PACKED, 0, 0, 3},
                 {8, CF_CHANNEL_HOMING_CLEAN, CF_CHANNEL_LAYOUT_LINE, CF_CHANNEL_LAYOUT_LINE, 0, 0, 1},
                 {64, CF_CHANNEL_HOMING_NONE, CF_CHANNEL_LAYOUT_LINE, CF_CHANNEL_LAYOUT_LINE, 0, 0, 1}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cf_channel_options options = {.slots = 8, .max_message = cases[i].max_message, .homing = cases[i].homing};
        cf_channel *ch = NULL;
        CF_CHECK(cf_channel_create(&ch, &options) == 0);
#ifndef CF_CHANNEL_OUT_OF_LINE
        CF_CHECK(cf_channel_layout_of(ch) == cases[i].rdyack);
        CF_CHECK((int)ch->sender.g.word == cases[i].word && (int)ch->sender.g.tagged == cases[i].tagged);
        CF_CHECK((int)ch->sender.g.per_group == cases[i].per_group);
        /* the word fast paths: a word ring of 8-byte messages with asymmetric fences */
        CF_CHECK(ch->sender.g.direct == (cases[i].word && !ch->sender.g.symmetric_fences));
#else
        CF_CHECK(cf_channel_layout_of(ch) == cases[i].lamport);
#endif
        cf_channel_destroy(ch);
    }
    /* a layout asked for is the one in use (the Lamport build packs what it has no ring for) */
    cf_channel_options word = {.slots = 8, .max_message = 8, .layout = CF_CHANNEL_LAYOUT_WORD};
    cf_channel *ch = NULL;
    CF_CHECK(cf_channel_create(&ch, &word) == 0);
#ifndef CF_CHANNEL_OUT_OF_LINE
    CF_CHECK(cf_channel_layout_of(ch) == CF_CHANNEL_LAYOUT_WORD);
#else
    CF_CHECK(cf_channel_layout_of(ch) == CF_CHANNEL_LAYOUT_PACKED);
#endif
    cf_channel_destroy(ch);
    cf_channel_options line = {.slots = 8, .max_message = 8, .layout = CF_CHANNEL_LAYOUT_LINE};
    CF_CHECK(cf_channel_create(&ch, &line) == 0);
    CF_CHECK(cf_channel_layout_of(ch) == CF_CHANNEL_LAYOUT_LINE);
    cf_channel_destroy(ch);
    CF_CHECK(cf_channel_layout_of(NULL) == CF_CHANNEL_LAYOUT_AUTO);
}

#ifndef CF_CHANNEL_OUT_OF_LINE
/* The word fast paths' one-load test (`fast`) follows reserve / commit and acquire / release / a receive into a
 * buffer too small, on each side; and the send or receive it lets through is refused or repeated as the API says. */
static void test_fast_gate(void) {
    cf_channel *ch = make(4, 8, CF_CHANNEL_HOMING_NONE); /* AUTO: word; direct unless fences are symmetric */
    uint32_t d = ch->sender.g.direct;
    CF_CHECK(ch->sender.fast.part[0] == d && ch->receiver.fast == d);
    uint64_t value = 0x1122334455667788u, got = 0;
    size_t len = 0;
    void *area = NULL;
    CF_CHECK(cf_channel_reserve(ch, &area) == 0 && !ch->sender.fast.part[0]);
    /* Zero-copy on a word ring writes no shared line but the slot: the sender's own stage is reserved (docs/channel.md,
     * "The zero-copy calls on word rings no longer move the side entry") */
    CF_CHECK(area == (void *)&ch->sender.stage);
    CF_CHECK(cf_channel_send(ch, &value, 8) == -EINVAL && !ch->sender.fast.part[0]);
    memcpy(area, &value, 8);
    CF_CHECK(cf_channel_commit(ch, 8) == 0 && ch->sender.fast.part[0] == d);
    CF_CHECK(cf_channel_send(ch, &value, 8) == 0);
    CF_CHECK(cf_channel_acquire(ch, &area, &len) == 0 && len == 8 && !ch->receiver.fast);
    CF_CHECK(area == (void *)&ch->receiver.stash && memcmp(area, &value, 8) == 0); /* a direct value: the receiver's own */
    CF_CHECK(cf_channel_receive(ch, &got, 8, &len) == 0 && got == value && ch->receiver.fast == d); /* the acquired one */
    CF_CHECK(cf_channel_release(ch) == -EINVAL);
    CF_CHECK(cf_channel_receive(ch, &got, 4, &len) == -EMSGSIZE && len == 8 && !ch->receiver.fast);
    got = 0;
    CF_CHECK(cf_channel_receive(ch, &got, 8, &len) == 0 && got == value && ch->receiver.fast == d);
    CF_CHECK(cf_channel_try_receive(ch, &got, 8, &len) == -EAGAIN && ch->receiver.fast == d);
    uint64_t escaped = CF_CHANNEL_WORD_EMPTY; /* a value the slot word cannot hold: it stays in its side entry */
    CF_CHECK(cf_channel_send(ch, &escaped, 8) == 0);
    CF_CHECK(cf_channel_acquire(ch, &area, &len) == 0 && len == 8 && area != (void *)&ch->receiver.stash);
    CF_CHECK(memcmp(area, &escaped, 8) == 0 && cf_channel_release(ch) == 0);
    /* A close while a slot is reserved: the commit rewrites the sender's byte of the gate, not the close's,
     * so the next send still takes the general path and finds the channel closed. */
    CF_CHECK(cf_channel_reserve(ch, &area) == 0);
    cf_channel_close(ch);
    CF_CHECK(ch->sender.fast.part[1] == 1);
    memcpy(area, &value, 8);
    CF_CHECK(cf_channel_commit(ch, 8) == 0 && ch->sender.fast.part[0] == d && ch->sender.fast.part[1] == 1);
    CF_CHECK(cf_channel_send(ch, &value, 8) == -EPIPE);
    CF_CHECK(cf_channel_receive(ch, &got, 8, &len) == 0 && got == value); /* the reservation predates the close */
    cf_channel_destroy(ch);
    cf_channel_options line = {.slots = 4, .max_message = 8, .layout = CF_CHANNEL_LAYOUT_LINE};
    CF_CHECK(cf_channel_create(&ch, &line) == 0);
    CF_CHECK(!ch->sender.fast.part[0] && !ch->receiver.fast); /* not a word ring: never */
    CF_CHECK(cf_channel_reserve(ch, &area) == 0 && cf_channel_commit(ch, 0) == 0 && !ch->sender.fast.part[0]);
    cf_channel_destroy(ch);
}
#endif

int main(void) {
    static const size_t slot_counts[] = {1, 2, 3, 8, 1024};
    static const size_t sizes[] = {0, 1, 7, 8, 16, 24, 48, 49, 63, 64, 65, 255};
    for (int packed = 0; packed <= 1; packed++) {
        layout = packed ? CF_CHANNEL_LAYOUT_PACKED : CF_CHANNEL_LAYOUT_LINE;
        test_errors();
        for (size_t i = 0; i < sizeof slot_counts / sizeof *slot_counts; i++)
            for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
                test_order_and_wrap(slot_counts[i], sizes[j], CF_CHANNEL_HOMING_NONE);
                test_zero_copy(slot_counts[i], sizes[j]);
            }
        for (size_t j = 0; j < sizeof sizes / sizeof *sizes; j++) {
            test_order_and_wrap(2, sizes[j], CF_CHANNEL_HOMING_NTM);
            test_order_and_wrap(2, sizes[j], CF_CHANNEL_HOMING_CLEAN);
            test_order_and_wrap(2, sizes[j], CF_CHANNEL_HOMING_DEMOTE);
        }
    }
    /* Tagged slots: up to 8 bytes, k slots exactly -- ring sizes around whole lines of 7 (6, 7, 8, 13, 14,
     * 15, 49) wrap at every position of a line. */
    layout = CF_CHANNEL_LAYOUT_TAGGED;
    test_errors();
    test_small_limits();
    static const size_t tagged_slots[] = {1, 2, 3, 6, 7, 8, 13, 14, 15, 49, 1024};
    for (size_t i = 0; i < sizeof tagged_slots / sizeof *tagged_slots; i++)
        for (size_t len = 0; len <= 8; len++) {
            test_order_and_wrap(tagged_slots[i], len, CF_CHANNEL_HOMING_NONE);
            test_zero_copy(tagged_slots[i], len);
        }
    /* Word slots: up to 8 bytes, k words exactly, 8 to a line -- ring sizes around whole lines (7, 8, 9,
     * 15, 16, 17, 64, 65) wrap at every position of a line; 65 and 1024 have the sender's wait 64 ahead. */
    layout = CF_CHANNEL_LAYOUT_WORD;
    test_errors();
    test_small_limits();
    static const size_t word_slots[] = {1, 2, 3, 7, 8, 9, 13, 15, 16, 17, 64, 65, 1024};
    for (size_t i = 0; i < sizeof word_slots / sizeof *word_slots; i++)
        for (size_t len = 0; len <= 8; len++) {
            test_order_and_wrap(word_slots[i], len, CF_CHANNEL_HOMING_NONE);
            test_zero_copy(word_slots[i], len);
        }
    /* Every layout, 8-byte slots: the random mix, k in {1, 2, 3, 7, 8, 13, 1024}. */
    static const size_t mix_slots[] = {1, 2, 3, 7, 8, 13, 1024};
    static const cf_channel_layout layouts[] = {CF_CHANNEL_LAYOUT_AUTO, CF_CHANNEL_LAYOUT_LINE, CF_CHANNEL_LAYOUT_PACKED,
                                                CF_CHANNEL_LAYOUT_TAGGED, CF_CHANNEL_LAYOUT_WORD};
    for (size_t l = 0; l < sizeof layouts / sizeof *layouts; l++)
        for (size_t i = 0; i < sizeof mix_slots / sizeof *mix_slots; i++) {
            layout = layouts[l];
            test_random_mix(mix_slots[i], 1000 * l + i);
        }
    layout = CF_CHANNEL_LAYOUT_AUTO;
    test_auto_layout();
#ifndef CF_CHANNEL_OUT_OF_LINE
    test_fast_gate();
#endif
    test_close();
    test_order_and_wrap(8, 8, CF_CHANNEL_HOMING_NONE); /* AUTO: word */
    test_unhomed();
    test_no_waits_counted_single_thread();
    printf("channel basic: ok\n");
    return 0;
}
