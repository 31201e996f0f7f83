/* Home-forwarded rdy-ack channels (see include/cacheflow/channel.h for the API,
 * include/cacheflow/internal/channel_fast.h for the inline fast path, docs/channel.md for the layout and
 * the measurements). This file holds what the fast path does not: creation, the
 * slow paths (waiting, homing, waking), and the library functions behind the API names.
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
 * Instead each event is a count written by one side only, and the boolean is derived:
 *   P = messages the sender has published, C = messages the receiver has consumed; message n's slot has
 *   rdy = (P > n) and, for the next message n + k of that slot, ack = (C > n).
 *   - rdy: P lives in the group header (docs/channel.md, GROUPS): seq = (P mod 2^32) of the group's last
 *     message, in the line of the message itself. The receiver waiting for message n tests
 *     (int32)(seq - n) > 0. Any older value there is 0 (never written) or from the previous lap, at least
 *     R > per_group messages behind, which the signed difference tells apart because R < 2^31.
 *   - ack: C is known to the sender in two ways, both written by the receiver without a shared index per
 *     message: the ACK bit of a finished group (in the line the sender will write next when it reuses the
 *     group) and the receiver's own position `received` (its line; the sender reads it only when the ACKs
 *     leave it without a free slot -- e.g. k = 1, or a receiver in the middle of a group). The sender
 *     keeps `known` <= C and a private free count k - (P - known); C only grows, so a stale copy
 *     under-estimates the free slots and is always safe.
 *   So, with k >= 2 and neither side waiting, a group of messages costs its line's transfer to the
 *   receiver (one per message when the receiver polls it, one per group when it lags), the receiver's ACK
 *   store in it and the sender's re-reading of it before it writes the group again -- instead of the four
 *   transfers per message of two shared flags.
 *
 * MEMORY ORDERING (C11 / GCC __atomic; x86 needs no fence instruction for any of these, aarch64 gets
 * ldar/stlr). The paper's correctness argument assumes sequential consistency and requires:
 *   (a) send row 3 (copy) after seeing ack: the sender's acquire load of an ACK header or of `received`
 *       synchronises with the receiver's release store of it, so the receiver's reads of the previous
 *       message in that slot happen before the sender overwrites it;
 *   (b) send row 5 (rdy) after row 3: the header is stored with release, after the message bytes;
 *   (c) receive row 3 only once rdy is seen: the header is loaded with acquire, before the message bytes;
 *   (d) receive row 5 (ack) after row 3: the ACK and `received` stores are releases, after the use.
 * (a)-(d) give the happens-before edges publish(n) -> use(n) -> overwrite(n + R), which is the SC proof's
 * ordering restricted to the accesses that conflict. The header word is written by both sides, but never
 * at the same time: the receiver sets ACK after the group's last message is published, and the sender
 * writes the group again only after (a) has shown that message consumed, i.e. after the ACK store
 * (made before the `received` store, so either way the sender's load sees it first).
 *
 * WAITING (spin, then futex, with the Dekker argument for why no wake-up is lost) and CLOSE are shared
 * with channel_lamport.c and explained in channel_common.h.
 *
 * LAYOUT. Every group of fields written by one side, or read-only, sits in its own 128-byte block (two
 * 64-byte lines: x86's adjacent-line prefetcher fetches lines in pairs, and some aarch64 cores have
 * 128-byte lines). Each side keeps a private copy of the geometry, so its fast path touches only its own
 * block, the slot line, and one read-mostly line of the other side. */
#define _GNU_SOURCE
#define CF_CHANNEL_RDYACK_IMPLEMENTATION 1 /* the struct and fast path, even under CF_CHANNEL_OUT_OF_LINE */
#include "cacheflow/channel.h"

#include <errno.h>
#include <string.h>

#include "arch/arch.h"
#include "channel_common.h"
#include "channel_homing.h"
#include "stats_internal.h"

_Static_assert(offsetof(struct cf_channel, sender) % CHANNEL_BLOCK == 0, "sender block alignment");
_Static_assert(offsetof(struct cf_channel, receiver) - offsetof(struct cf_channel, sender) >=
                   sizeof(struct cf_channel_sender_),
               "sender and receiver state must not share a line");
