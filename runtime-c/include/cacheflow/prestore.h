/* Pre-stores: software-directed movement of written data down the memory hierarchy (the converse of a
 * prefetch), after Wu, Lepers and Zwaenepoel, "Pre-Stores", EuroSys 2025.
 *
 * cf_prestore(addr, size, ops) acts on every cache line overlapping [addr, addr+size):
 *   CF_DEMOTE  move the lines out of the private caches towards the shared level, keeping them cached
 *              (x86 cldemote; aarch64 dc cvau - clean to the point of unification). Use it for data
 *              another core reads soon and this core rewrites later.
 *   CF_CLEAN   start writing dirty lines back to memory, keeping them cached (x86 clwb, or clflushopt
 *              when clwb is missing - clflushopt also drops the line; aarch64 dc cvac). Use it for data
 *              that is re-read but not rewritten: later evictions cost nothing.
 *   CF_EVICT   write back and drop the lines (x86 clflushopt, else clflush; aarch64 dc civac). Not a
 *              paper operation: benchmarks use it to make data cold.
 *   CF_FENCE   afterwards, wait until the requests above are ordered before later stores (sfence /
 *              dmb ish). Without it the call is non-blocking, as in the paper: the lines move in the
 *              background. Correctness never depends on the other flags - caches stay coherent - so
 *              CF_FENCE only matters to code that needs the write-backs ordered (e.g. persistence).
 * An operation the processor lacks is skipped silently (cldemote executes as a no-op on many CPUs).
 * Returns 0, or -EINVAL for unknown flags or CF_SKIP (which describes how to write, not what to do
 * with data already written: use cf_prestore_write). size 0 does nothing and returns 0.
 *
 * cf_prestore_write(dst, src, n, ops) writes n bytes and pre-stores them in one call:
 *   CF_SKIP    write with non-temporal stores, skipping the caches entirely (the paper's third
 *              option, for data that is neither re-read nor rewritten by this core). Non-temporal
 *              stores are weakly ordered: pass CF_FENCE, or call cf_prestore_fence() before publishing
 *              the data to another thread (e.g. before setting a ready flag).
 *   CF_DEMOTE / CF_CLEAN / CF_EVICT  write with ordinary stores, then pre-store [dst, dst+n).
 *   0          a plain copy.
 * CF_SKIP cannot be combined with CF_DEMOTE/CF_CLEAN/CF_EVICT (-EINVAL): skipped data is not cached.
 *
 * Counted in cf_stats: prestores (one per call that issued cache-line operations), prestore_lines,
 * bytes_ntm (CF_SKIP) and bytes_memcpy (ordinary writes). */
#ifndef CACHEFLOW_PRESTORE_H
#define CACHEFLOW_PRESTORE_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum cf_prestore_op {
    CF_DEMOTE = 1u << 0,
    CF_CLEAN = 1u << 1,
    CF_SKIP = 1u << 2,
    CF_EVICT = 1u << 3,
    CF_FENCE = 1u << 4
};

int cf_prestore(const void *addr, size_t size, unsigned ops);
int cf_prestore_write(void *dst, const void *src, size_t n, unsigned ops);
/* Orders every earlier pre-store and non-temporal store before later stores. */
void cf_prestore_fence(void);

#ifdef __cplusplus
}
#endif
#endif
