/* Per-thread counters of what the runtime did, readable by generated code for its report.
 * Each thread counts into its own counters (no shared cache line is written on the hot path);
 * cf_stats_total() sums every thread that ever counted, including threads that have exited. */
#ifndef CACHEFLOW_STATS_H
#define CACHEFLOW_STATS_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cf_stats {
    uint64_t bytes_memcpy;        /* bytes copied with ordinary (cached) copies */
    uint64_t bytes_ntm;           /* bytes copied or written with non-temporal stores */
    uint64_t cow_pages_faulted;   /* private pages a consumer's write created in a copy-on-write view */
    uint64_t cow_pages_reshared;  /* private pages dropped when a view was re-shared with its producer */
    uint64_t prestores;           /* pre-store requests issued (one per cf_prestore call that did work) */
    uint64_t prestore_lines;      /* cache lines those requests covered */
    uint64_t channel_waits;       /* times a channel endpoint found its slot not ready and had to wait */
    uint64_t channel_sleeps;      /* waits that ended up blocking in the kernel (futex) */
    /* Fields added later go here, at the end, so the layout above stays stable. */
    uint64_t heap_remote_frees;   /* blocks freed by a thread other than their owner (garbage pushes) */
    uint64_t cow_pages_shared;    /* pages a copy-on-write view handed to its consumer without a copy (per acquire) */
} cf_stats;

/* Counters of the calling thread since it started (or since the last cf_stats_reset). */
void cf_stats_thread(cf_stats *out);
/* Sum over all threads, live and exited. Safe to call from any thread at any time;
 * counts of threads still running may lag by the increments they are making right now. */
void cf_stats_total(cf_stats *out);
/* Adds counts made elsewhere (another process's, such as another MPI rank's) to the calling thread's
 * counters, so that cf_stats_total() includes them. */
void cf_stats_add(const cf_stats *counts);
/* Zero every counter of every thread. Call only while no other thread is counting. */
void cf_stats_reset(void);

#ifdef __cplusplus
}
#endif
#endif