_Static_assert(offsetof(struct cf_channel, receiver) % CHANNEL_BLOCK == 0, "receiver block alignment");
_Static_assert(offsetof(struct cf_channel, to_receiver) % CHANNEL_BLOCK == 0, "wake line alignment");
_Static_assert(offsetof(struct cf_channel, to_sender) % CHANNEL_BLOCK == 0, "wake line alignment");
_Static_assert(offsetof(struct cf_channel, shared) % CHANNEL_BLOCK == 0, "read-only block alignment");
_Static_assert(CF_CHANNEL_MAX_SLOTS + 7 < ((size_t)1 << 31), "seq (mod 2^32) must tell laps apart: R < 2^31");
_Static_assert(CF_CHANNEL_MAX_MESSAGE < ((size_t)1 << 31), "a length must fit the header's 31 length bits");

#define GROUP_HEADER_BYTES 8 /* packed groups: the header word, then the slots */
#define PACKED_SLOTS_BYTES (CHANNEL_LINE - GROUP_HEADER_BYTES)

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

static inline uint64_t *group_header(char *group) { return (uint64_t *)(void *)group; }

/* ---- creation ---- */

/* The slot geometry the options ask for (-EINVAL for invalid options): *g without its addresses, the layout in
 * use, the bytes of the groups and of the whole slot memory (groups, then the word layout's side entries). */
static int channel_geometry(const cf_channel_options *options, struct cf_channel_geometry_ *out,
                            cf_channel_layout *layout_out, size_t *slot_bytes_out, size_t *bytes_out) {
    int rc = cf_chan_check_options(options);
    if (rc) return rc;

    cf_channel_layout layout = options->layout;
    if (layout == CF_CHANNEL_LAYOUT_AUTO)
        layout = options->homing != CF_CHANNEL_HOMING_NONE ? CF_CHANNEL_LAYOUT_LINE
                 : options->max_message == 8               ? CF_CHANNEL_LAYOUT_WORD
                 : options->max_message < 8                ? CF_CHANNEL_LAYOUT_TAGGED
                 : options->max_message <= 24              ? CF_CHANNEL_LAYOUT_PACKED
                                                           : CF_CHANNEL_LAYOUT_LINE;
    size_t max = options->max_message;
    struct cf_channel_geometry_ g = {.max_message = max, .slots = options->slots, .per_group = 1};
    if (layout == CF_CHANNEL_LAYOUT_WORD) {
        /* Exactly k slot words, 8 to a line (docs/channel.md, WORD); the side entries follow the last line. */
        g.word = 1;
        g.per_group = 8;
        g.slot_stride = 8;
        g.group_stride = CHANNEL_LINE;
    } else if (layout == CF_CHANNEL_LAYOUT_TAGGED) {
        /* Exactly k slots, 7 to a line after their 7 tag bytes (docs/channel.md, TAGGED); the last line may be
         * partly used. */
        g.tagged = 1;
        g.per_group = CF_CHANNEL_TAGGED_PER_LINE_;
        g.slot_stride = 8;
        g.payload_offset = CF_CHANNEL_TAGGED_PAYLOAD_;
        g.group_stride = CHANNEL_LINE;
    } else if (layout == CF_CHANNEL_LAYOUT_PACKED) {
        /* A header word, then slots of whole words: 7 messages of up to 8 bytes in one line, 3 of 16,
         * 2 of 24, 1 up to 56; larger ones one per group of whole lines. */
        size_t slot = max < 8 ? 8 : round_up(max, 8);
        g.slot_stride = slot;
        g.per_group = slot <= PACKED_SLOTS_BYTES ? (uint32_t)(PACKED_SLOTS_BYTES / slot) : 1;
        g.payload_offset = GROUP_HEADER_BYTES;
        g.group_stride = round_up(GROUP_HEADER_BYTES + g.per_group * slot, CHANNEL_LINE);
    } else {
        /* The paper's padded slot: messages up to 48 bytes share the header's line; larger ones start on
         * the next line so that streaming stores and cleaning work on whole, aligned lines. */
        g.payload_offset = max <= CHANNEL_LINE - HEADER_BYTES ? HEADER_BYTES : CHANNEL_LINE;
        g.group_stride = round_up(g.payload_offset + max, CHANNEL_LINE);
    }
    g.length_bits = 31 / g.per_group;
    g.ring = g.tagged || g.word ? options->slots : round_up(options->slots + g.per_group - 1, g.per_group);
    /* The receiver prefetches the group two ahead of the one it enters: without it every group costs it a
     * demand miss on a line the sender wrote (measured: about half FastForward's throughput at k = 1024).
     * Only in rings of 8 groups or more, where that group is long written, not one the sender is filling. */
    /* Not in word rings: they wait on their own slot and do not prefetch (prefetch_ahead also marks the large
     * rings whose sender waits for the slot 64 ahead); with the word fast path both habits measured level or
     * worse (docs/channel.md, word layout). */
    if (!g.word && g.ring / g.per_group >= 8) g.prefetch_ahead = 2 * g.group_stride;
    g.spin_limit = options->spin_limit ? options->spin_limit : CF_CHANNEL_SPIN_DEFAULT;
    g.homing = (uint32_t)options->homing;
    g.symmetric_fences = (uint32_t)cf_chan_symmetric_fences(options);
    g.direct = g.word && max == 8 && !g.symmetric_fences;

    size_t bytes, slot_bytes, escape_bytes = 0;
    if (__builtin_mul_overflow((g.ring + g.per_group - 1) / g.per_group, g.group_stride, &slot_bytes)) return -ENOMEM;
    if (g.word && __builtin_mul_overflow(g.ring, sizeof(struct cf_channel_escape_), &escape_bytes)) return -ENOMEM;
    if (__builtin_add_overflow(slot_bytes, escape_bytes, &bytes)) return -ENOMEM;
    *out = g;
    *layout_out = layout;
    *slot_bytes_out = slot_bytes;
    *bytes_out = bytes;
    return 0;
}

