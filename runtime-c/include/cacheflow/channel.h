/* Home-forwarded rdy-ack channels: single-producer single-consumer message passing between two threads.
 *
 * A channel has k >= 1 slots used round-robin. Each slot is the paper's rdy-ack pair plus a message area:
 * the sender waits for the slot's ack, fills the message, raises rdy; the receiver waits for rdy, uses the
 * message, raises ack. The slot memory is homed at the receiver (first-touched by it, see
 * cf_channel_home_here) and the sender can push what it wrote out of its own caches after writing
 * (cf_channel_homing), the commodity analogue of home-forward stores with self-invalidation.
 * The protocol, its memory orderings and the cache-line budget are explained at the fast path below and
 * in src/channel.c, waiting and closing in src/channel_common.h, and in docs/channel.md.
 *
 * Inline fast path: the send/receive family below is also defined in this header (static inline, behind
 * macros of the same names), so a message costs no call when the slot is ready; only waiting, homing
 * and closing call into the library. Define CF_CHANNEL_OUT_OF_LINE to call the library functions instead
 * (the library build with the Lamport ring, -DCF_CHANNEL_IMPL=lamport, exports it to its users).
 *
 * Threads: exactly one thread sends (reserve/commit/send) and exactly one receives
 * (acquire/release/receive) at a time; cf_channel_close may be called from either side or a third
 * thread. Waiting spins with a pause instruction, then sleeps in the kernel (futex); the wake-up system
 * call is made only when the other side has announced it is asleep.
 *
 * Errors are negative errno values:
 *   -EINVAL    bad argument (NULL, slots == 0, sizes beyond the limits below, release without acquire ...)
 *   -EMSGSIZE  message longer than the slot (send/commit), or than the caller's buffer (receive; the
 *              message then stays in the channel)
 *   -ENOMEM    the slot memory or the channel could not be allocated (nothing is leaked)
 *   -EPIPE     the channel is closed (senders: at once; receivers: once every message is drained)
 *   -EAGAIN    cf_channel_try_*: would have to wait */
#ifndef CACHEFLOW_CHANNEL_H
#define CACHEFLOW_CHANNEL_H
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cf_channel cf_channel;

/* What the sender does so that the written lines reach the receiver without the receiver having to
 * pull them out of the sender's private caches. */
typedef enum cf_channel_homing {
    CF_CHANNEL_HOMING_NONE = 0, /* ordinary stores; the receiver's reads fetch lines from the sender */
    CF_CHANNEL_HOMING_NTM = 1,  /* cf_channel_send copies with non-temporal stores (cf_ntm_copy);
                                   zero-copy senders fill with cf_ntm_copy or cf_prestore_write(CF_SKIP)
                                   themselves, and cf_channel_commit fences before raising rdy */
    CF_CHANNEL_HOMING_CLEAN = 2, /* ordinary stores, then the written lines are cleaned (written back:
                                    cf_prestore CF_CLEAN) */
    CF_CHANNEL_HOMING_DEMOTE = 3 /* ordinary stores, then the written lines are demoted to the shared
                                    cache level (cf_prestore CF_DEMOTE) */
} cf_channel_homing;

/* How slots are laid out. Slots come in groups that share one header word (rdy: the sequence number of
 * the group's last published message and the lengths), in the cache line of the group's first message,
 * so that raising rdy and the message share one line. */
typedef enum cf_channel_layout {
    CF_CHANNEL_LAYOUT_AUTO = 0,   /* homing NONE: WORD for exactly 8 bytes, TAGGED below 8, PACKED up to 24;
                                     else LINE */
    CF_CHANNEL_LAYOUT_LINE = 1,   /* every slot starts on its own cache line (the paper's padded slots):
                                     one line per message up to 48 bytes */
    CF_CHANNEL_LAYOUT_PACKED = 2, /* one header word per cache line, then as many slots (rounded to 8
                                     bytes) as fit: 7 messages of up to 8 bytes per line, 3 of 16, 2 of 24,
                                     so a lagging receiver gets several per line transfer */
    CF_CHANNEL_LAYOUT_TAGGED = 3, /* messages of up to 8 bytes only (else -EINVAL), homing NONE: a line
                                     holds 7 one-byte slot tags (rdy/ack and the length) and the 7 slots;
                                     exactly k slots, no shared index, no header */
    CF_CHANNEL_LAYOUT_WORD = 4    /* messages of up to 8 bytes only (else -EINVAL), homing NONE: a
                                     FastForward ring, exactly k 8-byte words, 8 to a line; a word equal to
                                     CF_CHANNEL_WORD_EMPTY is an empty slot, anything else a message. Any
                                     other message (shorter than 8 bytes, or the value EMPTY or ESCAPE)
                                     goes through a side entry per slot, announced by ESCAPE in the slot */
} cf_channel_layout;

/* The word layout's two reserved slot values (messages with these values still work: they take the
 * escape path). Unlikely payloads on purpose: signalling NaNs with a non-zero payload as doubles (no
 * floating-point operation produces one), beyond any user-space pointer, far from small integers. ESCAPE
 * is EMPTY with the lowest bit flipped: stored (XOR EMPTY) they are 0 and 1, so "a plain value" is one
 * compare on the fast paths. */
#define CF_CHANNEL_WORD_EMPTY UINT64_C(0x7ff5e3a7c19b2d4f)
#define CF_CHANNEL_WORD_ESCAPE UINT64_C(0x7ff5e3a7c19b2d4e)

enum {
    CF_CHANNEL_SPIN_DEFAULT = 2048,     /* pause iterations before sleeping when spin_limit == 0 */
    CF_CHANNEL_NO_MEMBARRIER = 1u << 0, /* flag: use a full fence on every message instead of membarrier()
                                           on the sleep path (for tests and measurements) */
};
#define CF_CHANNEL_MAX_SLOTS ((size_t)1 << 30)
#define CF_CHANNEL_MAX_MESSAGE ((size_t)1 << 30)

typedef struct cf_channel_options {
    size_t slots;              /* k: messages the sender may have in flight; 1 .. CF_CHANNEL_MAX_SLOTS
                                  (packed groups: k + per-group - 1 slots, rounded up to whole groups,
                                  are mapped, so that a group is never shared by two laps) */
    size_t max_message;        /* bytes per slot, 0 .. CF_CHANNEL_MAX_MESSAGE */
    cf_channel_homing homing;  /* default CF_CHANNEL_HOMING_NONE */
    cf_channel_layout layout;  /* default CF_CHANNEL_LAYOUT_AUTO */
    uint32_t spin_limit;       /* pause iterations before sleeping; 0 = CF_CHANNEL_SPIN_DEFAULT (the word
                                  layout's fast paths first wait inline for up to min(256, spin_limit) more) */
    uint32_t flags;            /* CF_CHANNEL_NO_MEMBARRIER; 0 normally */
} cf_channel_options;

