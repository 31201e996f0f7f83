/* Internal: whether membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) can serve as the sleeping side's barrier of
 * the Dekker pairs in the channel (src/channel_common.h) and the flags (src/flag.c), so that the other side
 * -- the one on the fast path -- needs only a compiler barrier. */
#ifndef CF_MEMBARRIER_INTERNAL_H
#define CF_MEMBARRIER_INTERNAL_H

/* Registers the process for private expedited membarrier once (thread-safe) and returns 1 when it works,
 * 0 when it is unavailable (old kernel, seccomp filter): callers then use a full fence on both sides. */
int cf_membarrier_usable(void);

#endif
