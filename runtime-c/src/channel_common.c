/* What the rdy-ack (channel.c) and Lamport (channel_lamport.c) channels share: see channel_common.h. */
#define _GNU_SOURCE
#include "channel_common.h"
#include "membarrier_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

static size_t round_up(size_t value, size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

int cf_chan_check_options(const cf_channel_options *options) {
    if (!options || options->slots == 0 || options->slots > CF_CHANNEL_MAX_SLOTS ||
        options->max_message > CF_CHANNEL_MAX_MESSAGE || (unsigned)options->homing > CF_CHANNEL_HOMING_DEMOTE ||
        (unsigned)options->layout > CF_CHANNEL_LAYOUT_WORD || (options->flags & ~(uint32_t)CF_CHANNEL_NO_MEMBARRIER))
        return -EINVAL;
    /* Tagged and word slots hold 8 bytes and are pushed nowhere (a tag's length has 4 bits; a word's side
     * entry holds 8 bytes). */
    if ((options->layout == CF_CHANNEL_LAYOUT_TAGGED || options->layout == CF_CHANNEL_LAYOUT_WORD) &&
        (options->max_message > 8 || options->homing != CF_CHANNEL_HOMING_NONE))
        return -EINVAL;
    return 0;
}

int cf_chan_symmetric_fences(const cf_channel_options *options) {
    return !cf_membarrier_usable() || (options->flags & CF_CHANNEL_NO_MEMBARRIER);
}

int cf_chan_allocate(size_t channel_size, size_t slot_bytes, void **channel, struct cf_channel_shared_ *shared) {
    long page = sysconf(_SC_PAGESIZE);
    size_t page_bytes = page > 0 ? (size_t)page : 4096;
    if (slot_bytes > SIZE_MAX - page_bytes) return -ENOMEM;
    size_t bytes = round_up(slot_bytes, page_bytes);
    void *ch = aligned_alloc(CHANNEL_BLOCK, round_up(channel_size, CHANNEL_BLOCK));
    if (!ch) return -ENOMEM;
    memset(ch, 0, channel_size);
    /* Anonymous pages read as zero, and all-zero slots are the initial state (rdy-ack: every seq 0, no
     * rdy). Nothing touches them here, so the receiver can be the first (cf_channel_home_here). */
    void *slots = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (slots == MAP_FAILED) {
        free(ch);
        return -ENOMEM;
    }
    *shared = (struct cf_channel_shared_){.slots = slots, .map_bytes = bytes, .used_bytes = slot_bytes};
    *channel = ch;
    return 0;
}

int cf_chan_allocate_in(size_t channel_size, size_t slot_bytes, void *storage, size_t bytes, void **channel,
                        struct cf_channel_shared_ *shared) {
    if (!storage || (uintptr_t)storage % CF_CHANNEL_STORAGE_ALIGN != 0 || bytes < slot_bytes) return -EINVAL;
    void *ch = aligned_alloc(CHANNEL_BLOCK, round_up(channel_size, CHANNEL_BLOCK));
    if (!ch) return -ENOMEM;
    memset(ch, 0, channel_size);
    /* Not touched here either: the caller's storage may be garbage until cf_channel_home_here or
     * cf_channel_reset zeroes it on the receiver. */
    *shared = (struct cf_channel_shared_){.slots = storage, .map_bytes = slot_bytes, .used_bytes = slot_bytes,
                                          .foreign = 1};
    *channel = ch;
    return 0;
}

int cf_chan_storage_bytes(size_t needed, size_t *bytes, size_t *align) {
    if (!bytes || !align) return -EINVAL;
    if (needed > SIZE_MAX - CF_CHANNEL_STORAGE_ALIGN) return -ENOMEM;
    *bytes = round_up(needed, CF_CHANNEL_STORAGE_ALIGN);
    *align = CF_CHANNEL_STORAGE_ALIGN;
    return 0;
}

void cf_chan_clear_slots(const struct cf_channel_shared_ *shared) { memset(shared->slots, 0, shared->used_bytes); }

void cf_chan_reset_wake(struct cf_channel_to_receiver_ *to_receiver, struct cf_channel_to_sender_ *to_sender) {
    __atomic_store_n(&to_receiver->receiver_sleeping, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&to_receiver->closed, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&to_sender->sender_sleeping, 0, __ATOMIC_RELAXED);
}

/* cf_chan_create (given 0: the slots mapped) and cf_chan_create_in (given 1: the caller's storage). */
static int chan_create(const cf_channel_options *options, size_t channel_size, int given, void *storage,
                       size_t storage_bytes, size_t *needed, void **channel, struct cf_channel_shared_ *shared,
                       struct channel_side_config *cfg) {
    int rc = cf_chan_check_options(options);
    if (rc) return rc;

    /* Small messages share the header's line (one line per message); larger ones start on the next line
     * so that streaming stores and cleaning work on whole, aligned lines. */
    size_t payload_offset = options->max_message <= CHANNEL_LINE - HEADER_BYTES ? HEADER_BYTES : CHANNEL_LINE;
    size_t stride = round_up(payload_offset + options->max_message, CHANNEL_LINE);
    /* Packed (this ring's own packing: a length word per slot, slots rounded to 16 bytes). Not with
     * homing: it pushes out whole lines, which neighbouring slots are still using. */
    cf_channel_layout layout = options->layout;
    if (layout == CF_CHANNEL_LAYOUT_AUTO)
        layout = options->max_message <= 24 && options->homing == CF_CHANNEL_HOMING_NONE ? CF_CHANNEL_LAYOUT_PACKED
                                                                                         : CF_CHANNEL_LAYOUT_LINE;
    if (layout != CF_CHANNEL_LAYOUT_LINE) { /* TAGGED and WORD are the rdy-ack ring's own: packed here */
        payload_offset = sizeof(uint64_t);
        stride = round_up(payload_offset + options->max_message, 2 * sizeof(uint64_t));
    }
    size_t bytes;
    if (__builtin_mul_overflow(options->slots, stride, &bytes)) return -ENOMEM;
    if (needed) {
        *needed = bytes;
        return 0;
    }
    int symmetric = cf_chan_symmetric_fences(options);
    void *ch;
    rc = given ? cf_chan_allocate_in(channel_size, bytes, storage, storage_bytes, &ch, shared)
               : cf_chan_allocate(channel_size, bytes, &ch, shared);
    if (rc) return rc;
    shared->slots_count = options->slots;
    shared->max_message = options->max_message;
    shared->layout = layout == CF_CHANNEL_LAYOUT_LINE ? CF_CHANNEL_LAYOUT_LINE : CF_CHANNEL_LAYOUT_PACKED;
    *cfg = (struct channel_side_config){
        .slots = shared->slots,
        .slots_end = shared->slots + options->slots * stride,
        .slots_count = options->slots,
        .stride = stride,
        .payload_offset = payload_offset,
        .max_message = options->max_message,
        .spin_limit = options->spin_limit ? options->spin_limit : CF_CHANNEL_SPIN_DEFAULT,
        .homing = (uint32_t)options->homing,
        .symmetric_fences = symmetric,
    };
    *channel = ch;
    return 0;
}

int cf_chan_create(const cf_channel_options *options, size_t channel_size, void **channel,
                   struct cf_channel_shared_ *shared, struct channel_side_config *cfg) {
    return chan_create(options, channel_size, 0, NULL, 0, NULL, channel, shared, cfg);
}

int cf_chan_create_in(const cf_channel_options *options, size_t channel_size, void *storage, size_t storage_bytes,
                      size_t *needed, void **channel, struct cf_channel_shared_ *shared,
                      struct channel_side_config *cfg) {
    return chan_create(options, channel_size, 1, storage, storage_bytes, needed, channel, shared, cfg);
}

void cf_chan_home_here(const struct cf_channel_shared_ *shared) {
    /* Writing zeros keeps the initial state and makes this thread the first toucher of every page. */
    memset(shared->slots, 0, shared->map_bytes);
}

void cf_chan_destroy(void *channel, const struct cf_channel_shared_ *shared) {
    if (!shared->foreign) munmap(shared->slots, shared->map_bytes);
    free(channel);
}

void cf_chan_close(struct cf_channel_to_receiver_ *to_receiver, struct cf_channel_to_sender_ *to_sender) {
    __atomic_store_n(&to_receiver->closed, 1, __ATOMIC_SEQ_CST);
    cf_arch_full_fence();
    wake_sleeper(&to_receiver->receiver_sleeping);
    wake_sleeper(&to_sender->sender_sleeping);
}
