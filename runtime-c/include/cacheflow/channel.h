/* Home-forwarded rdy-ack channels: single-producer single-consumer message passing between two threads.
 *
 * A channel has k >= 1 slots used round-robin. Each slot is the paper's rdy-ack pair plus a message area:
 * the sender waits for the slot's ack, fills the message, raises rdy; the receiver waits for rdy, uses the
 * message, raises ack. The slot memory is homed at the receiver (first-touched by it, see
 * cf_channel_home_here) and the sender can push what it wrote out of its own caches after writing
 * (cf_channel_homing), the commodity analogue of home-forward stores with self-invalidation.
 * The protocol, its memory orderings and the cache-line budget are explained in docs/channel.md; the code
 * is in cacheflow/internal/channel_fast.h (the channel object and the inline fast path, not API),
 * src/channel.c, and src/channel_common.h (waiting and closing).
 *
 * Inline fast path: the send/receive family below is also defined inline (static inline functions of the
 * internal header included below, behind macros of the same names), so a message costs no call when the
 * slot is ready; only waiting, homing and closing call into the library. Define CF_CHANNEL_OUT_OF_LINE to
 * call the library functions instead (the library build with the Lamport ring, -DCF_CHANNEL_IMPL=lamport,
 * exports it to its users).
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

/* Slot memory from the caller, e.g. one region holding the slots of several channels that are never used at
 * the same time (a program's variants). CF_CHANNEL_STORAGE_ALIGN: the alignment the storage needs (two
 * cache lines, so that no line of it is shared with a neighbour's). */
#define CF_CHANNEL_STORAGE_ALIGN ((size_t)128)

/* The bytes of slot memory a channel with these options needs (a multiple of *align; it depends on the
 * implementation the library was built with) and the alignment it needs (CF_CHANNEL_STORAGE_ALIGN).
 * -EINVAL as cf_channel_create (and for NULL outputs), -ENOMEM when the size overflows. Any thread. */
int cf_channel_storage_size(const cf_channel_options *options, size_t *bytes, size_t *align);

/* Creates a channel whose slots are the `bytes` bytes at `storage` (-EINVAL when storage is NULL, not aligned
 * to CF_CHANNEL_STORAGE_ALIGN or shorter than cf_channel_storage_size says; *out is then NULL). The storage
 * is not touched here, and cf_channel_destroy leaves it to the caller (who frees it after the destroy). It
 * must read as zero before the first send: fresh anonymous pages do, else cf_channel_home_here or
 * cf_channel_reset zeroes it. Any thread may call this. */
int cf_channel_create_in(cf_channel **out, const cf_channel_options *options, void *storage, size_t bytes);

/* Returns an empty, quiescent channel to its state right after creation: every slot free (its slot memory
 * zeroed, whatever was written into it since, e.g. by another channel sharing the storage), both positions at
 * the first slot, nobody asleep, and open again if it was closed. Only when neither side is inside an
 * operation and no message is in flight (everything sent was received and released, no slot reserved):
 * messages still in the channel are lost. Call it from the receiver's thread (its stores re-touch the slot
 * lines, which keeps them homed there, as cf_channel_home_here) or from any thread while neither side runs;
 * the reset must happen before the sender's next operation and the receiver's, e.g. through a barrier both
 * pass after it, or a thread start. -EINVAL when ch is NULL. */
int cf_channel_reset(cf_channel *ch);

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


/* The structures behind cf_channel and the inline fast path (internals, not API). */
#include "cacheflow/internal/channel_fast.h"

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
