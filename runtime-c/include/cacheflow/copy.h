/* Copies between FIFO buffers.
 *
 * cf_copy      - an ordinary cached copy (memcpy), counted in cf_stats.bytes_memcpy. Use it when the
 *                destination is read again soon by the copying core: the data is left in its caches.
 * cf_ntm_copy  - a non-temporal copy: the destination is written with streaming stores that bypass the
 *                caches (AVX-512, AVX2 or SSE2 chosen at run time on x86-64, stnp on aarch64, memcpy
 *                elsewhere), and the source is read with non-temporal prefetches. Use it for data this
 *                core will not read again (e.g. a FIFO another core consumes later): it leaves the
 *                caches to the working set that matters. Re-reading a non-temporal copy on the same core
 *                is several times slower than re-reading a memcpy'd one.
 *
 * Both accept any alignment and size, including 0; the regions must not overlap. cf_ntm_copy ends
 * with a store fence, so once it returns its data is ordered before any later store (such as a
 * "ready" flag) and visible to other cores that observe that later store. Only whole, aligned
 * 64-byte destination lines are streamed; the partial lines at either end are copied normally
 * (at most 2 lines), so counted bytes split between bytes_ntm and bytes_memcpy accordingly. */
#ifndef CACHEFLOW_COPY_H
#define CACHEFLOW_COPY_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void cf_copy(void *dst, const void *src, size_t n);
void cf_ntm_copy(void *dst, const void *src, size_t n);

#ifdef __cplusplus
}
#endif
#endif
