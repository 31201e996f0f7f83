/* Internal to the two cf_channel implementations (channel.c: rdy-ack, channel_lamport.c: Lamport ring):
 * what they share on purpose, so that a measured difference between them is the signalling alone --
 * option validation and slot geometry, the per-side configuration copy, the spin-then-futex waiting with
 * membarrier, close and the slot mapping's lifetime. Exactly one implementation is compiled into the
 * library; channel_common.c is compiled with either.
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
 * everything committed before the close is still delivered (the close's seq_cst store is a release). */
#ifndef CF_CHANNEL_COMMON_H
#define CF_CHANNEL_COMMON_H
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "cacheflow/channel.h"
#include "stats_internal.h"

/* Every group of fields written by one side, or read-only, sits in its own block of this many bytes (two
 * 64-byte lines: x86's adjacent-line prefetcher fetches lines in pairs, and some aarch64 cores have
 * 128-byte lines). */
#define CHANNEL_BLOCK 128
#define CHANNEL_LINE 64   /* slot stride granularity */
#define HEADER_BYTES 16   /* header word + padding: keeps the payload aligned like max_align_t */

_Static_assert(HEADER_BYTES >= sizeof(uint64_t) && HEADER_BYTES % alignof(max_align_t) == 0,
               "header keeps the payload aligned");

#define CF_LIKELY(x) __builtin_expect(!!(x), 1)
#define CF_UNLIKELY(x) __builtin_expect(!!(x), 0)

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

/* The read-only part (struct cf_channel_shared_) and the two wake lines (struct cf_channel_to_receiver_,
 * struct cf_channel_to_sender_) are declared in cacheflow/internal/channel_fast.h (included by
 * cacheflow/channel.h), for both builds. */

/* ---- creation and teardown (channel_common.c) ---- */

/* Validates the options (-EINVAL), lays out and maps the slots, and allocates the zeroed channel object
 * of `channel_size` bytes aligned to CHANNEL_BLOCK (-ENOMEM). On success fills *shared and *cfg, which
 * the caller copies into its channel object; on failure *channel is untouched and nothing is left
 * allocated. */
int cf_chan_create(const cf_channel_options *options, size_t channel_size, void **channel,
                   struct cf_channel_shared_ *shared, struct channel_side_config *cfg);
/* The same in the caller's storage (cf_channel_create_in): -EINVAL when `storage` is NULL, not aligned to
 * CF_CHANNEL_STORAGE_ALIGN or shorter than the channel needs. With storage == NULL and bytes == 0 it only
 * reports, in *needed, the slot bytes the options need (cf_channel_storage_size), allocating nothing. */
int cf_chan_create_in(const cf_channel_options *options, size_t channel_size, void *storage, size_t bytes,
                      size_t *needed, void **channel, struct cf_channel_shared_ *shared,
                      struct channel_side_config *cfg);
/* The parts of cf_chan_create, for an implementation with its own slot geometry:
 * -EINVAL unless the options are valid; */
int cf_chan_check_options(const cf_channel_options *options);
/* 1 when this channel uses full fences on both sides (no membarrier, or CF_CHANNEL_NO_MEMBARRIER); */
int cf_chan_symmetric_fences(const cf_channel_options *options);
/* maps `slot_bytes` (rounded up to pages) and allocates the zeroed channel object (-ENOMEM). */
int cf_chan_allocate(size_t channel_size, size_t slot_bytes, void **channel, struct cf_channel_shared_ *shared);
/* The same with the caller's storage for the slots (-EINVAL: NULL, misaligned, or fewer than `slot_bytes`
 * bytes); nothing is mapped and the storage is not touched. */
int cf_chan_allocate_in(size_t channel_size, size_t slot_bytes, void *storage, size_t bytes, void **channel,
                        struct cf_channel_shared_ *shared);
/* cf_channel_storage_size's answer for `needed` slot bytes: rounded up to CF_CHANNEL_STORAGE_ALIGN (-EINVAL
 * for NULL outputs, -ENOMEM on overflow). */