/* Creates a channel; the slot memory is reserved but not touched. Any thread may call this. */
int cf_channel_create(cf_channel **out, const cf_channel_options *options);

/* Makes the calling thread the home of the slot memory by touching it first (its pages are placed on the
 * caller's NUMA node and its lines start in the caller's cache). Call it on the receiver, before the
 * sender's first operation and ordered before it (e.g. before starting the sender thread). Optional:
 * without it the channel works the same, with the pages placed wherever they are first written. Pages
 * already touched are not moved. */
int cf_channel_home_here(cf_channel *ch);

/* Frees the channel. Only once neither side uses it any more. NULL is allowed. */
void cf_channel_destroy(cf_channel *ch);

/* Wakes both sides and makes further sends fail with -EPIPE; the receiver still gets every message
 * committed before the close, then -EPIPE. Idempotent; callable from any thread. */
void cf_channel_close(cf_channel *ch);

size_t cf_channel_max_message(const cf_channel *ch);
size_t cf_channel_slots(const cf_channel *ch);
/* The slot layout in use: the one asked for, or AUTO's choice (never AUTO). The Lamport build lays out its
 * ring as LINE or, for every other layout asked for, PACKED. NULL: CF_CHANNEL_LAYOUT_AUTO. */
cf_channel_layout cf_channel_layout_of(const cf_channel *ch);

/* Zero-copy sender: reserve the next slot (waiting for its ack), fill up to max_message bytes at *slot,
 * commit len bytes (raising rdy). Reserving again before committing returns the same slot; sending while a
 * slot is reserved is -EINVAL. The slot area
 * is aligned to 16 bytes, and to a cache line when max_message exceeds 48 bytes (packed and tagged
 * layouts: to 8 bytes; word layout: the slot's side entry, 16 bytes). */
int cf_channel_reserve(cf_channel *ch, void **slot);
int cf_channel_try_reserve(cf_channel *ch, void **slot);
int cf_channel_commit(cf_channel *ch, size_t len);

/* Zero-copy receiver: acquire the next message (waiting for its rdy); it may be read and modified in place
 * until cf_channel_release (raising ack). Acquiring again before releasing returns the same message, and so
 * does cf_channel_receive (which then copies and releases it). */
int cf_channel_acquire(cf_channel *ch, void **message, size_t *len);
int cf_channel_try_acquire(cf_channel *ch, void **message, size_t *len);
int cf_channel_release(cf_channel *ch);

/* Copying API: one message of len <= max_message bytes. On receive, *len gets the message length;
 * a message longer than capacity is left in the channel and -EMSGSIZE returned. */
int cf_channel_send(cf_channel *ch, const void *message, size_t len);
int cf_channel_try_send(cf_channel *ch, const void *message, size_t len);
int cf_channel_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len);
int cf_channel_try_receive(cf_channel *ch, void *buffer, size_t capacity, size_t *len);


/* ======== internals: the rdy-ack channel's layout and inline fast path (not API; may change) ========
 *
 * GROUPS. The k slots (rounded up, see below) are used round-robin; per_group consecutive slots share a
 * group whose first word is the header: bits 0-31 seq = (n + 1) mod 2^32 of the group's last published
 * message n, bits 32-62 the lengths of the group's messages (length_bits each), bit 63 ACK. Line layout:
 * one slot per group (the paper's padded slot). Packed layout: a 64-byte line holds the header and 7
 * messages of up to 8 bytes (3 of 16, 2 of 24) -- the "as many messages per line as fit".
 *
 * RDY. The sender publishes message n with one release store of the group header (seq, lengths so far);
 * the receiver waiting for message n loads it with acquire and has it once (int32)(seq - n) > 0. One load
 * can show several messages of the group: the receiver keeps that count (`ready`) and the header, and
 * reads the next messages without touching the header again (batching when it lags). Two more measured
 * habits (src/channel.c): a receiver that lags prefetches the group two ahead (large rings), and one
 * that took the last message of a group still being filled pauses once before loading the header again,
 * so that the sender gets several messages into the line before the receiver pulls it back.
 *
 * ACK. The receiver writes no separate ack index per message: its position `received`, which it keeps
 * anyway, sits in its own state block (a release store, no extra line; the sender reads it only when the
 * ACKs leave it without a free slot), and when it releases a group's last message it sets ACK in that
 * group's header -- a line the sender will write anyway when it comes back. The sender counts free slots privately (`free`); when the count runs out it
 * first reads the headers of the groups the receiver has finished (ACK: the whole group consumed), and
 * only then `received`. k stays exact: the sender never has more than k messages in flight.
 * Two laps never share a group: the ring holds R = k + per_group - 1 slots rounded up to whole groups, so
 * when the sender starts a group (at most k in flight) the group's previous messages are all consumed,
 * and the receiver's ACK store (made before its `received` store) precedes the sender's new header.
 *
 * ORDERING. (a) the sender overwrites a slot only after an acquire load (ACK or `received`) that saw the
 * receiver's release store made after its last use of the slot; (b) the header store is a release after
 * the message bytes; (c) the receiver's header load is an acquire before it reads them; (d) the receiver's
 * ACK and `received` stores are releases after its use. x86: plain moves; aarch64: ldar/stlr.
 *
 * TAGGED (CF_CHANNEL_LAYOUT_TAGGED, the default for messages shorter than 8 bytes without homing). No group
 * header and no count at all: a 64-byte line holds 7 one-byte tags (bytes 0-6; byte 7 unused) and the 7
 * slots of 8 bytes (bytes 8-63), and the ring has exactly k slots (k = 8: a line of 7 and a line holding
 * 1). A tag is rdy and ack in one byte: 0 = empty, the sender's (ack); FULL | length = the receiver's
 * (rdy). The sender waits for its slot's tag to be 0 (acquire: (a)), copies, stores FULL | len (release:
 * (b)); the receiver waits for non-zero (acquire: (c)), copies out, stores 0 (release: (d)) -- the paper's
 * one-slot protocol per slot, with the pair (rdy, ack) encoded as one byte that the two sides write in
 * turn, never at once (each writes it only after seeing the other's value). FastForward's test of the
 * slot itself, with the emptiness moved out of the payload into the tag so that every 8-byte value can
 * be sent, its length delivered, and k stay exact (a slot never holds two laps). Each side's whole
 * position is one pointer: the slot's address gives its tag (lines are 64-byte aligned), so the per-message
 * path is: sender -- a tag load, the copy, a tag store, the pointer step, the closed and sleeping flags
 * (one read-mostly line); receiver -- a tag load, the copy, a tag store, the pointer step, the sleeping flag.
 * Lines: the sender's tag load and the receiver's tag store touch the slot's own line, so "is it free"
 * and "here is the message" travel with the message, 7 messages per line transfer when the sides are a
 * line or more apart; k = 8 spans two lines where FastForward's ring of 8 words fits one (no room for 8
 * tags). Large rings (8 lines or more): a sender that finds the ring full waits first for the slot 64
 * ahead (src/channel.c), so that it does not poll the line the receiver is emptying, and a receiver entering
 * a line prefetches the line two ahead (docs/channel.md: distance 4 pulled lines still being written).
 *
 * WORD (CF_CHANNEL_LAYOUT_WORD, the default for 8-byte messages without homing). FastForward's ring with an
 * escape hatch: exactly k 8-byte slot words, 8 to a 64-byte line (k = 8: one line), and a side array of k
 * entries {8 bytes, length} after them. A slot holding EMPTY is the sender's (ack), anything else the
 * receiver's (rdy). An 8-byte message whose value is neither EMPTY nor ESCAPE is the slot word itself: the
 * sender waits for EMPTY (acquire: (a)) and stores the value (release: (b)); the receiver waits for
 * non-EMPTY (acquire: (c)), takes the value and stores EMPTY (release: (d)) -- one load and one store per
 * side, FastForward exactly. Any other message is escaped: the sender writes its bytes and length into the
 * slot's side entry (plain stores) and then release-stores ESCAPE into the slot; a receiver that sees
 * ESCAPE reads the side entry. The sender writes the entry only while the slot is EMPTY (it saw EMPTY with
 * acquire), the receiver uses it only while the slot is full, so the entry is owned exactly like the slot.
 * The zero-copy API keeps the shared lines as send/receive does: reserve hands out the sender's own `stage` word
 * (commit then publishes its value or escapes it, as a send of it would), and acquire hands out a direct value
 * in the receiver's own `stash` word (an escaped message in place, in its side entry), so neither side writes
 * a side entry the other side's cache holds (measured, bench_spsc's zero-copy queue: with the side entry as the
 * reserved and acquired message, 0.33x FastForward at k = 8, 0.81x without; docs/channel.md, session 19).
 * In memory a slot word is value XOR EMPTY, so that the zero-filled mapping is the all-EMPTY initial state
 * (creation does not touch the slots; cf_channel_home_here's first touch writes zeros as for the other
 * layouts) and a slot is empty when its word is 0. Unlike TAGGED, a waiting side polls its own slot and
 * the receiver does not prefetch (measured level or worse with the direct case first: docs/channel.md).
 *
 * LINES. Sender state, receiver state, the receiver's wake line (sleeping flag + closed: read by the
 * sender after every publish), the sender's wake line (read by the receiver after every release) and the
 * read-only part each sit in their own 128-byte blocks. Per message, with neither side waiting: the slot
 * line moves sender -> receiver (once per group when the receiver lags), plus, per group, the receiver's
 * ACK store and the sender's re-reading of that line before it writes it again. */

