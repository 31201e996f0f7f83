/* The cf_channel API (include/cacheflow/channel.h) as a Lamport ring: the comparison point for the
 * rdy-ack channels of channel.c, selected at build time with -DCF_CHANNEL_IMPL=lamport (CMakeLists.txt
 * compiles exactly one of the two files).
 *
 * THE PROTOCOL (Lamport's single-producer single-consumer queue, the scheme behind the lock-free queues
 * of FastFlow that the home-forwarding paper measures as FF-QUEUE):
 *
 *   send:    wait until tail - head < k;  copy msg into slot[tail mod k];  tail = tail + 1
 *   receive: wait until head < tail;      use slot[head mod k];            head = head + 1
 *
 * tail is written by the sender only, head by the receiver only, each alone in its own 128-byte block.
 * What differs from the rdy-ack channel is where the signal lives: here every message makes the receiver
 * read the sender's index line and the sender read the receiver's index line (no cached copy of either),
 * on top of the slot's own lines; the rdy-ack channel puts rdy in the slot's first line next to the
 * message and lets the sender read the ack count only when its private count of free slots runs out.
 * Everything else is kept the same on purpose, so that a measured difference is the signalling: the
 * slot layout (a header word holding the length, then the message; LINE and PACKED strides and
 * alignments: the same code, channel_common.c), the homing options, cf_channel_home_here (first touch by the receiver),
 * the spin-then-futex waiting with membarrier, close semantics and the statistics.
 *
 * MEMORY ORDERING: the sender stores tail with release after the message and its length, the receiver
 * loads tail with acquire before reading them; the receiver stores head with release after its last use
 * of the slot, the sender loads head with acquire before overwriting it. The shared parts (option
 * validation, slot geometry, the spin-then-futex waiting and its Dekker handshake, close) are in
 * channel_common.h/.c. */
#define _GNU_SOURCE
#ifndef CF_CHANNEL_OUT_OF_LINE
#define CF_CHANNEL_OUT_OF_LINE 1 /* this file defines the cf_channel functions, not the rdy-ack fast path */
#endif
#include "cacheflow/channel.h"

#include <errno.h>
#include <stdalign.h>
#include <string.h>

#include "arch/arch.h"
#include "channel_common.h"
#include "channel_homing.h"
#include "stats_internal.h"

struct lamport_sender {
    struct channel_side_config cfg;
    uint64_t sent;
    int reserved;
};

struct lamport_receiver {
    struct channel_side_config cfg;
    uint64_t received;
    int acquired;
    size_t acquired_len;
};

struct cf_channel {
    alignas(CHANNEL_BLOCK) struct cf_channel_shared_ shared;
    alignas(CHANNEL_BLOCK) struct lamport_sender sender;
    alignas(CHANNEL_BLOCK) struct lamport_receiver receiver;
    alignas(CHANNEL_BLOCK) uint64_t tail; /* messages published: written by the sender */
    alignas(CHANNEL_BLOCK) uint64_t head; /* messages consumed: written by the receiver */
    alignas(CHANNEL_BLOCK) struct cf_channel_to_receiver_ to_receiver;
    alignas(CHANNEL_BLOCK) struct cf_channel_to_sender_ to_sender;
};

_Static_assert(sizeof(struct lamport_sender) <= CHANNEL_BLOCK, "sender state must fit its block");
_Static_assert(sizeof(struct lamport_receiver) <= CHANNEL_BLOCK, "receiver state must fit its block");
_Static_assert(offsetof(struct cf_channel, head) - offsetof(struct cf_channel, tail) == CHANNEL_BLOCK,
               "head and tail in blocks of their own");

static inline uint64_t *slot_length(char *slot) { return (uint64_t *)(void *)slot; }

static inline char *slot_of(const struct channel_side_config *cfg, uint64_t n) {
    return cfg->slots + (size_t)(n % cfg->slots_count) * cfg->stride;
}

/* ---- creation ---- */

