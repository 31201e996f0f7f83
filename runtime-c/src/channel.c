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
 * WAITING. A side that cannot proceed spins on the line it waits for (pause between reads: the line stays
 * in its cache, shared, and costs nothing until the other side writes it), then sleeps on a futex. The
 * word it sleeps on is its "sleeping" flag, in a line the other side reads after every publish/release
 * (read-mostly, so an L1 hit). The wake system call is made only when that flag is set.
 *   sleeper:  sleeping = 1;  BARRIER;  if (condition || closed) { sleeping = 0; proceed }
 *             futex_wait(&sleeping, 1)   -- returns at once unless sleeping is still 1
 *   waker:    publish (header / consumed);  barrier;  if (sleeping && exchange(sleeping, 0)) futex_wake
 * No wake-up is lost: this is Dekker's pattern. Each side stores then loads the other's variable with a
 * full barrier in between, so at least one of them sees the other's store: either the sleeper sees the
 * condition and does not sleep, or the waker sees sleeping == 1. In the latter case the waker clears the
 * flag before futex_wake; if the sleeper reaches futex_wait after the clear, the kernel's atomic
 * compare finds 0 and returns at once, and if before, it is queued and the wake finds it.
 * The barrier pair: a full fence on the sleeper's side is free (it is about to sleep), on the waker's side
 * it would cost a store-buffer drain on every message (an mfence waiting for the slot line's ownership
 * transfer serialises the sender: measured several times slower). So the waker uses only a compiler
 * barrier and the sleeper calls membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED), which makes every running
 * thread of the process execute a full barrier before it returns (a descheduled thread has passed one in
 * the context switch). That barrier splits the waker's program order: its publish and its flag load are
 * either both before it (the publish is then visible to the sleeper's re-check), both after it (the
 * sleeper's flag store, made before the membarrier, is visible to the load), or publish before and load
 * after (both are seen). If membarrier is unavailable (old kernel, seccomp, or CF_CHANNEL_NO_MEMBARRIER),
 * both sides use a full fence (cf_arch_full_fence: mfence / dmb ish; written as an instruction rather than
 * a C11 seq_cst fence, which ThreadSanitizer does not model -- the flags themselves are all atomics).
 *
 * CLOSE stores `closed` and then, with a full fence, clears and wakes both sleeping flags: the same
 * Dekker argument with `closed` as the condition. A receiver that sees closed re-checks its slot once:
 * everything committed before the close is still delivered (the close's seq_cst store is a release).
 *
 * LAYOUT. Every group of fields written by one side, or read-only, sits in its own 128-byte block (two
 * 64-byte lines: x86's adjacent-line prefetcher fetches lines in pairs, and some aarch64 cores have
 * 128-byte lines). Each side keeps a private copy of the configuration, so its fast path touches only
 * its own block, the slot line, and one read-mostly line of the other side. */
#define _GNU_SOURCE
#include "cacheflow/channel.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "channel_homing.h"
#include "stats_internal.h"

#define CHANNEL_BLOCK 128 /* separation of fields written by different sides */
#define CHANNEL_LINE 64   /* slot stride granularity */
#define HEADER_BYTES 16   /* header word + padding: keeps the payload aligned like max_align_t */

/* The per-side configuration copy; the fast path reads only this and the side's own counters. */
struct channel_side_config {
    char *slots;
    char *slots_end;      /* slots + k * stride */
    size_t slots_count;   /* k */
    size_t stride;        /* bytes from one slot to the next: a multiple of CHANNEL_LINE (packed: of 16) */
    size_t payload_offset;
    size_t max_message;
    uint32_t spin_limit;
    uint32_t homing;      /* cf_channel_homing */
    int symmetric_fences; /* 1: no membarrier, a full fence after every publish/release */
};

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
    alignas(CHANNEL_BLOCK) struct {
        char *slots;
        size_t map_bytes;
        size_t slots_count;
        size_t max_message;
    } shared;
    /* Written and read by the sender only. */
    alignas(CHANNEL_BLOCK) struct channel_sender sender;
    /* Written and read by the receiver only. */
    alignas(CHANNEL_BLOCK) struct channel_receiver receiver;
    /* The ack line: written by the receiver every release, read by the sender when its free count is 0. */
    alignas(CHANNEL_BLOCK) uint64_t consumed;
    /* Read by the sender after every publish; written when the receiver sleeps or wakes and on close. */
    alignas(CHANNEL_BLOCK) struct {
        uint32_t receiver_sleeping; /* futex word */
        uint32_t closed;
    } to_receiver;
    /* Read by the receiver after every release; written when the sender sleeps or wakes. */
    alignas(CHANNEL_BLOCK) struct {
        uint32_t sender_sleeping; /* futex word */
    } to_sender;
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
_Static_assert(HEADER_BYTES >= sizeof(uint64_t) && HEADER_BYTES % alignof(max_align_t) == 0,
               "header keeps the payload aligned");
_Static_assert(CF_CHANNEL_MAX_SLOTS <= UINT32_MAX, "seq (mod 2^32) must tell laps apart: k < 2^32");
_Static_assert(CF_CHANNEL_MAX_MESSAGE <= UINT32_MAX, "the length must fit the header's high half");

/* ---- slot header: seq (low 32 bits) | length (high 32 bits), published with one release store ---- */

static inline uint64_t *slot_header(char *slot) { return (uint64_t *)(void *)slot; }
static inline uint32_t header_seq(uint64_t header) { return (uint32_t)header; }
static inline size_t header_length(uint64_t header) { return (size_t)(header >> 32); }

/* ---- futex and the two barriers ---- */

static void futex_wait(uint32_t *word, uint32_t expected) {
    /* Errors (EAGAIN: the word changed, EINTR) just send the caller round its loop again. */
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static void futex_wake_one(uint32_t *word) { syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); }

static int membarrier_usable;
static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;

static void membarrier_register(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    /* One trial call: a filter could allow registration but not the command itself. */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    membarrier_usable = 1;
}

/* The sleeper's side of the Dekker pair (rare: once per sleep). */
static void heavy_barrier(int symmetric_fences) {
    if (symmetric_fences || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        cf_arch_full_fence();
}

/* The waker's side, after every publish/release: a compiler barrier keeps the flag load after the
 * publishing store in program order; the sleeper's membarrier supplies the hardware barrier. */
static inline void light_barrier(int symmetric_fences) {
    if (symmetric_fences) cf_arch_full_fence();
    else __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static void wake_sleeper(uint32_t *sleeping) {
    /* Clearing before waking makes a futex_wait that has not started yet return at once; only one waker
     * gets the 1, so each sleep costs at most one wake system call. */
    if (__atomic_exchange_n(sleeping, 0, __ATOMIC_RELAXED) != 0) futex_wake_one(sleeping);
}

static inline void wake_if_asleep(uint32_t *sleeping, int symmetric_fences) {
    light_barrier(symmetric_fences);
    if (__builtin_expect(__atomic_load_n(sleeping, __ATOMIC_RELAXED) != 0, 0)) wake_sleeper(sleeping);
}

/* Returns > 0 when the caller may proceed, 0 to keep waiting, < 0 (an error code) to give up. */
typedef int (*channel_condition)(cf_channel *ch);

/* Spin with pause, then sleep; loops until `condition` is non-zero. Counted in the channel stats. */
static int wait_until(cf_channel *ch, channel_condition condition, uint32_t *sleeping,
                      const struct channel_side_config *cfg) {
    CF_STAT_ADD(channel_waits, 1);
    for (;;) {
        for (uint32_t spin = 0; spin < cfg->spin_limit; spin++) {
            cf_arch_cpu_relax();
            int state = condition(ch);
            if (state != 0) return state > 0 ? 0 : state;
        }
        __atomic_store_n(sleeping, 1, __ATOMIC_RELAXED);
        heavy_barrier(cfg->symmetric_fences);
        int state = condition(ch);
        if (state != 0) {
            __atomic_store_n(sleeping, 0, __ATOMIC_RELAXED);
            return state > 0 ? 0 : state;
        }
        CF_STAT_ADD(channel_sleeps, 1);
        futex_wait(sleeping, 1);
        /* Woken, or a spurious return: the flag may still be ours; clear it so the other side does not
         * make a needless wake call, and re-check. */
        __atomic_store_n(sleeping, 0, __ATOMIC_RELAXED);
    }
}

/* ---- creation ---- */

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

int cf_channel_create(cf_channel **out, const cf_channel_options *options) {
    if (!out) return -EINVAL;
    *out = NULL;
    if (!options || options->slots == 0 || options->slots > CF_CHANNEL_MAX_SLOTS ||
        options->max_message > CF_CHANNEL_MAX_MESSAGE || (unsigned)options->homing > CF_CHANNEL_HOMING_DEMOTE ||
        (unsigned)options->layout > CF_CHANNEL_LAYOUT_PACKED || (options->flags & ~(uint32_t)CF_CHANNEL_NO_MEMBARRIER))
        return -EINVAL;

    /* Small messages share the header's line (one line per message); larger ones start on the next line
     * so that streaming stores and cleaning work on whole, aligned lines. */
    size_t payload_offset = options->max_message <= CHANNEL_LINE - HEADER_BYTES ? HEADER_BYTES : CHANNEL_LINE;
    size_t stride = round_up(payload_offset + options->max_message, CHANNEL_LINE);
    /* Packed: measured 3-6x the 8-byte throughput of one line per slot when the receiver lags (it reads
     * up to 4 messages per line transfer), same latency. Not with homing: it pushes out whole lines,
     * which neighbouring slots are still using. */
    cf_channel_layout layout = options->layout;
    if (layout == CF_CHANNEL_LAYOUT_AUTO)
        layout = options->max_message <= 24 && options->homing == CF_CHANNEL_HOMING_NONE ? CF_CHANNEL_LAYOUT_PACKED
                                                                                         : CF_CHANNEL_LAYOUT_LINE;
    if (layout == CF_CHANNEL_LAYOUT_PACKED) {
        payload_offset = sizeof(uint64_t);
        stride = round_up(payload_offset + options->max_message, 2 * sizeof(uint64_t));
    }
    size_t bytes;
    if (__builtin_mul_overflow(options->slots, stride, &bytes)) return -ENOMEM;
    long page = sysconf(_SC_PAGESIZE);
    bytes = round_up(bytes, page > 0 ? (size_t)page : 4096);

    pthread_once(&membarrier_once, membarrier_register);

    cf_channel *ch = aligned_alloc(CHANNEL_BLOCK, sizeof *ch);
    if (!ch) return -ENOMEM;
    memset(ch, 0, sizeof *ch);
    /* Anonymous pages read as zero, and all-zero slots are the initial state (every seq 0: no rdy).
     * Nothing touches them here, so the receiver can be the first (cf_channel_home_here). */
    void *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (slots == MAP_FAILED) {
        free(ch);
        return -ENOMEM;
    }
    ch->shared.slots = slots;
    ch->shared.map_bytes = bytes;
    ch->shared.slots_count = options->slots;
    ch->shared.max_message = options->max_message;

    struct channel_side_config cfg = {
        .slots = slots,
        .slots_end = (char *)slots + options->slots * stride,
        .slots_count = options->slots,
        .stride = stride,
        .payload_offset = payload_offset,
        .max_message = options->max_message,
        .spin_limit = options->spin_limit ? options->spin_limit : CF_CHANNEL_SPIN_DEFAULT,
        .homing = (uint32_t)options->homing,
        .symmetric_fences = !membarrier_usable || (options->flags & CF_CHANNEL_NO_MEMBARRIER),
    };
    ch->sender.cfg = cfg;
    ch->sender.free = options->slots;
    ch->sender.next_slot = slots;
    ch->receiver.cfg = cfg;
    ch->receiver.next_slot = slots;
    *out = ch;
    return 0;
}

int cf_channel_home_here(cf_channel *ch) {
    if (!ch) return -EINVAL;
    /* Writing zeros keeps the initial state and makes this thread the first toucher of every page. */
    memset(ch->shared.slots, 0, ch->shared.map_bytes);
    return 0;
}

void cf_channel_destroy(cf_channel *ch) {
    if (!ch) return;
    munmap(ch->shared.slots, ch->shared.map_bytes);
    free(ch);
}

void cf_channel_close(cf_channel *ch) {
    if (!ch) return;
    __atomic_store_n(&ch->to_receiver.closed, 1, __ATOMIC_SEQ_CST);
    cf_arch_full_fence();
    wake_sleeper(&ch->to_receiver.receiver_sleeping);
    wake_sleeper(&ch->to_sender.sender_sleeping);
}

size_t cf_channel_max_message(const cf_channel *ch) { return ch ? ch->shared.max_message : 0; }
size_t cf_channel_slots(const cf_channel *ch) { return ch ? ch->shared.slots_count : 0; }

/* ---- sender ---- */

#define CF_LIKELY(x) __builtin_expect(!!(x), 1)
#define CF_UNLIKELY(x) __builtin_expect(!!(x), 0)

static int is_closed(cf_channel *ch) { return __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_ACQUIRE) != 0; }

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