/* Both sides' state as at creation: positions at the first slot, every slot free, nothing reserved or
 * acquired, open. The geometry is the sender's copy (both copies are equal and read-only). */
static void init_sides(cf_channel *ch, const struct cf_channel_geometry_ *geometry) {
    struct cf_channel_geometry_ g = *geometry;
    memset(&ch->sender, 0, sizeof ch->sender);
    memset(&ch->receiver, 0, sizeof ch->receiver);
    ch->sender.g = g;
    ch->sender.free = g.slots;
    ch->sender.group = g.groups;
    ch->sender.slot = g.groups + g.payload_offset;
    ch->receiver.g = g;
    ch->receiver.group = g.groups;
    ch->receiver.slot = g.groups + g.payload_offset;
    ch->sender.fast.part[0] = (uint8_t)g.direct; /* nothing reserved or acquired yet, open */
    ch->receiver.fast = g.direct;
}

/* cf_channel_create (given 0: the slots mapped) and cf_channel_create_in (given 1: the caller's storage). */
static int channel_create(cf_channel **out, const cf_channel_options *options, int given, void *storage,
                          size_t storage_bytes) {
    if (!out) return -EINVAL;
    *out = NULL;
    struct cf_channel_geometry_ g;
    cf_channel_layout layout;
    size_t slot_bytes, bytes;
    int rc = channel_geometry(options, &g, &layout, &slot_bytes, &bytes);
    if (rc) return rc;
    void *memory;
    struct cf_channel_shared_ shared;
    rc = given ? cf_chan_allocate_in(sizeof(cf_channel), bytes, storage, storage_bytes, &memory, &shared)
               : cf_chan_allocate(sizeof(cf_channel), bytes, &memory, &shared);
    if (rc) return rc;
    shared.slots_count = options->slots;
    shared.max_message = options->max_message;
    shared.layout = layout;
    g.groups = shared.slots;
    g.groups_end = shared.slots + slot_bytes;
    if (g.word) { /* the slot after the k-th, and the side entries from the next line on */
        g.groups_end = shared.slots + options->slots * 8;
        g.escapes = shared.slots + slot_bytes;
    }
    if (g.tagged) /* the address cf_channel_tagged_next_ reaches after the k-th slot */
        g.groups_end = shared.slots + options->slots / CF_CHANNEL_TAGGED_PER_LINE_ * CHANNEL_LINE +
                       CF_CHANNEL_TAGGED_PAYLOAD_ + options->slots % CF_CHANNEL_TAGGED_PER_LINE_ * 8;

    cf_channel *ch = memory;
    ch->shared = shared;
    init_sides(ch, &g);
    *out = ch;
    return 0;
}