/* Shared with the Lamport build (src/channel_common.h). */
/* Read by the sender after every publish; written when the receiver sleeps or wakes, and on close. */
struct cf_channel_to_receiver_ {
    uint32_t receiver_sleeping; /* futex word */
    uint32_t closed;
};
/* Read by the receiver after every release; written when the sender sleeps or wakes. */
struct cf_channel_to_sender_ {
    uint32_t sender_sleeping; /* futex word */
};
/* Read-only after creation, off the fast path. */
struct cf_channel_shared_ {
    char *slots;
    size_t map_bytes;
    size_t slots_count;
    size_t max_message;
    cf_channel_layout layout; /* in use: AUTO resolved */
};

#if !defined(__cplusplus) && (!defined(CF_CHANNEL_OUT_OF_LINE) || defined(CF_CHANNEL_RDYACK_IMPLEMENTATION))

#define CF_CHANNEL_ACK_ ((uint64_t)1 << 63)
#define CF_CHANNEL_TAGGED_PER_LINE_ 7u /* tagged: 7 tag bytes + 1 spare, then 7 slots of 8 bytes */
#define CF_CHANNEL_TAGGED_PAYLOAD_ 8u  /* the first slot, from the line start */
#define CF_CHANNEL_TAG_FULL_ 0x10u     /* a tag: 0 = empty (the sender's), FULL | length = the receiver's */
#define CF_CHANNEL_TAG_LENGTH_ 0x0fu
#define CF_CHANNEL_WORD_ESCAPED_ (CF_CHANNEL_WORD_ESCAPE ^ CF_CHANNEL_WORD_EMPTY) /* word: ESCAPE as stored */
#define CF_CHANNEL_ALIGN_ __attribute__((aligned(128)))
#define CF_CHANNEL_LIKELY_(x) __builtin_expect(!!(x), 1)
#define CF_CHANNEL_UNLIKELY_(x) __builtin_expect(!!(x), 0)

/* Each side's private copy of the geometry: its fast path reads only its own block. */
struct cf_channel_geometry_ {
    char *groups;          /* first group */
    char *groups_end;      /* groups + R / per_group * group_stride (tagged: the slot after the k-th) */
    size_t group_stride;   /* bytes from one group to the next, a multiple of 64 */
    size_t slot_stride;    /* bytes from one slot of a group to the next */
    size_t payload_offset; /* first slot's message, from the group start */
    size_t prefetch_ahead; /* receiver: bytes ahead of a group it enters to prefetch (0: none) */
    size_t max_message;
    uint64_t slots;        /* k */
    uint64_t ring;         /* R: mapped slots, a multiple of per_group, >= k + per_group - 1 */
    uint32_t per_group;
    uint32_t length_bits;  /* 31 / per_group */
    uint32_t spin_limit;
    uint32_t homing;       /* cf_channel_homing */
    uint32_t symmetric_fences; /* 1: a full fence after every publish/release instead of membarrier */
    uint32_t tagged;       /* CF_CHANNEL_LAYOUT_TAGGED: slot tags instead of group headers (TAGGED below) */
    uint32_t word;         /* CF_CHANNEL_LAYOUT_WORD: the slot word is the flag (WORD below) */
    uint32_t direct;       /* word ring of 8-byte messages, asymmetric fences: the inline fast paths apply */
    char *escapes;         /* word: the side entries (struct cf_channel_escape_), one per slot */
};

/* Word rings: a slot's side entry, for messages that are not a plain 8-byte value. */
struct cf_channel_escape_ {
    uint64_t bytes;  /* the message area (reserve hands it out) */
    uint64_t length; /* 0 .. 8 */
};