int cf_chan_storage_bytes(size_t needed, size_t *bytes, size_t *align);
/* Zeroes the slot bytes in use (cf_channel_reset): all-zero slots are the initial state of both rings. */
void cf_chan_clear_slots(const struct cf_channel_shared_ *shared);
/* Both wake lines back to their state at creation: nobody asleep, not closed. */
void cf_chan_reset_wake(struct cf_channel_to_receiver_ *to_receiver, struct cf_channel_to_sender_ *to_sender);
/* The receiver's first touch of the slot pages (cf_channel_home_here). */
void cf_chan_home_here(const struct cf_channel_shared_ *shared);
/* Unmaps the slots described by *shared (which may live inside `channel`; the caller's storage is left
 * alone), then frees `channel`. */
void cf_chan_destroy(void *channel, const struct cf_channel_shared_ *shared);
void cf_chan_close(struct cf_channel_to_receiver_ *to_receiver, struct cf_channel_to_sender_ *to_sender);

/* ---- futex and the two barriers ---- */

static inline void futex_wait(uint32_t *word, uint32_t expected) {
    /* Errors (EAGAIN: the word changed, EINTR) just send the caller round its loop again. */
    syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, expected, NULL, NULL, 0);
}

static inline void futex_wake_one(uint32_t *word) {
    syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

/* The sleeper's side of the Dekker pair (rare: once per sleep). */
static inline void heavy_barrier(int symmetric_fences) {
    if (symmetric_fences || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0)
        cf_arch_full_fence();
}

/* The waker's side, after every publish/release: a compiler barrier keeps the flag load after the
 * publishing store in program order; the sleeper's membarrier supplies the hardware barrier. */
static inline void light_barrier(int symmetric_fences) {
    if (symmetric_fences) cf_arch_full_fence();
    else __atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static inline void wake_sleeper(uint32_t *sleeping) {
    /* Clearing before waking makes a futex_wait that has not started yet return at once; only one waker
     * gets the 1, so each sleep costs at most one wake system call. */
    if (__atomic_exchange_n(sleeping, 0, __ATOMIC_RELAXED) != 0) futex_wake_one(sleeping);
}

static inline void wake_if_asleep(uint32_t *sleeping, int symmetric_fences) {
    light_barrier(symmetric_fences);
    if (CF_UNLIKELY(__atomic_load_n(sleeping, __ATOMIC_RELAXED) != 0)) wake_sleeper(sleeping);
}

static inline int channel_closed(const struct cf_channel_to_receiver_ *to_receiver) {
    return __atomic_load_n(&to_receiver->closed, __ATOMIC_ACQUIRE) != 0;
}

/* Returns > 0 when the caller may proceed, 0 to keep waiting, < 0 (an error code) to give up.
 * `spin` is the number of pause iterations spent so far in this wait, CHANNEL_FINAL_CHECK for the check
 * made before sleeping: a condition may check more cheaply, or ask for more progress, early in a wait
 * (the rdy-ack sender does both), but the final check must accept any progress, or a sleep could miss
 * its wake-up. */
#define CHANNEL_FINAL_CHECK UINT32_MAX
typedef int (*channel_condition)(cf_channel *ch, uint32_t spin);

/* Spin with pause, then sleep; loops until `condition` is non-zero. Counted in the channel stats.
 * Inline so that each implementation's call gets its condition as a direct call. */
static inline int wait_until(cf_channel *ch, channel_condition condition, uint32_t *sleeping, uint32_t spin_limit,
                             int symmetric_fences) {
    CF_STAT_ADD(channel_waits, 1);
    int slept = 0; /* channel_sleeps counts waits that slept, once each (as cf_flag's sleeps) */
    for (;;) {
        for (uint32_t spin = 0; spin < spin_limit; spin++) {
            cf_arch_cpu_relax();
            int state = condition(ch, spin);
            if (state != 0) return state > 0 ? 0 : state;
        }
        __atomic_store_n(sleeping, 1, __ATOMIC_RELAXED);
        heavy_barrier(symmetric_fences);
        int state = condition(ch, CHANNEL_FINAL_CHECK);
        if (state != 0) {
            __atomic_store_n(sleeping, 0, __ATOMIC_RELAXED);
            return state > 0 ? 0 : state;
        }
        if (!slept) CF_STAT_ADD(channel_sleeps, 1);
        slept = 1;
        futex_wait(sleeping, 1);
        /* Woken, or a spurious return: the flag may still be ours; clear it so the other side does not
         * make a needless wake call, and re-check. */
        __atomic_store_n(sleeping, 0, __ATOMIC_RELAXED);
    }
}

#endif