int cf_channel_create(cf_channel **out, const cf_channel_options *options) {
    return channel_create(out, options, 0, NULL, 0);
}

int cf_channel_storage_size(const cf_channel_options *options, size_t *bytes, size_t *align) {
    struct cf_channel_geometry_ g;
    cf_channel_layout layout;
    size_t slot_bytes, all;
    int rc = channel_geometry(options, &g, &layout, &slot_bytes, &all);
    return rc ? rc : cf_chan_storage_bytes(all, bytes, align);
}

int cf_channel_create_in(cf_channel **out, const cf_channel_options *options, void *storage, size_t bytes) {
    return channel_create(out, options, 1, storage, bytes);
}

int cf_channel_reset(cf_channel *ch) {
    if (!ch) return -EINVAL;
    /* All-zero slots are the initial state of every layout: group headers with seq 0 and no ACK, tags 0
     * (empty), slot words 0 (EMPTY as stored); the word layout's side entries are written before use. */
    cf_chan_clear_slots(&ch->shared);
    struct cf_channel_geometry_ g = ch->sender.g;
    init_sides(ch, &g);
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
    if (!ch) return;
    cf_chan_close(&ch->to_receiver, &ch->to_sender);
    /* After `closed`: a sender that sees this byte and takes the general path finds the channel closed. */
    __atomic_store_n(&ch->sender.fast.part[1], (uint8_t)1, __ATOMIC_RELEASE);
}

size_t cf_channel_max_message(const cf_channel *ch) { return ch ? ch->shared.max_message : 0; }
size_t cf_channel_slots(const cf_channel *ch) { return ch ? ch->shared.slots_count : 0; }
cf_channel_layout cf_channel_layout_of(const cf_channel *ch) { return ch ? ch->shared.layout : CF_CHANNEL_LAYOUT_AUTO; }

static int is_closed(cf_channel *ch) { return channel_closed(&ch->to_receiver); }

/* One check of `condition` (channel_common.h) without counting a wait; then -EAGAIN for try_ calls, or
 * the spin-then-futex wait on `sleeping` with the side's spin budget. */
static int check_then_wait(cf_channel *ch, channel_condition condition, uint32_t *sleeping,
                           const struct cf_channel_geometry_ *g, int may_wait) {
    int state = condition(ch, CHANNEL_FINAL_CHECK);
    if (state != 0) return state > 0 ? 0 : state;
    if (!may_wait) return -EAGAIN;
    return wait_until(ch, condition, sleeping, g->spin_limit, (int)g->symmetric_fences);
}

/* ---- sender ---- */

/* Waiting in a large ring (8 groups or more), the sender polls the ACKs every spin but reads the
 * receiver's position only every POSITION_POLL spins: it is the receiver's busiest line, and every read of
 * it costs the receiver's next store an ownership transfer. For the first BATCH_SPINS spins of a wait it
 * waits for a batch of free slots (half the ring, at most BATCH_SLOTS) rather than chase the receiver one
 * slot at a time; after that, and before sleeping, one free slot is enough, so a receiver that stops after
 * taking a few messages only delays the sender. Small rings: every SMALL_RING_POLL spins, any slot. */
#define POSITION_POLL 4
#define BATCH_SLOTS 32
#define BATCH_SPINS 256
#define SMALL_RING_POLL 8

/* Refreshes what the sender knows the receiver has consumed: the ACKs of the groups the receiver has
 * finished (lines the sender will write again anyway; while waiting it polls only the one the receiver is
 * in), then, if that leaves fewer than `want` slots free and `read_position`, the receiver's position.
 * Each acquire load is (a). Returns 1 with `want` slots free, -EPIPE when closed, else 0. */
