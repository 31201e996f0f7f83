/* Home-forwarded rdy-ack channels (see include/cacheflow/channel.h for the API, docs/channel.md for the
 * measurements).
 *
 * THE PROTOCOL (the paper's Fig. 7 and Sect. 6.2, k slots used round-robin)
 *
 *   send:    wait until ack[i];  copy msg into slot[i];  reset ack[i]; signal rdy[i];  i = (i+1) mod k
 *   receive: wait until rdy[i];  use slot[i];            reset rdy[i]; signal ack[i];  i = (i+1) mod k
 *
 * with (rdy[i], ack[i]) = (0, 1) initially. Each transition flips the pair, so it is always (0,1) -- the
 * sender owns slot i -- or (1,0) -- the receiver owns it.
 *
 * HOW THE FLAGS ARE STORED. A flag that both sides write would bounce its cache line on every write, and
 * a reset by one side followed by a signal from the other costs two transfers per flag per message.
 * Instead each event is a counter written by one side only, and the boolean is derived:
 *   P[i] = messages the sender has published in slot i, C[i] = messages the receiver has consumed from it;
 *   rdy[i] = (P[i] == C[i] + 1),  ack[i] = (P[i] == C[i]).
 * "reset ack; signal rdy" is then the single increment of P[i], "reset rdy; signal ack" the single
 * increment of C[i], and the invariant 0 <= P[i] - C[i] <= 1 is exactly the paper's (0,1)/(1,0) pair.
 *   - rdy: P[i] lives in the slot's first cache line, in the same word as the message length, next to
 *     the message itself (the "header"). Because slots are used round-robin, message n (counting from 0)
 *     goes to slot n mod k and the header stores seq = (n + 1) mod 2^32: the receiver waiting for message
 *     n tests header.seq == n + 1. The value there otherwise is 0 (never written, n < k) or the previous
 *     lap's n + 1 - k, which differs because k < 2^32. The receiver never writes the slot, so a message
 *     costs one line (header + up to 48 payload bytes): the sender takes it over, the receiver reads it.
 *   - ack: the receiver consumes in order, so all the C[i] are described by one counter, consumed =
 *     sum of C[i]: ack[i] for the slot of message n is (consumed > n - k), i.e. the sender may write
 *     message n while n - consumed < k. consumed sits alone in its own line (the "ack line"), which the
 *     receiver writes every message but which stays in its cache: the sender keeps a private count of
 *     free slots (k - (sent - consumed) as last read) and reads the ack line only when that count runs
 *     out. consumed only grows, so a stale copy underestimates the free slots and is always safe.
 *   So, with k >= 2 and neither side waiting, a message costs one slot line transfer plus one ack-line
 *   transfer per refill of the sender's free count, instead of the four transfers of two shared flags.
 *
 * MEMORY ORDERING (C11 / GCC __atomic; x86 needs no fence instruction for any of these, aarch64 gets
 * ldar/stlr). The paper's correctness argument assumes sequential consistency and requires:
 *   (a) send row 3 (copy) after seeing ack: the sender's acquire load of `consumed` synchronises with the
 *       receiver's release store of it, so the receiver's reads of the previous message in that slot
 *       happen before the sender overwrites it (no write-after-read race on weak memory);
 *   (b) send row 5 (rdy) after row 3: the header is stored with release, after the message bytes;
 *   (c) receive row 3 only once rdy is seen: the header is loaded with acquire, before the message bytes;
 *   (d) receive row 5 (ack) after row 3: `consumed` is stored with release, after the use of the message.
 * (a)-(d) give the happens-before edges publish(n) -> use(n) -> overwrite(n + k), which is the SC proof's
 * ordering restricted to the accesses that conflict; nothing else needs ordering.
 *
 * WAITING (spin, then futex, with the Dekker argument for why no wake-up is lost) and CLOSE are shared
 * with channel_lamport.c and explained in channel_common.h.
 *
 * LAYOUT. Every group of fields written by one side, or read-only, sits in its own 128-byte block (two
 * 64-byte lines: x86's adjacent-line prefetcher fetches lines in pairs, and some aarch64 cores have
 * 128-byte lines). Each side keeps a private copy of the configuration, so its fast path touches only
 * its own block, the slot line, and one read-mostly line of the other side. */