struct cf_channel_sender_ {
    struct cf_channel_geometry_ g;
    uint64_t sent;      /* messages published */
    uint64_t known;     /* messages known to be consumed (from ACKs or `received`) */
    uint64_t free;      /* slots known free: k - (sent - known) */
    char *group;        /* group of the next message */
    char *slot;         /* its message area */
    uint64_t lengths;   /* the group header's length bits so far */
    uint64_t stage;     /* word rings: the message reserve hands out, published by commit */
    uint32_t index;     /* position of the next message in its group */
    uint32_t reserved;  /* slot handed out by reserve, not committed yet (set through cf_channel_reserved_) */
    union {             /* the inline word send applies when word == CF_CHANNEL_SEND_GO_ (one load for its test) */
        uint32_t word;
        uint8_t part[4]; /* [0] g.direct && !reserved (the sender's), [1] closed (set by cf_channel_close) */
    } fast;
};

struct cf_channel_receiver_ {
    struct cf_channel_geometry_ g;
    uint64_t received;  /* messages released; the sender reads it when it has no free slot */
    uint64_t header;    /* the current group's header as last loaded (tagged: the tag; word: the slot word) */
    uint64_t stash;     /* word rings: a kept (acquired) direct value, the bytes acquire hands out */
    uint32_t ready;     /* messages that header shows beyond `received` */
    uint32_t index;     /* position of the next message in its group */
    char *group;
    char *slot;
    uint32_t acquired;  /* the next message was handed out by acquire, not released yet (cf_channel_acquired_) */
    uint32_t fast;      /* g.direct && !acquired: the inline word receive applies (one load for its test) */
    uint32_t lagging;   /* the current group was complete when first looked at: the sender is ahead */
    uint32_t caught_up; /* the last header load showed the group still being filled */
};

struct cf_channel {
    CF_CHANNEL_ALIGN_ struct cf_channel_sender_ sender;
    CF_CHANNEL_ALIGN_ struct cf_channel_receiver_ receiver;
    CF_CHANNEL_ALIGN_ struct cf_channel_to_receiver_ to_receiver;
    CF_CHANNEL_ALIGN_ struct cf_channel_to_sender_ to_sender;
    CF_CHANNEL_ALIGN_ struct cf_channel_shared_ shared;
};

/* The library's slow paths (src/channel.c); the names are the rdy-ack implementation's own, so code
 * built with this fast path does not link against the Lamport build. */
int cf_chan_rdyack_sender_wait(cf_channel *ch, int may_wait);   /* no free slot known, or closed */
int cf_chan_rdyack_receiver_wait(cf_channel *ch, int may_wait); /* next message not published yet */
int cf_chan_rdyack_receiver_slip(cf_channel *ch, int may_wait); /* a pause, then as above */
/* Tagged and word rings (the flag is the slot's tag or the slot word itself): */
int cf_chan_rdyack_tagged_sender_wait(cf_channel *ch, int may_wait);   /* slot not empty yet, or closed */
int cf_chan_rdyack_tagged_receiver_wait(cf_channel *ch, int may_wait); /* slot not full yet */
/* Word rings: writes the message into the slot's side entry, returns the slot word announcing it. */
uint64_t cf_chan_rdyack_word_escape(const struct cf_channel_geometry_ *g, char *slot, const void *message,
                                    size_t len);
int cf_chan_rdyack_send_homed(cf_channel *ch, const void *message, size_t len);
int cf_chan_rdyack_commit_homed(cf_channel *ch, size_t len);
void cf_chan_rdyack_wake_receiver(cf_channel *ch);
void cf_chan_rdyack_wake_sender(cf_channel *ch);