/* cf_channel_create (given 0: the slots mapped) and cf_channel_create_in (given 1: the caller's storage). */
static int channel_create(cf_channel **out, const cf_channel_options *options, int given, void *storage,
                          size_t bytes) {
    if (!out) return -EINVAL;
    *out = NULL;
    void *memory;
    struct cf_channel_shared_ shared;
    struct channel_side_config cfg;
    int rc = given ? cf_chan_create_in(options, sizeof(cf_channel), storage, bytes, NULL, &memory, &shared, &cfg)
                   : cf_chan_create(options, sizeof(cf_channel), &memory, &shared, &cfg);
    if (rc) return rc;
    cf_channel *ch = memory;
    ch->shared = shared;
    ch->sender.cfg = cfg;
    ch->receiver.cfg = cfg;
    *out = ch;
    return 0;
}

int cf_channel_create(cf_channel **out, const cf_channel_options *options) {
    return channel_create(out, options, 0, NULL, 0);
}

int cf_channel_storage_size(const cf_channel_options *options, size_t *bytes, size_t *align) {
    size_t all;
    int rc = cf_chan_create_in(options, sizeof(cf_channel), NULL, 0, &all, NULL, NULL, NULL);
    return rc ? rc : cf_chan_storage_bytes(all, bytes, align);
}

int cf_channel_create_in(cf_channel **out, const cf_channel_options *options, void *storage, size_t bytes) {
    return channel_create(out, options, 1, storage, bytes);
}

int cf_channel_reset(cf_channel *ch) {
    if (!ch) return -EINVAL;
    cf_chan_clear_slots(&ch->shared); /* the length words: written by every send before use, zeroed anyway */
    ch->sender.sent = 0;
    ch->sender.reserved = 0;
    ch->receiver.received = 0;
    ch->receiver.acquired = 0;
    ch->receiver.acquired_len = 0;
    __atomic_store_n(&ch->tail, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ch->head, 0, __ATOMIC_RELAXED);
    cf_chan_reset_wake(&ch->to_receiver, &ch->to_sender);
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
cf_channel_layout cf_channel_layout_of(const cf_channel *ch) { return ch ? ch->shared.layout : CF_CHANNEL_LAYOUT_AUTO; }

static int is_closed(cf_channel *ch) { return channel_closed(&ch->to_receiver); }

/* ---- sender ---- */

static int sender_has_room(cf_channel *ch, uint32_t spin) {
    (void)spin;
    if (is_closed(ch)) return -EPIPE;
    uint64_t head = __atomic_load_n(&ch->head, __ATOMIC_ACQUIRE);
    return ch->sender.sent - head < ch->sender.cfg.slots_count ? 1 : 0;
}

static int sender_ready(cf_channel *ch, int may_wait) {
    int state = sender_has_room(ch, CHANNEL_FINAL_CHECK);
    if (CF_LIKELY(state > 0)) return 0;
    if (state < 0) return state;
    if (!may_wait) return -EAGAIN;
    return wait_until(ch, sender_has_room, &ch->to_sender.sender_sleeping, ch->sender.cfg.spin_limit,
                      ch->sender.cfg.symmetric_fences);
}

static void sender_publish(cf_channel *ch, size_t len, int fenced) {
    struct lamport_sender *s = &ch->sender;
    char *slot = slot_of(&s->cfg, s->sent);
    *slot_length(slot) = len;
    cf_channel_homing homing = (cf_channel_homing)s->cfg.homing;
    if (homing == CF_CHANNEL_HOMING_NTM) {
        if (!fenced) channel_homing_push(homing, NULL, 0);
    } else if (homing != CF_CHANNEL_HOMING_NONE) {
        channel_homing_push(homing, slot, s->cfg.payload_offset + len);
    }
    s->sent++;
    s->reserved = 0;
    __atomic_store_n(&ch->tail, s->sent, __ATOMIC_RELEASE);
    wake_if_asleep(&ch->to_receiver.receiver_sleeping, s->cfg.symmetric_fences);
}

static int sender_reserve(cf_channel *ch, int may_wait, void **slot) {
    if (!ch || !slot) return -EINVAL;
    struct lamport_sender *s = &ch->sender;
    if (!s->reserved) {
        int rc = sender_ready(ch, may_wait);
        if (rc) return rc;
        s->reserved = 1;
    }
    *slot = slot_of(&s->cfg, s->sent) + s->cfg.payload_offset;
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

static int channel_send(cf_channel *ch, const void *message, size_t len, int may_wait) {
    if (!ch || (!message && len)) return -EINVAL;
    struct lamport_sender *s = &ch->sender;
    if (s->reserved) return -EINVAL;
    if (len > s->cfg.max_message) return -EMSGSIZE;
    int rc = sender_ready(ch, may_wait);
    if (rc) return rc;
    char *area = slot_of(&s->cfg, s->sent) + s->cfg.payload_offset;
    channel_homing_fill((cf_channel_homing)s->cfg.homing, area, message, len);
    sender_publish(ch, len, s->cfg.homing == CF_CHANNEL_HOMING_NTM);
    return 0;
}

int cf_channel_send(cf_channel *ch, const void *message, size_t len) { return channel_send(ch, message, len, 1); }
int cf_channel_try_send(cf_channel *ch, const void *message, size_t len) {
    return channel_send(ch, message, len, 0);
}

/* ---- receiver ---- */

static int receiver_has_message(cf_channel *ch, uint32_t spin) {
    (void)spin;
    if (__atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE) > ch->receiver.received) return 1;
    if (!is_closed(ch)) return 0;
    /* Closed: what was published before the close is visible now (close's store is a release). */
    return __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE) > ch->receiver.received ? 1 : -EPIPE;
}