static int sender_refresh(cf_channel *ch, uint64_t want, int read_position) {
    struct cf_channel_sender_ *s = &ch->sender;
    const struct cf_channel_geometry_ *g = &s->g;
    for (;;) {
        uint64_t last = s->known - s->known % g->per_group + g->per_group - 1; /* its group's last message */
        if (last >= s->sent) break;                                           /* not all published yet */
        char *group = g->groups + (size_t)(s->known % g->ring / g->per_group) * g->group_stride;
        uint64_t header = __atomic_load_n(group_header(group), __ATOMIC_ACQUIRE);
        if (!(header & CF_CHANNEL_ACK_) || (uint32_t)header != (uint32_t)(last + 1)) break;
        s->known = last + 1;
    }
    if (read_position && s->sent - s->known + want > g->slots) {
        /* The receiver stores a group's ACK before its position, so the position can lag what the ACK
         * showed: keep the larger. */
        uint64_t received = __atomic_load_n(&ch->receiver.received, __ATOMIC_ACQUIRE);
        if (received > s->known) s->known = received;
    }
    s->free = g->slots - (s->sent - s->known);
    if (is_closed(ch)) return -EPIPE;
    return s->free >= want;
}

/* The waiting sender's condition (channel_common.h): the batch and the polling rates above. */
static int sender_refill(cf_channel *ch, uint32_t spin) {
    if (spin == CHANNEL_FINAL_CHECK) return sender_refresh(ch, 1, 1);
    /* Small rings (the same test as the receiver's prefetch): any slot, but ACKs and position are read
     * only every SMALL_RING_POLL spins -- polling them on every spin was measured slower at k = 8. */
    if (!ch->sender.g.prefetch_ahead) {
        if (spin % SMALL_RING_POLL == SMALL_RING_POLL - 1) return sender_refresh(ch, 1, 1);
        return is_closed(ch) ? -EPIPE : 0;
    }
    uint64_t slots = ch->sender.g.slots;
    uint64_t want = spin >= BATCH_SPINS ? 1 : slots / 2 < BATCH_SLOTS ? (slots + 1) / 2 : BATCH_SLOTS;
    return sender_refresh(ch, want, spin % POSITION_POLL == POSITION_POLL - 1);
}

int cf_chan_rdyack_sender_wait(cf_channel *ch, int may_wait) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (is_closed(ch)) return -EPIPE;
    if (s->free > 0) return 0;
    /* Small rings: a slot free by the ACKs or the position means no wait (and none counted). Large rings:
     * the ACKs alone, then the batching wait, so that a full ring is not refilled one slot at a time
     * from the receiver's busiest line; try_ calls read the position before saying -EAGAIN. */
    int state = sender_refresh(ch, 1, !s->g.prefetch_ahead || !may_wait);
    if (state != 0) return state > 0 ? 0 : state;
    if (!may_wait) return -EAGAIN;
    return wait_until(ch, sender_refill, &ch->to_sender.sender_sleeping, s->g.spin_limit,
                      (int)s->g.symmetric_fences);
}

/* Tagged rings: the tag of the slot `ahead` slots after `slot` (ahead < k). */
static uint8_t *tag_ahead(const struct cf_channel_geometry_ *g, char *slot, uint64_t ahead) {
    size_t line = (size_t)(slot - g->groups) / CHANNEL_LINE;
    uint64_t pos = (line * CF_CHANNEL_TAGGED_PER_LINE_ + ((uintptr_t)slot % CHANNEL_LINE) / 8 - 1 + ahead) % g->ring;
    return (uint8_t *)g->groups + pos / CF_CHANNEL_TAGGED_PER_LINE_ * CHANNEL_LINE + pos % CF_CHANNEL_TAGGED_PER_LINE_;
}