/* Copies of fewer than 8 bytes without a library call: two possibly overlapping loads and stores. */
static inline __attribute__((always_inline)) void cf_channel_copy_short_(void *dst, const void *src, size_t n) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n >= 4) {
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

/* Copies of up to 16 bytes without a library call. */
static inline __attribute__((always_inline)) void cf_channel_copy_(void *dst, const void *src, size_t n) {
    char *d = (char *)dst;
    const char *s = (const char *)src;
    if (n > 16) {
        /* The empty asm hides where d and s point: inlined into a caller whose message is a small object and
         * whose length the compiler cannot see (gcc at -O0, with always_inline), gcc's object-size checks would
         * warn (-Wstringop-overflow, -Wstringop-overread) about this branch, which such a length never takes.
         * It emits no instruction. */
        __asm__("" : "+r"(d), "+r"(s));
        memcpy(d, s, n);
    } else if (n >= 8) {
        uint64_t head, tail;
        memcpy(&head, s, 8);
        memcpy(&tail, s + n - 8, 8);
        memcpy(d, &head, 8);
        memcpy(d + n - 8, &tail, 8);
    } else {
        cf_channel_copy_short_(d, s, n);
    }
}

/* Tagged rings: a slot's tag, found from the slot's address alone (lines are 64-byte aligned: the tags at
 * bytes 0-6, slot i at 8 + 8 i), so each side's whole position is one pointer. */
static inline __attribute__((always_inline)) uint8_t *cf_channel_tag_(char *slot) {
    uintptr_t at = (uintptr_t)slot;
    return (uint8_t *)(at & ~(uintptr_t)63) + (at & 63) / 8 - 1;
}

/* Tagged rings: the next slot -- the next of the line's 7, the next line's first after the 7th (the
 * address is then a line start: skip the tags), the ring's first after exactly k slots. */
static inline __attribute__((always_inline)) char *cf_channel_tagged_next_(const struct cf_channel_geometry_ *g,
                                                                          char *slot) {
    slot += 8;
    if (((uintptr_t)slot & 63) == 0) slot += CF_CHANNEL_TAGGED_PAYLOAD_;
    return CF_CHANNEL_UNLIKELY_(slot == g->groups_end) ? g->groups + CF_CHANNEL_TAGGED_PAYLOAD_ : slot;
}

/* Word rings: the next slot word (8 to a line, back to the first after exactly k). */
static inline __attribute__((always_inline)) char *cf_channel_word_next_(const struct cf_channel_geometry_ *g,
                                                                        char *slot) {
    slot += 8;
    return CF_CHANNEL_UNLIKELY_(slot == g->groups_end) ? g->groups : slot;
}

static inline __attribute__((always_inline)) uint64_t *cf_channel_word_(char *slot) {
    return (uint64_t *)(void *)slot;
}

/* Word rings: a slot word holding a plain 8-byte value -- neither EMPTY (0) nor ESCAPE (1) as stored. */
_Static_assert(CF_CHANNEL_WORD_ESCAPED_ == 1, "ESCAPE must be EMPTY with the lowest bit flipped");
static inline __attribute__((always_inline)) int cf_channel_word_plain_(uint64_t word) {
    return word > CF_CHANNEL_WORD_ESCAPED_;
}

/* The flags a side's fast-path test reads as one: `fast` follows them (bench_spsc, session 14: testing
 * g.direct and reserved/acquired apart cost k = 1024 about 15% of its throughput in the near placement).
 * The sender's also holds `closed`, in a byte of its own that only cf_channel_close writes (after
 * to_receiver.closed), so the send fast path needs no load of the closed flag and nobody's store
 * overwrites another's: the sender writes byte 0, the closer byte 1, the fast path loads all four. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define CF_CHANNEL_SEND_GO_ (UINT32_C(1) << 24) /* part[0] == 1, every other byte 0 */
#else
#define CF_CHANNEL_SEND_GO_ UINT32_C(1)
#endif
static inline __attribute__((always_inline)) void cf_channel_reserved_(struct cf_channel_sender_ *s, uint32_t v) {
    s->reserved = v;
    __atomic_store_n(&s->fast.part[0], (uint8_t)(s->g.direct & !v), __ATOMIC_RELAXED);
}
static inline __attribute__((always_inline)) int cf_channel_send_fast_(const struct cf_channel_sender_ *s) {
    return __atomic_load_n(&s->fast.word, __ATOMIC_RELAXED) == CF_CHANNEL_SEND_GO_;
}
static inline __attribute__((always_inline)) void cf_channel_acquired_(struct cf_channel_receiver_ *r, uint32_t v) {
    r->acquired = v;
    r->fast = r->g.direct & !v;
}

/* The spin-wait hint (src/arch's cf_arch_cpu_relax, which this public header cannot include). */
static inline __attribute__((always_inline)) void cf_channel_relax_(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#else
    __asm__ __volatile__("" ::: "memory");
#endif
}

/* Word rings' fast paths: the side's own slot word until it is empty (full == 0: the sender's (a)) or full
 * (full == 1: the receiver's (c)), each load an acquire, waiting inline for up to CF_CHANNEL_INLINE_SPINS_
 * pauses (at most spin_limit) before the caller gives up to the general path and its out-of-line wait.
 * Returns the last word loaded. Measured (docs/channel.md, word layout): a wait that leaves the inlined loop
 * cost k = 8 about a tenth of its throughput. */
#define CF_CHANNEL_INLINE_SPINS_ 256u
static inline __attribute__((always_inline)) uint64_t cf_channel_word_wait_(char *slot, int full,
                                                                           uint32_t spin_limit) {
    uint64_t word = __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE);
    if (CF_CHANNEL_UNLIKELY_((word != 0) != full)) {
        uint32_t spins = spin_limit < CF_CHANNEL_INLINE_SPINS_ ? spin_limit : CF_CHANNEL_INLINE_SPINS_;
        do {
            cf_channel_relax_();
            word = __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE);
        } while (((word != 0) != full) && --spins);
    }
    return word;
}

/* Word rings, (b) and rdy: the slot word published (release), the sender on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_word_put_(struct cf_channel_sender_ *s, char *slot,
                                                                      uint64_t word) {
    __atomic_store_n(cf_channel_word_(slot), word, __ATOMIC_RELEASE);
    s->slot = cf_channel_word_next_(&s->g, slot);
}

/* Word rings, (d) and ack: the slot back to EMPTY (release, after its use), the receiver on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_word_take_(struct cf_channel_receiver_ *r, char *slot) {
    __atomic_store_n(cf_channel_word_(slot), (uint64_t)0, __ATOMIC_RELEASE);
    r->slot = cf_channel_word_next_(&r->g, slot);
}

/* Word rings: a slot's side entry (16 bytes per 8-byte slot). */
static inline __attribute__((always_inline)) struct cf_channel_escape_ *
cf_channel_escape_of_(const struct cf_channel_geometry_ *g, char *slot) {
    return (struct cf_channel_escape_ *)(void *)(g->escapes + (slot - g->groups) * 2);
}

/* Word rings: the slot word that publishes `message` -- the value itself (XOR EMPTY, see WORD above) when
 * it is 8 bytes and neither EMPTY nor ESCAPE, else ESCAPE after the side entry is written (a call). */
static inline __attribute__((always_inline)) uint64_t cf_channel_word_encode_(const struct cf_channel_geometry_ *g,
                                                                             char *slot, const void *message,
                                                                             size_t len) {
    if (CF_CHANNEL_LIKELY_(len == 8)) {
        uint64_t word;
        memcpy(&word, message, 8);
        word ^= CF_CHANNEL_WORD_EMPTY;
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word))) return word;
    }
    return cf_chan_rdyack_word_escape(g, slot, message, len);
}

/* Tagged rings, receiver: on entering a new line of a large ring, prefetch the line two ahead
 * (measured on the tagged layout: distance 4 halved k = 1024 -- it pulls lines the sender is still
 * writing -- distance 2 was level or better in 5 of 6 interleaved runs). `first`: a line's first slot's
 * offset in it. */
static inline __attribute__((always_inline)) void cf_channel_enter_line_(const struct cf_channel_geometry_ *g,
                                                                        char *next, uintptr_t first) {
    if (((uintptr_t)next & 63) == first && g->prefetch_ahead) {
        char *ahead = next + g->prefetch_ahead;
        if (ahead >= g->groups_end) ahead -= g->groups_end - g->groups;
        __builtin_prefetch(ahead, 0, 3);
    }
}

/* A free slot is known and the channel is open: the sender may fill s->slot. */
static inline __attribute__((always_inline)) int cf_channel_sender_ready_(cf_channel *ch, int may_wait) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (s->g.word) { /* (a): the acquire load of the slot word saw the receiver's release of it */
        /* Waited for inline a while, as a send does (reserve's callers wait for the slot); open: the close's byte
         * of `fast`, on the sender's own line (cf_channel_close sets it after `closed`). */
        uint64_t word = may_wait ? cf_channel_word_wait_(s->slot, 0, s->g.spin_limit)
                                 : __atomic_load_n(cf_channel_word_(s->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_LIKELY_(word == 0 && !__atomic_load_n(&s->fast.part[1], __ATOMIC_RELAXED))) return 0;
        return cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
    }
    if (s->g.tagged) { /* (a): the acquire load of the slot's tag saw the receiver's release of it */
        if (CF_CHANNEL_LIKELY_(__atomic_load_n(cf_channel_tag_(s->slot), __ATOMIC_ACQUIRE) == 0 &&
                               !__atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED)))
            return 0;
        return cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
    }
    if (CF_CHANNEL_LIKELY_(s->free != 0 && !__atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED)))
        return 0;
    return cf_chan_rdyack_sender_wait(ch, may_wait);
}