#define _GNU_SOURCE
#include "cacheflow/channel.h"

#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include "arch/arch.h"
#include "channel_common.h"
#include "channel_homing.h"
#include "stats_internal.h"

struct channel_sender {
    struct channel_side_config cfg;
    uint64_t sent;     /* messages committed (P summed over slots) */
    uint64_t free;     /* slots known free: k - (sent - consumed as last read) */
    char *next_slot;   /* slot of the next message: sent mod k */
    int reserved;      /* next_slot was handed out by reserve and not committed yet */
};

struct channel_receiver {
    struct channel_side_config cfg;
    uint64_t received; /* messages released (C summed over slots) */
    char *next_slot;   /* slot of the next message: received mod k */
    int acquired;      /* next_slot was handed out by acquire and not released yet */
    size_t acquired_len;
};

struct cf_channel {
    /* Read-only after creation (and only read off the fast path). */
    alignas(CHANNEL_BLOCK) struct channel_shared shared;
    /* Written and read by the sender only. */
    alignas(CHANNEL_BLOCK) struct channel_sender sender;
    /* Written and read by the receiver only. */
    alignas(CHANNEL_BLOCK) struct channel_receiver receiver;
    /* The ack line: written by the receiver every release, read by the sender when its free count is 0. */
    alignas(CHANNEL_BLOCK) uint64_t consumed;
    /* Read by the sender after every publish; written when the receiver sleeps or wakes and on close. */
    alignas(CHANNEL_BLOCK) struct channel_to_receiver to_receiver;
    /* Read by the receiver after every release; written when the sender sleeps or wakes. */
    alignas(CHANNEL_BLOCK) struct channel_to_sender to_sender;
};

_Static_assert(sizeof(struct channel_sender) <= CHANNEL_BLOCK, "sender state must fit its block");
_Static_assert(sizeof(struct channel_receiver) <= CHANNEL_BLOCK, "receiver state must fit its block");
_Static_assert(offsetof(struct cf_channel, sender) % CHANNEL_BLOCK == 0, "sender block alignment");
_Static_assert(offsetof(struct cf_channel, receiver) - offsetof(struct cf_channel, sender) >= CHANNEL_BLOCK,
               "sender and receiver state must not share a line");
_Static_assert(offsetof(struct cf_channel, consumed) % CHANNEL_BLOCK == 0, "ack line alignment");
_Static_assert(offsetof(struct cf_channel, to_receiver) % CHANNEL_BLOCK == 0, "wake line alignment");
_Static_assert(offsetof(struct cf_channel, to_sender) % CHANNEL_BLOCK == 0, "wake line alignment");
_Static_assert(sizeof(struct cf_channel) == 6 * CHANNEL_BLOCK, "one block per writer group");
_Static_assert(CF_CHANNEL_MAX_SLOTS <= UINT32_MAX, "seq (mod 2^32) must tell laps apart: k < 2^32");
_Static_assert(CF_CHANNEL_MAX_MESSAGE <= UINT32_MAX, "the length must fit the header's high half");

/* ---- slot header: seq (low 32 bits) | length (high 32 bits), published with one release store ---- */

static inline uint64_t *slot_header(char *slot) { return (uint64_t *)(void *)slot; }
static inline uint32_t header_seq(uint64_t header) { return (uint32_t)header; }
static inline size_t header_length(uint64_t header) { return (size_t)(header >> 32); }

/* ---- creation ---- */

