/* Internal: how runtime code counts.  CF_STAT_ADD(field, n) adds to the calling thread's counter.
 * Only the owning thread writes its counters, so a relaxed load+store suffices (no locked RMW on
 * the hot path); readers in other threads use relaxed loads, which keeps ThreadSanitizer quiet. */
#ifndef CF_STATS_INTERNAL_H
#define CF_STATS_INTERNAL_H
#include "cacheflow/stats.h"

typedef struct cf_stats_slot {
    cf_stats counters;
    struct cf_stats_slot *next;
    int registered;
} cf_stats_slot;

extern _Thread_local cf_stats_slot cf_stats_tls;
void cf_stats_register_thread(void);
/* Non-zero once cf_stats_add has added counts made elsewhere (another MPI rank's), until the next
 * cf_stats_reset: cf_stats_total then covers more than this process's threads. */
int cf_stats_added_elsewhere(void);

#define CF_STAT_ADD(field, n)                                                              \
    do {                                                                                   \
        if (__builtin_expect(!cf_stats_tls.registered, 0)) cf_stats_register_thread();     \
        __atomic_store_n(&cf_stats_tls.counters.field,                                     \
                         __atomic_load_n(&cf_stats_tls.counters.field, __ATOMIC_RELAXED) + \
                             (uint64_t)(n),                                                \
                         __ATOMIC_RELAXED);                                                \
    } while (0)

#endif