/* (b) and rdy: one release store of the group header (tagged: of the slot's tag; word: of the slot word,
 * the message being in the side entry reserve handed out), then on to the next slot. */
static inline __attribute__((always_inline)) void cf_channel_publish_store_(cf_channel *ch, size_t len) {
    struct cf_channel_sender_ *s = &ch->sender;
    if (s->g.word) {
        char *slot = s->slot;
        cf_channel_reserved_(s, 0);
        cf_channel_word_put_(s, slot, cf_channel_word_encode_(&s->g, slot, &s->stage, len));
        return;
    }
    if (s->g.tagged) {
        __atomic_store_n(cf_channel_tag_(s->slot), (uint8_t)(CF_CHANNEL_TAG_FULL_ | len), __ATOMIC_RELEASE);
        cf_channel_reserved_(s, 0);
        s->slot = cf_channel_tagged_next_(&s->g, s->slot);
        return;
    }
    uint64_t lengths = s->lengths | (uint64_t)len << (32 + s->index * s->g.length_bits);
    __atomic_store_n((uint64_t *)(void *)s->group, lengths | (uint32_t)(s->sent + 1), __ATOMIC_RELEASE);
    s->sent++;
    s->free--;
    cf_channel_reserved_(s, 0);
    if (++s->index == s->g.per_group) {
        s->index = 0;
        s->lengths = 0;
        s->group += s->g.group_stride;
        if (s->group == s->g.groups_end) s->group = s->g.groups;
        s->slot = s->group + s->g.payload_offset;
    } else {
        s->lengths = lengths;
        s->slot += s->g.slot_stride;
    }
}

/* After a publish: wake the receiver if it announced it sleeps (channel_common.h: the compiler barrier
 * here and the sleeper's membarrier make Dekker's pair). `symmetric`: the channel's symmetric_fences (the
 * waker then fences and looks); the word fast path passes 0, known for its channels (g.direct). */
static inline __attribute__((always_inline)) void cf_channel_publish_wake_(cf_channel *ch, uint32_t symmetric) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (CF_CHANNEL_UNLIKELY_(symmetric | __atomic_load_n(&ch->to_receiver.receiver_sleeping, __ATOMIC_RELAXED)))
        cf_chan_rdyack_wake_receiver(ch);
}

static inline __attribute__((always_inline)) int cf_channel_send_(cf_channel *ch, const void *message, size_t len,
                                                                 int may_wait) {
    /* Word rings, the common case first and alone: an 8-byte value the slot word can hold, no reservation,
     * the slot empty (a) (waited for inline a while), open. Then FastForward's store (b) and the sleeping
     * flag; everything else (errors, escapes, longer waits) takes the general path below. Measured
     * (docs/channel.md, word layout): both sides this lean, or neither -- a fast sender against a slower
     * receiver (or the reverse) made k = 1024 slower, not faster. */
    if (CF_CHANNEL_LIKELY_(ch && message && len == 8 && cf_channel_send_fast_(&ch->sender))) {
        struct cf_channel_sender_ *s = &ch->sender;
        char *slot = s->slot;
        uint64_t word;
        memcpy(&word, message, 8);
        word ^= CF_CHANNEL_WORD_EMPTY;
        /* Open: `fast` says so (a close sets its byte 1). */
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word) && cf_channel_word_wait_(slot, 0, s->g.spin_limit) == 0)) {
            cf_channel_word_put_(s, slot, word);
            cf_channel_publish_wake_(ch, 0); /* g.direct: asymmetric fences */
            return 0;
        }
    }
    if (CF_CHANNEL_UNLIKELY_(!ch || (!message && len))) return -EINVAL;
    struct cf_channel_sender_ *s = &ch->sender;
    if (CF_CHANNEL_UNLIKELY_(len > s->g.max_message || s->reserved)) return s->reserved ? -EINVAL : -EMSGSIZE;
    if (s->g.word) { /* the whole word send: FastForward's slot load (a) and store (b), or the escape */
        char *slot = s->slot;
        if (CF_CHANNEL_UNLIKELY_(__atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE) != 0 ||
                                 __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED))) {
            int rc = cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
            if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        }
        cf_channel_word_put_(s, slot, cf_channel_word_encode_(&s->g, slot, message, len));
        cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
        return 0;
    }
    if (s->g.tagged) { /* the whole tagged send: tag load (a), copy, tag store (b) */
        char *slot = s->slot;
        uint8_t *tag = cf_channel_tag_(slot);
        if (CF_CHANNEL_UNLIKELY_(__atomic_load_n(tag, __ATOMIC_ACQUIRE) != 0 ||
                                 __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_RELAXED))) {
            int rc = cf_chan_rdyack_tagged_sender_wait(ch, may_wait);
            if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        }
        cf_channel_copy_(slot, message, len);
        __atomic_store_n(tag, (uint8_t)(CF_CHANNEL_TAG_FULL_ | len), __ATOMIC_RELEASE);
        s->slot = cf_channel_tagged_next_(&s->g, slot);
        cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
        return 0;
    }
    int rc = cf_channel_sender_ready_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    if (CF_CHANNEL_UNLIKELY_(s->g.homing)) return cf_chan_rdyack_send_homed(ch, message, len);
    cf_channel_copy_(s->slot, message, len);
    cf_channel_publish_store_(ch, len);
    cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_reserve_(cf_channel *ch, void **slot, int may_wait) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !slot)) return -EINVAL;
    struct cf_channel_sender_ *s = &ch->sender;
    if (!s->reserved) {
        int rc = cf_channel_sender_ready_(ch, may_wait);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        cf_channel_reserved_(s, 1);
    }
    *slot = s->g.word ? (void *)&s->stage : (void *)s->slot;
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_commit_(cf_channel *ch, size_t len) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !ch->sender.reserved)) return -EINVAL;
    if (CF_CHANNEL_UNLIKELY_(len > ch->sender.g.max_message)) return -EMSGSIZE;
    if (CF_CHANNEL_UNLIKELY_(ch->sender.g.homing)) return cf_chan_rdyack_commit_homed(ch, len);
    cf_channel_publish_store_(ch, len);
    cf_channel_publish_wake_(ch, ch->sender.g.symmetric_fences);
    return 0;
}