/* Tagged and word rings: the sender waits for its slot's tag (word: the slot word) to be empty
 * (FastForward's test). Tagged rings only, as measured:
 * a full ring in a large ring (8 lines or more) -- the receiver is the slower side -- is the case where
 * polling the slot makes every message cost two transfers of the line the receiver is working in (the
 * sender's read, then the receiver's tag store taking it back): measured as the slow mode of k = 1024,
 * 20-50 M msgs/s. So for the first BATCH_SPINS spins the sender waits for the slot TAGGED_BATCH ahead to
 * be empty instead -- a line the receiver has not reached yet, so the poll costs it nothing -- and then
 * fills the whole batch behind the receiver; it implies this slot is empty too (the receiver empties in
 * order, and the acquire load of the later tag orders its use of this one too). After that, and before
 * sleeping, this slot alone. */
#define TAGGED_BATCH 64

static int tagged_slot_empty(cf_channel *ch, uint32_t spin) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (is_closed(ch)) return -EPIPE;
    if (s->g.word) return __atomic_load_n(cf_channel_word_(s->slot), __ATOMIC_ACQUIRE) == 0; /* (a), its own slot */
    int ahead = s->g.prefetch_ahead && spin < BATCH_SPINS && TAGGED_BATCH < s->g.ring;
    uint8_t *tag = ahead ? tag_ahead(&s->g, s->slot, TAGGED_BATCH) : cf_channel_tag_(s->slot);
    return __atomic_load_n(tag, __ATOMIC_ACQUIRE) == 0; /* (a) */
}

int cf_chan_rdyack_tagged_sender_wait(cf_channel *ch, int may_wait) {
    return check_then_wait(ch, tagged_slot_empty, &ch->to_sender.sender_sleeping, &ch->sender.g, may_wait);
}

/* Word rings, the escape path: the side entry is the sender's while the slot is EMPTY (it saw that with
 * acquire, (a)); plain stores, published by the caller's release store of ESCAPE (b). A zero-copy commit
 * passes the entry itself. */
uint64_t cf_chan_rdyack_word_escape(const struct cf_channel_geometry_ *g, char *slot, const void *message,
                                    size_t len) {
    struct cf_channel_escape_ *e = cf_channel_escape_of_(g, slot);
    if (len && message != &e->bytes) memcpy(&e->bytes, message, len);
    e->length = len;
    return CF_CHANNEL_WORD_ESCAPED_;
}

/* Homing (channel_homing.h): the message lines beyond the header's line go before rdy, the header's line
 * after the header store, so that it moves with rdy in it. */
static void push_message_lines(cf_channel_homing homing, char *group, char *slot, size_t len) {
    char *beyond_header = group + CHANNEL_LINE;
    char *start = slot > beyond_header ? slot : beyond_header;
    if (slot + len > start) channel_homing_push(homing, start, (size_t)(slot + len - start));
}

static int publish_homed(cf_channel *ch, size_t len, int fenced) {
    struct cf_channel_sender_ *s = &ch->sender;
    cf_channel_homing homing = (cf_channel_homing)s->g.homing;
    char *group = s->group;
    if (homing == CF_CHANNEL_HOMING_NTM) {
        if (!fenced) channel_homing_push(homing, NULL, 0);
    } else {
        push_message_lines(homing, group, s->slot, len);
    }
    cf_channel_publish_store_(ch, len);
    if (homing != CF_CHANNEL_HOMING_NTM) channel_homing_push(homing, group, 1);
    cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
    return 0;
}

int cf_chan_rdyack_send_homed(cf_channel *ch, const void *message, size_t len) {
    struct cf_channel_sender_ *s = &ch->sender;
    channel_homing_fill((cf_channel_homing)s->g.homing, s->slot, message, len);
    return publish_homed(ch, len, s->g.homing == CF_CHANNEL_HOMING_NTM);
}

int cf_chan_rdyack_commit_homed(cf_channel *ch, size_t len) { return publish_homed(ch, len, 0); }

void cf_chan_rdyack_wake_receiver(cf_channel *ch) {
    wake_if_asleep(&ch->to_receiver.receiver_sleeping, (int)ch->sender.g.symmetric_fences);
}

void cf_chan_rdyack_wake_sender(cf_channel *ch) {
    wake_if_asleep(&ch->to_sender.sender_sleeping, (int)ch->receiver.g.symmetric_fences);
}

/* ---- receiver ---- */

