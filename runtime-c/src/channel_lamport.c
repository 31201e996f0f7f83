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
 * alignments as in channel.c), the homing options, cf_channel_home_here (first touch by the receiver),
 * the spin-then-futex waiting with membarrier, close semantics and the statistics.
 *
 * MEMORY ORDERING: the sender stores tail with release after the message and its length, the receiver
 * loads tail with acquire before reading them; the receiver stores head with release after its last use
 * of the slot, the sender loads head with acquire before overwriting it. The sleep/wake handshake is the
 * Dekker pattern explained in channel.c (sleeper: flag, heavy barrier, re-check; waker: publish, compiler
 * barrier, flag check). */
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

#define CHANNEL_BLOCK 128
#define CHANNEL_LINE 64
#define HEADER_BYTES 16

#define CF_LIKELY(x) __builtin_expect(!!(x), 1)
#define CF_UNLIKELY(x) __builtin_expect(!!(x), 0)

struct lamport_config {
    char *slots;
    size_t slots_count;
    size_t stride;
    size_t payload_offset;
    size_t max_message;
    uint32_t spin_limit;
    uint32_t homing;
    int symmetric_fences;
};

struct lamport_sender {
    struct lamport_config cfg;
    uint64_t sent;
    int reserved;
};

struct lamport_receiver {
    struct lamport_config cfg;
    uint64_t received;
    int acquired;
    size_t acquired_len;
};

struct cf_channel {
    alignas(CHANNEL_BLOCK) struct {
        char *slots;
        size_t map_bytes;
        size_t slots_count;
        size_t max_message;
    } shared;
    alignas(CHANNEL_BLOCK) struct lamport_sender sender;
    alignas(CHANNEL_BLOCK) struct lamport_receiver receiver;
    alignas(CHANNEL_BLOCK) uint64_t tail; /* messages published: written by the sender */
    alignas(CHANNEL_BLOCK) uint64_t head; /* messages consumed: written by the receiver */
    alignas(CHANNEL_BLOCK) struct {
        uint32_t receiver_sleeping;
        uint32_t closed;
    } to_receiver;
    alignas(CHANNEL_BLOCK) struct {
        uint32_t sender_sleeping;
    } to_sender;
};

_Static_assert(sizeof(struct lamport_sender) <= CHANNEL_BLOCK, "sender state must fit its block");
_Static_assert(sizeof(struct lamport_receiver) <= CHANNEL_BLOCK, "receiver state must fit its block");
_Static_assert(offsetof(struct cf_channel, head) - offsetof(struct cf_channel, tail) == CHANNEL_BLOCK,
               "head and tail in blocks of their own");

static inline uint64_t *slot_length(char *slot) { return (uint64_t *)(void *)slot; }

static inline char *slot_of(const struct lamport_config *cfg, uint64_t n) {
    return cfg->slots + (size_t)(n % cfg->slots_count) * cfg->stride;
}

/* ---- waiting: spin, then futex (see channel.c for why no wake-up is lost) ---- */

static int membarrier_usable;
static pthread_once_t membarrier_once = PTHREAD_ONCE_INIT;

static void membarrier_register(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    membarrier_usable = 1;
}

static void heavy_barrier(int symmetric_fences) {
    if (symmetric_fences || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        cf_arch_full_fence();
}

static void wake_sleeper(uint32_t *sleeping) {
    if (__atomic_exchange_n(sleeping, 0, __ATOMIC_RELAXED) != 0)
        syscall(SYS_futex, sleeping, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void wake_if_asleep(uint32_t *sleeping, int symmetric_fences) {
    if (symmetric_fences) cf_arch_full_fence();
    else __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (CF_UNLIKELY(__atomic_load_n(sleeping, __ATOMIC_RELAXED) != 0)) wake_sleeper(sleeping);
}

typedef int (*lamport_condition)(cf_channel *ch);

static int wait_until(cf_channel *ch, lamport_condition condition, uint32_t *sleeping,
                      const struct lamport_config *cfg) {
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
        syscall(SYS_futex, sleeping, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
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

    size_t payload_offset = options->max_message <= CHANNEL_LINE - HEADER_BYTES ? HEADER_BYTES : CHANNEL_LINE;
    size_t stride = round_up(payload_offset + options->max_message, CHANNEL_LINE);
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
    void *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (slots == MAP_FAILED) {
        free(ch);
        return -ENOMEM;
    }
    ch->shared.slots = slots;
    ch->shared.map_bytes = bytes;
    ch->shared.slots_count = options->slots;
    ch->shared.max_message = options->max_message;
    struct lamport_config cfg = {
        .slots = slots,
        .slots_count = options->slots,
        .stride = stride,
        .payload_offset = payload_offset,
        .max_message = options->max_message,
        .spin_limit = options->spin_limit ? options->spin_limit : CF_CHANNEL_SPIN_DEFAULT,
        .homing = (uint32_t)options->homing,
        .symmetric_fences = !membarrier_usable || (options->flags & CF_CHANNEL_NO_MEMBARRIER),
    };
    ch->sender.cfg = cfg;
    ch->receiver.cfg = cfg;
    *out = ch;
    return 0;
}

int cf_channel_home_here(cf_channel *ch) {
    if (!ch) return -EINVAL;
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

static int is_closed(cf_channel *ch) { return __atomic_load_n(&ch->to_receiver.closed, __ATOMIC_ACQUIRE) != 0; }

/* ---- sender ---- */

static int sender_has_room(cf_channel *ch) {
    if (is_closed(ch)) return -EPIPE;
    uint64_t head = __atomic_load_n(&ch->head, __ATOMIC_ACQUIRE);
    return ch->sender.sent - head < ch->sender.cfg.slots_count ? 1 : 0;
}

static int sender_ready(cf_channel *ch, int may_wait) {
    int state = sender_has_room(ch);
    if (CF_LIKELY(state > 0)) return 0;
    if (state < 0) return state;
    if (!may_wait) return -EAGAIN;
    return wait_until(ch, sender_has_room, &ch->to_sender.sender_sleeping, &ch->sender.cfg);
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

static int receiver_has_message(cf_channel *ch) {
    if (__atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE) > ch->receiver.received) return 1;
    if (!is_closed(ch)) return 0;
    /* Closed: what was published before the close is visible now (close's store is a release). */
    return __atomic_load_n(&ch->tail, __ATOMIC_ACQUIRE) > ch->receiver.received ? 1 : -EPIPE;
}

static int receiver_acquire(cf_channel *ch, int may_wait) {
    struct lamport_receiver *r = &ch->receiver;
    if (r->acquired) return 0;
    int state = receiver_has_message(ch);
    if (CF_UNLIKELY(state <= 0)) {
        if (state < 0) return state;
        if (!may_wait) return -EAGAIN;
        int rc = wait_until(ch, receiver_has_message, &ch->to_receiver.receiver_sleeping, &r->cfg);
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
