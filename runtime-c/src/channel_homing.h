/* Internal to channel.c: the sender-side "push the message towards its home" step.
 *
 * Home-forward stores (the paper's Definition 5.1) write a line into the home node's cache and drop it
 * from the writer's. Commodity CPUs offer partial analogues, chosen per channel (cf_channel_homing):
 *   NTM    - non-temporal stores (cf_ntm_copy): whole lines bypass the sender's caches;
 *   CLEAN  - ordinary stores, then write the dirty lines back (cf_prestore CF_CLEAN: clwb / dc cvac);
 *   DEMOTE - ordinary stores, then move the lines to the shared cache level (cf_prestore CF_DEMOTE:
 *            cldemote / dc cvau), so the receiver's read need not snoop the sender's private caches.
 * The channel calls only these two functions; they are the one place that knows the copy and pre-store
 * layer. */
#ifndef CF_CHANNEL_HOMING_H
#define CF_CHANNEL_HOMING_H
#include <stddef.h>
#include <string.h>

#include "arch/arch.h"
#include "cacheflow/channel.h"
#include "cacheflow/copy.h"
#include "cacheflow/prestore.h"

/* The copying send's fill step. cf_ntm_copy ends with a store fence; plain memcpy for the rest (cf_copy
 * would count bytes in the stats on every 8-byte message, which the channel's fast path does not need). */
static inline void channel_homing_fill(cf_channel_homing homing, void *dst, const void *src, size_t n) {
    if (homing == CF_CHANNEL_HOMING_NTM) cf_ntm_copy(dst, src, n);
    else memcpy(dst, src, n);
}

/* Lines [area, area+n) are written; push them out before rdy is raised (or, for the header's own line,
 * after). NTM only needs its streaming stores ordered before rdy: they are weakly ordered even on x86,
 * and a zero-copy sender may have written them without a fence (cf_prestore_write with CF_SKIP). */
static inline void channel_homing_push(cf_channel_homing homing, const void *area, size_t n) {
    switch (homing) {
    case CF_CHANNEL_HOMING_NTM: cf_arch_store_fence(); break;
    case CF_CHANNEL_HOMING_CLEAN: cf_prestore(area, n, CF_CLEAN); break;
    case CF_CHANNEL_HOMING_DEMOTE: cf_prestore(area, n, CF_DEMOTE); break;
    case CF_CHANNEL_HOMING_NONE: break;
    }
}

#endif