/* A header load showed `ready` messages from the receiver's position on. */
static inline __attribute__((always_inline)) void cf_channel_announced_(struct cf_channel_receiver_ *r,
                                                                       uint64_t header, uint32_t ready) {
    r->header = header;
    r->ready = ready;
    if (r->index == 0) r->lagging = ready == r->g.per_group;
    r->caught_up = r->g.prefetch_ahead && ready < r->g.per_group - r->index; /* large rings only */
}

/* (c) and rdy: the next message is published; afterwards r->slot holds it and r->header its length. */
static inline __attribute__((always_inline)) int cf_channel_acquire_next_(cf_channel *ch, int may_wait) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    if (r->g.word) { /* (c): the acquire load of the slot word orders the side entry's reads after it */
        if (r->acquired) return 0;
        uint64_t word = may_wait ? cf_channel_word_wait_(r->slot, 1, r->g.spin_limit) /* inline a while, as receive */
                                 : __atomic_load_n(cf_channel_word_(r->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_UNLIKELY_(word == 0)) return cf_chan_rdyack_tagged_receiver_wait(ch, may_wait);
        r->header = word;
        return 0;
    }
    if (r->g.tagged) { /* (c): the acquire load of the tag orders the message reads after it */
        if (r->acquired) return 0;
        uint8_t tag = __atomic_load_n(cf_channel_tag_(r->slot), __ATOMIC_ACQUIRE);
        if (CF_CHANNEL_UNLIKELY_(tag == 0)) return cf_chan_rdyack_tagged_receiver_wait(ch, may_wait);
        r->header = tag;
        return 0;
    }
    if (r->acquired || r->ready) return 0;
    /* Right behind the sender: let it fill more of the group before pulling the line again. */
    if (r->caught_up) return cf_chan_rdyack_receiver_slip(ch, may_wait);
    uint64_t header = __atomic_load_n((uint64_t *)(void *)r->group, __ATOMIC_ACQUIRE);
    int32_t ready = (int32_t)((uint32_t)header - (uint32_t)r->received);
    if (CF_CHANNEL_UNLIKELY_(ready <= 0)) return cf_chan_rdyack_receiver_wait(ch, may_wait);
    cf_channel_announced_(r, header, (uint32_t)ready);
    return 0;
}

static inline __attribute__((always_inline)) size_t cf_channel_length_(const struct cf_channel_receiver_ *r) {
    if (r->g.tagged) return (size_t)(r->header & CF_CHANNEL_TAG_LENGTH_);
    uint32_t bits = r->g.length_bits;
    return (size_t)(r->header >> (32 + r->index * bits)) & (((uint64_t)1 << bits) - 1);
}

/* After a release: wake the sender if it announced it sleeps (the mirror of cf_channel_publish_wake_). */
static inline __attribute__((always_inline)) void cf_channel_release_wake_(cf_channel *ch, uint32_t symmetric) {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (CF_CHANNEL_UNLIKELY_(symmetric | __atomic_load_n(&ch->to_sender.sender_sleeping, __ATOMIC_RELAXED)))
        cf_chan_rdyack_wake_sender(ch);
}

/* (d) and ack: the message has been used; at a group's end set ACK in its header, then publish the
 * position (in this order: see ACK above). */
static inline __attribute__((always_inline)) void cf_channel_release_(cf_channel *ch) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    cf_channel_acquired_(r, 0);
    if (r->g.word) {
        cf_channel_word_take_(r, r->slot);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return;
    }
    if (r->g.tagged) { /* (d) and ack: the slot's tag back to empty, a release after the use */
        __atomic_store_n(cf_channel_tag_(r->slot), (uint8_t)0, __ATOMIC_RELEASE);
        r->slot = cf_channel_tagged_next_(&r->g, r->slot);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return;
    }
    r->ready--;
    if (++r->index == r->g.per_group) {
        __atomic_store_n((uint64_t *)(void *)r->group, r->header | CF_CHANNEL_ACK_, __ATOMIC_RELEASE);
        r->index = 0;
        r->group += r->g.group_stride;
        if (r->group == r->g.groups_end) r->group = r->g.groups;
        r->slot = r->group + r->g.payload_offset;
        if (r->g.prefetch_ahead && r->lagging) { /* the lines ahead are written: overlap their misses */
            char *ahead = r->group + r->g.prefetch_ahead;
            if (ahead >= r->g.groups_end) ahead -= r->g.groups_end - r->g.groups;
            __builtin_prefetch(ahead, 0, 3);
        }
    } else {
        r->slot += r->g.slot_stride;
    }
    __atomic_store_n(&r->received, r->received + 1, __ATOMIC_RELEASE);
    cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
}

/* Word rings: the receiver keeps the next message (acquire, or a receive into a buffer too small): r->header
 * keeps its slot word (direct or escaped: a later receive tells them apart by it), a direct value is copied into
 * the receiver's own `stash` (where a later receive takes it from, with any change made in place), and an escaped
 * one stays in its side entry. Returns where the message's bytes are, *len its length. */
static inline __attribute__((always_inline)) void *cf_channel_word_keep_(struct cf_channel_receiver_ *r,
                                                                        uint64_t word, size_t *len) {
    r->header = word;
    cf_channel_acquired_(r, 1);
    if (word != CF_CHANNEL_WORD_ESCAPED_) {
        r->stash = word ^ CF_CHANNEL_WORD_EMPTY;
        *len = 8;
        return &r->stash;
    }
    struct cf_channel_escape_ *e = cf_channel_escape_of_(&r->g, r->slot);
    *len = (size_t)e->length;
    return &e->bytes;
}

static inline __attribute__((always_inline)) int cf_channel_acquire_(cf_channel *ch, void **message, size_t *len,
                                                                    int may_wait) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !message || !len)) return -EINVAL;
    int rc = cf_channel_acquire_next_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    if (ch->receiver.g.word) {
        *message = cf_channel_word_keep_(&ch->receiver, ch->receiver.header, len);
        return 0;
    }
    cf_channel_acquired_(&ch->receiver, 1);
    *message = ch->receiver.slot;
    *len = cf_channel_length_(&ch->receiver);
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_release_checked_(cf_channel *ch) {
    if (CF_CHANNEL_UNLIKELY_(!ch || !ch->receiver.acquired)) return -EINVAL;
    cf_channel_release_(ch);
    return 0;
}

/* Tagged and word receives: the slot's flag -- its tag (word == 0) or its word (word == 1, a constant at
 * every call) -- once it is full (c), as the fast path's one load, or through acquire_next_ when the
 * message is already acquired or the slot still empty. */