int cf_channel_create(cf_channel **out, const cf_channel_options *options) {
    if (!out) return -EINVAL;
    *out = NULL;
    void *memory;
    struct channel_shared shared;
    struct channel_side_config cfg;
    int rc = cf_chan_create(options, sizeof(cf_channel), &memory, &shared, &cfg);
    if (rc) return rc;
    cf_channel *ch = memory;
    ch->shared = shared;
    ch->sender.cfg = cfg;
    ch->sender.free = shared.slots_count;
    ch->sender.next_slot = shared.slots;
    ch->receiver.cfg = cfg;
    ch->receiver.next_slot = shared.slots;
    *out = ch;
    return 0;
}

int cf_channel_home_here(cf_channel *ch) {
    if (!ch) return -EINVAL;
    cf_chan_home_here(&ch->shared);
    return 0;
}

void cf_channel_destroy(cf_channel *ch) {
    if (ch) cf_chan_destroy(ch, &ch->shared);
}

void cf_channel_close(cf_channel *ch) {
    if (ch) cf_chan_close(&ch->to_receiver, &ch->to_sender);
}

size_t cf_channel_max_message(const cf_channel *ch) { return ch ? ch->shared.max_message : 0; }
size_t cf_channel_slots(const cf_channel *ch) { return ch ? ch->shared.slots_count : 0; }

/* ---- sender ---- */

static int is_closed(cf_channel *ch) { return channel_closed(&ch->to_receiver); }

static inline char *next_slot_after(const struct channel_side_config *cfg, char *slot) {
    slot += cfg->stride;
    return slot == cfg->slots_end ? cfg->slots : slot;
}

/* Copies of up to 16 bytes without a library call: two possibly overlapping loads and stores. */
static inline __attribute__((always_inline)) void copy_message(void *dst, const void *src, size_t n) {
    char *d = dst;
    const char *s = src;
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else if (n >= 4) {
        uint32_t head, tail;
        memcpy(&head, s, 4);
        memcpy(&tail, s + n - 4, 4);
        memcpy(d, &head, 4);
        memcpy(d + n - 4, &tail, 4);
    } else if (n) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

/* Re-reads the ack line (a): the acquire orders the receiver's use of the slot before our overwrite. */
static int sender_has_free_slot(cf_channel *ch) {
    struct channel_sender *s = &ch->sender;
    uint64_t consumed = __atomic_load_n(&ch->consumed, __ATOMIC_ACQUIRE);
    s->free = s->cfg.slots_count - (s->sent - consumed);
    if (s->free > 0) return 1;
    return is_closed(ch) ? -EPIPE : 0;
}

/* The sender's slow path: no slot known free, or closed. On success the next slot may be written. */
static __attribute__((noinline)) int sender_wait_slot(cf_channel *ch, int may_wait) {
    struct channel_sender *s = &ch->sender;
    if (is_closed(ch)) return -EPIPE;
    if (s->free > 0) return 0;
    int state = sender_has_free_slot(ch); /* the cached count may just be stale */
    if (state != 0) return state > 0 ? 0 : state;
    if (!may_wait) return -EAGAIN;
    return wait_until(ch, sender_has_free_slot, &ch->to_sender.sender_sleeping, &s->cfg);
}

/* Ready to write the next slot? The closed flag shares the line the sender reads after every publish. */
static inline __attribute__((always_inline)) int sender_ready(cf_channel *ch, int may_wait) {
    struct channel_sender *s = &ch->sender;
    if (CF_LIKELY(s->free > 0 && !__atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED))) return 0;
    return sender_wait_slot(ch, may_wait);
}

static __attribute__((noinline)) void sender_push_lines(cf_channel *ch, char *slot, size_t len, int before_rdy) {
    cf_channel_homing homing = (cf_channel_homing)ch->sender.cfg.homing;
    size_t payload_offset = ch->sender.cfg.payload_offset;
    if (homing == CF_CHANNEL_HOMING_NTM) {
        if (before_rdy && len) channel_homing_push(homing, NULL, 0);
    } else if (before_rdy) {
        /* The message lines beyond the header's line go before rdy; the header's line after the header
         * store, so that it moves with rdy in it. */
        size_t in_header_line = payload_offset >= CHANNEL_LINE ? 0 : CHANNEL_LINE - payload_offset;
        if (len > in_header_line) channel_homing_push(homing, slot + payload_offset + in_header_line, len - in_header_line);
    } else {
        channel_homing_push(homing, slot, 1);
    }
}