static int receiver_acquire(cf_channel *ch, int may_wait) {
    struct lamport_receiver *r = &ch->receiver;
    if (r->acquired) return 0;
    int state = receiver_has_message(ch, CHANNEL_FINAL_CHECK);
    if (CF_UNLIKELY(state <= 0)) {
        if (state < 0) return state;
        if (!may_wait) return -EAGAIN;
        int rc = wait_until(ch, receiver_has_message, &ch->to_receiver.receiver_sleeping, r->cfg.spin_limit,
                            r->cfg.symmetric_fences);
        if (rc) return rc;
    }
    r->acquired = 1;
    r->acquired_len = (size_t)*slot_length(slot_of(&r->cfg, r->received));
    return 0;
}

static void receiver_release(cf_channel *ch) {
    struct lamport_receiver *r = &ch->receiver;
    r->received++;
    r->acquired = 0;
    __atomic_store_n(&ch->head, r->received, __ATOMIC_RELEASE);
    wake_if_asleep(&ch->to_sender.sender_sleeping, r->cfg.symmetric_fences);
}

static int channel_acquire(cf_channel *ch, void **message, size_t *len, int may_wait) {
    if (!ch || !message || !len) return -EINVAL;
    int rc = receiver_acquire(ch, may_wait);
    if (rc) return rc;
    *message = slot_of(&ch->receiver.cfg, ch->receiver.received) + ch->receiver.cfg.payload_offset;
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

static int channel_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len, int may_wait) {
    if (!ch || !len || (!buffer && capacity)) return -EINVAL;
    int rc = receiver_acquire(ch, may_wait);
    if (rc) return rc;
    struct lamport_receiver *r = &ch->receiver;
    size_t n = r->acquired_len;
    *len = n;
    if (n > capacity) return -EMSGSIZE; /* stays acquired: the next receive sees it again */
    memcpy(buffer, slot_of(&r->cfg, r->received) + r->cfg.payload_offset, n);
    receiver_release(ch);
    return 0;
}

int cf_channel_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return channel_receive(ch, buffer, capacity, len, 1);
}
int cf_channel_try_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return channel_receive(ch, buffer, capacity, len, 0);
}