static inline __attribute__((always_inline)) int cf_channel_slot_full_(cf_channel *ch, char *slot, int word,
                                                                      int may_wait, uint64_t *flag) {
    struct cf_channel_receiver_ *r = &ch->receiver;
    uint64_t f;
    if (CF_CHANNEL_UNLIKELY_(r->acquired ||
                             (f = word ? __atomic_load_n(cf_channel_word_(slot), __ATOMIC_ACQUIRE)
                                       : __atomic_load_n(cf_channel_tag_(slot), __ATOMIC_ACQUIRE)) == 0)) {
        int rc = cf_channel_acquire_next_(ch, may_wait);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        f = r->header;
    }
    *flag = f;
    return 0;
}

static inline __attribute__((always_inline)) int cf_channel_receive_(cf_channel *ch, void *buffer, size_t capacity,
                                                                    size_t *len, int may_wait) {
    /* Word rings, the common case first and alone (as in the send): nothing acquired, room for it, a plain
     * value in the slot (c) (waited for inline a while); the slot back to EMPTY (d). Escapes, errors and
     * longer waits: the general path. */
    if (CF_CHANNEL_LIKELY_(ch && len && buffer && capacity >= 8 && ch->receiver.fast)) {
        struct cf_channel_receiver_ *r = &ch->receiver;
        char *slot = r->slot;
        uint64_t word = cf_channel_word_wait_(slot, 1, r->g.spin_limit);
        if (CF_CHANNEL_LIKELY_(cf_channel_word_plain_(word))) {
            cf_channel_word_take_(r, slot); /* the value is in a register */
            cf_channel_release_wake_(ch, 0); /* g.direct: asymmetric fences */
            word ^= CF_CHANNEL_WORD_EMPTY;
            memcpy(buffer, &word, 8);
            *len = 8;
            return 0;
        }
    }
    if (CF_CHANNEL_UNLIKELY_(!ch || !len || (!buffer && capacity))) return -EINVAL;
    struct cf_channel_receiver_ *r = &ch->receiver;
    if (r->g.word) { /* the whole word receive: slot load (c), the value (or the side entry), EMPTY (d) */
        char *slot = r->slot;
        uint64_t word;
        int rc = cf_channel_slot_full_(ch, slot, 1, may_wait, &word);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        /* As in the tagged receive: the channel's fields are read before the copy into the caller's buffer. */
        uint32_t acquired = r->acquired;
        if (CF_CHANNEL_LIKELY_(word != CF_CHANNEL_WORD_ESCAPED_)) {
            *len = 8;
            if (CF_CHANNEL_UNLIKELY_(capacity < 8)) {
                cf_channel_word_keep_(r, word, len); /* stays in the channel: the next receive or acquire sees it */
                return -EMSGSIZE;
            }
            /* kept (acquired, or an earlier receive too small): the stash, which the caller may have changed */
            uint64_t value = acquired ? r->stash : word ^ CF_CHANNEL_WORD_EMPTY;
            memcpy(buffer, &value, 8);
        } else {
            const struct cf_channel_escape_ *e = cf_channel_escape_of_(&r->g, slot);
            size_t n = (size_t)e->length;
            *len = n;
            if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
                cf_channel_word_keep_(r, word, len);
                return -EMSGSIZE;
            }
            if (n >= 8) memcpy(buffer, &e->bytes, 8); /* the entry's length is at most 8 */
            else cf_channel_copy_short_(buffer, &e->bytes, n);
        }
        cf_channel_word_take_(r, slot);
        if (CF_CHANNEL_UNLIKELY_(acquired)) cf_channel_acquired_(r, 0);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return 0;
    }
    if (r->g.tagged) { /* the whole tagged receive: tag load (c) = rdy and length, copy, tag store (d) */
        char *slot = r->slot;
        uint64_t tag;
        int rc = cf_channel_slot_full_(ch, slot, 0, may_wait, &tag);
        if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
        size_t n = tag & CF_CHANNEL_TAG_LENGTH_;
        *len = n;
        if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
            r->header = tag;
            cf_channel_acquired_(r, 1); /* stays in the channel: the next receive or acquire sees it again */
            return -EMSGSIZE;
        }
        /* The next slot and the acquired flag are read before the copy into the caller's buffer (which the
         * compiler must assume may alias the channel's fields); (d), the tag's release store, after it. */
        char *next = cf_channel_tagged_next_(&r->g, slot);
        uint32_t acquired = r->acquired;
        if (CF_CHANNEL_LIKELY_(n == 8)) memcpy(buffer, slot, 8);
        else cf_channel_copy_(buffer, slot, n);
        __atomic_store_n(cf_channel_tag_(slot), (uint8_t)0, __ATOMIC_RELEASE);
        r->slot = next;
        cf_channel_enter_line_(&r->g, next, CF_CHANNEL_TAGGED_PAYLOAD_);
        if (CF_CHANNEL_UNLIKELY_(acquired)) cf_channel_acquired_(r, 0);
        cf_channel_release_wake_(ch, ch->receiver.g.symmetric_fences);
        return 0;
    }
    int rc = cf_channel_acquire_next_(ch, may_wait);
    if (CF_CHANNEL_UNLIKELY_(rc)) return rc;
    size_t n = cf_channel_length_(r);
    *len = n;
    if (CF_CHANNEL_UNLIKELY_(n > capacity)) {
        cf_channel_acquired_(r, 1); /* stays in the channel: the next receive or acquire sees it again */
        return -EMSGSIZE;
    }
    cf_channel_copy_(buffer, r->slot, n);
    cf_channel_release_(ch);
    return 0;
}

#endif /* internals */

#if !defined(__cplusplus) && !defined(CF_CHANNEL_OUT_OF_LINE)
/* The API names call the inline fast path; (cf_channel_send) etc. still name the library functions. */
#define cf_channel_reserve(ch, slot) cf_channel_reserve_((ch), (slot), 1)
#define cf_channel_try_reserve(ch, slot) cf_channel_reserve_((ch), (slot), 0)
#define cf_channel_commit(ch, len) cf_channel_commit_((ch), (len))
#define cf_channel_acquire(ch, message, len) cf_channel_acquire_((ch), (message), (len), 1)
#define cf_channel_try_acquire(ch, message, len) cf_channel_acquire_((ch), (message), (len), 0)
#define cf_channel_release(ch) cf_channel_release_checked_((ch))
#define cf_channel_send(ch, message, len) cf_channel_send_((ch), (message), (len), 1)
#define cf_channel_try_send(ch, message, len) cf_channel_send_((ch), (message), (len), 0)
#define cf_channel_receive(ch, buffer, capacity, len) cf_channel_receive_((ch), (buffer), (capacity), (len), 1)
#define cf_channel_try_receive(ch, buffer, capacity, len) cf_channel_receive_((ch), (buffer), (capacity), (len), 0)
#endif

#ifdef __cplusplus
}
#endif
#endif