/* Steps (b) and the rdy signal: the message is in the next slot; make it visible, then raise rdy.
 * `fenced`: the fill already ordered its streaming stores (cf_ntm_copy does). */
static inline __attribute__((always_inline)) void sender_publish(cf_channel *ch, size_t len, int fenced) {
    struct channel_sender *s = &ch->sender;
    char *slot = s->next_slot;
    int homing = s->cfg.homing != CF_CHANNEL_HOMING_NONE;
    if (CF_UNLIKELY(homing) && !fenced) sender_push_lines(ch, slot, len, 1);
    uint64_t seq = (uint32_t)(s->sent + 1);
    __atomic_store_n(slot_header(slot), seq | (uint64_t)len << 32, __ATOMIC_RELEASE);
    if (CF_UNLIKELY(homing)) sender_push_lines(ch, slot, len, 0);
    s->sent++;
    s->free--;
    s->next_slot = next_slot_after(&s->cfg, slot);
    s->reserved = 0;
    /* No prefetch-for-ownership of the next slot here: the receiver starts polling that slot as soon as it
     * has taken this message, so the line is shared again before the next write (tried with prefetchw:
     * no change in the one-way latency, docs/channel.md). */
    wake_if_asleep(&ch->to_receiver.receiver_sleeping, s->cfg.symmetric_fences);
}

static int sender_reserve(cf_channel *ch, int may_wait, void **slot) {
    if (!ch || !slot) return -EINVAL;
    struct channel_sender *s = &ch->sender;
    if (!s->reserved) {
        int rc = sender_ready(ch, may_wait);
        if (rc) return rc;
        s->reserved = 1;
    }
    *slot = s->next_slot + s->cfg.payload_offset;
    return 0;
}

int cf_channel_reserve(cf_channel *ch, void **slot) { return sender_reserve(ch, 1, slot); }
int cf_channel_try_reserve(cf_channel *ch, void **slot) { return sender_reserve(ch, 0, slot); }

int cf_channel_commit(cf_channel *ch, size_t len) {
    if (!ch || !ch->sender.reserved) return -EINVAL;
    if (len > ch->sender.cfg.max_message) return -EMSGSIZE;
    sender_publish(ch, len, 0);
    return 0;
}

static inline __attribute__((always_inline)) int channel_send(cf_channel *ch, const void *message, size_t len,
                                                              int may_wait) {
    if (CF_UNLIKELY(!ch || (!message && len))) return -EINVAL;
    struct channel_sender *s = &ch->sender;
    if (CF_UNLIKELY(len > s->cfg.max_message || s->reserved)) return s->reserved ? -EINVAL : -EMSGSIZE;
    int rc = sender_ready(ch, may_wait);
    if (CF_UNLIKELY(rc)) return rc;
    char *area = s->next_slot + s->cfg.payload_offset;
    if (CF_LIKELY(s->cfg.homing != CF_CHANNEL_HOMING_NTM)) {
        copy_message(area, message, len);
        sender_publish(ch, len, 0);
    } else {
        channel_homing_fill(CF_CHANNEL_HOMING_NTM, area, message, len);
        sender_publish(ch, len, 1);
    }
    return 0;
}

int cf_channel_send(cf_channel *ch, const void *message, size_t len) { return channel_send(ch, message, len, 1); }
int cf_channel_try_send(cf_channel *ch, const void *message, size_t len) {
    return channel_send(ch, message, len, 0);
}

/* ---- receiver ---- */