/* (c): the acquire load of the header orders the message reads after it. */
static int receiver_poll(cf_channel *ch) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    uint64_t header = __atomic_load_n(group_header(r->group), __ATOMIC_ACQUIRE);
    int32_t ready = (int32_t)((uint32_t)header - (uint32_t)r->received);
    if (ready <= 0) return 0;
    cf_channel_announced_(r, header, (uint32_t)ready);
    return 1;
}

static int receiver_has_message(cf_channel *ch, uint32_t spin) {
    (void)spin;
    if (receiver_poll(ch)) return 1;
    if (!is_closed(ch)) return 0;
    /* Closed: whatever was committed before the close is visible now (close's store is a release). */
    return receiver_poll(ch) ? 1 : -EPIPE;
}

/* The receiver took the last message announced and the sender was still filling that group: one pause
 * before looking again, so that the sender can publish several messages per line transfer instead of
 * one (FastForward's "temporal slipping", in small). Measured at k = 1024: 35 -> 100-117 M messages/s
 * in a run where the receiver kept up (it polled the line being filled, one transfer per message). */
int cf_chan_rdyack_receiver_slip(cf_channel *ch, int may_wait) {
    cf_arch_cpu_relax(); /* large rings only (caught_up): at k = 8 the pause only delayed the hand-back */
    return cf_chan_rdyack_receiver_wait(ch, may_wait);
}

/* Tagged and word rings: the receiver waits for its slot's tag (word: the slot word) to be full; (c) as
 * in the fast path. */
static int tagged_poll(cf_channel *ch) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    uint64_t flag = r->g.word ? __atomic_load_n(cf_channel_word_(r->slot), __ATOMIC_ACQUIRE)
                              : __atomic_load_n(cf_channel_tag_(r->slot), __ATOMIC_ACQUIRE);
    if (flag == 0) return 0;
    r->header = flag;
    return 1;
}

static int tagged_slot_full(cf_channel *ch, uint32_t spin) {
    (void)spin;
    if (tagged_poll(ch)) return 1;
    if (!is_closed(ch)) return 0;
    return tagged_poll(ch) ? 1 : -EPIPE; /* closed: what was committed before is visible now */
}

int cf_chan_rdyack_tagged_receiver_wait(cf_channel *ch, int may_wait) {
    return check_then_wait(ch, tagged_slot_full, &ch->to_receiver.receiver_sleeping, &ch->receiver.g, may_wait);
}

int cf_chan_rdyack_receiver_wait(cf_channel *ch, int may_wait) {
    return check_then_wait(ch, receiver_has_message, &ch->to_receiver.receiver_sleeping, &ch->receiver.g, may_wait);
}

/* ---- the API names as library functions (for CF_CHANNEL_OUT_OF_LINE users and function pointers) ---- */

int(cf_channel_reserve)(cf_channel *ch, void **slot) { return cf_channel_reserve_(ch, slot, 1); }
int(cf_channel_try_reserve)(cf_channel *ch, void **slot) { return cf_channel_reserve_(ch, slot, 0); }
int(cf_channel_commit)(cf_channel *ch, size_t len) { return cf_channel_commit_(ch, len); }
int(cf_channel_send)(cf_channel *ch, const void *message, size_t len) { return cf_channel_send_(ch, message, len, 1); }
int(cf_channel_try_send)(cf_channel *ch, const void *message, size_t len) {
    return cf_channel_send_(ch, message, len, 0);
}
int(cf_channel_acquire)(cf_channel *ch, void **message, size_t *len) { return cf_channel_acquire_(ch, message, len, 1); }
int(cf_channel_try_acquire)(cf_channel *ch, void **message, size_t *len) {
    return cf_channel_acquire_(ch, message, len, 0);
}
int(cf_channel_release)(cf_channel *ch) { return cf_channel_release_checked_(ch); }
int(cf_channel_receive)(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return cf_channel_receive_(ch, buffer, capacity, len, 1);
}
int(cf_channel_try_receive)(cf_channel *ch, void *buffer, size_t capacity, size_t *len) {
    return cf_channel_receive_(ch, buffer, capacity, len, 0);
}
