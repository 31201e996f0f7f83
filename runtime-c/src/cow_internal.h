/* Internal: failure injection for the copy-on-write buffers, so tests can drive the error paths that a
 * healthy kernel never takes (no memfd, no shm, mmap refused). A set bit makes every later call of
 * that step fail until the bit is cleared again. */
#ifndef CF_COW_INTERNAL_H
#define CF_COW_INTERNAL_H

enum cf_cow_failure {
    CF_COW_FAIL_MEMFD = 1u << 0,       /* memfd_create fails with ENOSYS (old kernel) */
    CF_COW_FAIL_SHM_OPEN = 1u << 1,    /* shm_open fails with EACCES (no /dev/shm) */
    CF_COW_FAIL_MAP_PRODUCER = 1u << 2, /* the producer's MAP_SHARED mmap fails with ENOMEM */
    CF_COW_FAIL_MAP_VIEW = 1u << 3,    /* a consumer's MAP_PRIVATE mmap fails with ENOMEM */
    CF_COW_FAIL_PAGEMAP = 1u << 4      /* /proc/self/pagemap cannot be opened (eager falls back) */
};

void cf_cow_inject_failures(unsigned failures);
/* Whether eager views find written pages through /proc/self/pagemap (1), or re-share every page at
 * release because pagemap cannot be read or does not describe this process (0; see open_pagemap). */
int cf_cow_pagemap_usable(void);
/* Which backing the last successful cf_cow_create used: 1 memfd, 2 shm_open, 0 none (copy mode). */
int cf_cow_last_backing(void);

#endif