/* (c): the acquire load of the header orders the message reads after it. */
static inline int receiver_slot_ready(const struct channel_receiver *r, uint64_t *header) {
    *header = __atomic_load_n(slot_header(r->next_slot), __ATOMIC_ACQUIRE);
    return header_seq(*header) == (uint32_t)(r->received + 1);
}

static int receiver_has_message(cf_channel *ch) {
    uint64_t header;
    if (receiver_slot_ready(&ch->receiver, &header)) return 1;
    if (!is_closed(ch)) return 0;
    /* Closed: whatever was committed before the close is visible now (close's store is a release). */
    return receiver_slot_ready(&ch->receiver, &header) ? 1 : -EPIPE;
}

/* The receiver's slow path: the next slot is not ready yet. On success *header is its header. */
static __attribute__((noinline)) int receiver_wait_message(cf_channel *ch, int may_wait, uint64_t *header) {
    struct channel_receiver *r = &ch->receiver;
    int rc;
    if (!may_wait) rc = receiver_has_message(ch) > 0 ? 0 : is_closed(ch) ? -EPIPE : -EAGAIN;
    else rc = wait_until(ch, receiver_has_message, &ch->to_receiver.receiver_sleeping, &r->cfg);
    if (rc == 0) receiver_slot_ready(r, header);
    return rc;
}

static inline __attribute__((always_inline)) int receiver_acquire(cf_channel *ch, int may_wait) {
    struct channel_receiver *r = &ch->receiver;
    if (CF_UNLIKELY(r->acquired)) return 0;
    uint64_t header;
    if (CF_UNLIKELY(!receiver_slot_ready(r, &header))) {
        int rc = receiver_wait_message(ch, may_wait, &header);
        if (rc) return rc;
    }
    r->acquired = 1;
    r->acquired_len = header_length(header);
    return 0;
}

/* (d) and the ack signal: the message has been used; hand the slot back. */
static inline __attribute__((always_inline)) void receiver_release(cf_channel *ch) {
    struct channel_receiver *r = &ch->receiver;
    r->received++;
    r->next_slot = next_slot_after(&r->cfg, r->next_slot);
    r->acquired = 0;
    __atomic_store_n(&ch->consumed, r->received, __ATOMIC_RELEASE);
    wake_if_asleep(&ch->to_sender.sender_sleeping, r->cfg.symmetric_fences);
}

static int channel_acquire(cf_channel *ch, void **message, size_t *len, int may_wait) {
    if (!ch || !message || !len) return -EINVAL;
    int rc = receiver_acquire(ch, may_wait);
    if (rc) return rc;
    *message = ch->receiver.next_slot + ch->receiver.cfg.payload_offset;
    *len = ch->receiver.acquired_len;
    return 0;
}

int cf_channel_acquire(cf_channel *ch, void **message, size_t *len) { return channel_acquire(ch, message, len, 1); }
int cf_channel_try_acquire(cf_channel *ch, void **message, size_t *len) {
    return channel_acquire(ch, message, len, 0);
}

int cf_channel_release(cf_channel *ch) {
    if (!ch || !ch->receiver.acquired) return -EINVAL;
    receiver_release(ch);
    return 0;
}

static inline __attribute__((always_inline)) int channel_receive(cf_channel *ch, void *buffer, size_t capacity,
                                                                 size_t *len, int may_wait) {
    if (CF_UNLIKELY(!ch || !len || (!buffer && capacity))) return -EINVAL;
    int rc = receiver_acquire(ch, may_wait);
    if (CF_UNLIKELY(rc)) return rc;
    struct channel_receiver *r = &ch->receiver;
    size_t n = r->acquired_len;
    *len = n;
    if (CF_UNLIKELY(n > capacity)) return -EMSGSIZE; /* stays acquired: the next receive sees it again */
    copy_message(buffer, r->next_slot + r->cfg.payload_offset, n);
    receiver_release(ch);
    return 0;
}

int cf_channel_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return channel_receive(ch, buffer, capacity, len, 1);
}
int cf_channel_try_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return channel_receive(ch, buffer, capacity, len, 0);
}
