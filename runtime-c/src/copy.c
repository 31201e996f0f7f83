#include "cacheflow/copy.h"

#include "arch/arch.h"
#include "cacheflow/cpu.h"
#include "cpu_internal.h"
#include "stats_internal.h"

#include <string.h>

void cf_copy(void *dst, const void *src, size_t n) {
    if (!n) return;
    memcpy(dst, src, n);
    CF_STAT_ADD(bytes_memcpy, n);
}

/* Layout of one call, by destination cache lines:
 *   head: bytes up to the first 64-byte boundary of dst - memcpy (a partial line would need a
 *         read-for-ownership anyway, and streaming a partial line costs a full memory write)
 *   body: whole aligned lines - streaming stores, source may be misaligned (unaligned loads)
 *   tail: the remaining < 64 bytes - memcpy
 * The store fence orders the write-combining buffers before whatever the caller stores next. */
void cf_ntm_copy_fenced(void *dst, const void *src, size_t n, uint32_t features, int fence) {
    if (!n) return;
    char *d = dst;
    const char *s = src;
    size_t head = (size_t)(-(uintptr_t)d & (CF_STREAM_LINE - 1));
    if (head >= n) {
        cf_copy(d, s, n);
        return;
    }
    size_t lines = (n - head) / CF_STREAM_LINE;
    size_t tail = n - head - lines * CF_STREAM_LINE;
    if (lines && cf_arch_stream_lines(d + head, s + head, lines, features)) {
        if (fence) cf_arch_store_fence();
        CF_STAT_ADD(bytes_ntm, lines * CF_STREAM_LINE);
        cf_copy(d, s, head);
        cf_copy(d + head + lines * CF_STREAM_LINE, s + head + lines * CF_STREAM_LINE, tail);
        return;
    }
    cf_copy(d, s, n);
}

void cf_ntm_copy_with(void *dst, const void *src, size_t n, uint32_t features) {
    cf_ntm_copy_fenced(dst, src, n, features, 1);
}

void cf_ntm_copy(void *dst, const void *src, size_t n) { cf_ntm_copy_fenced(dst, src, n, cf_cpu_features(), 1); }
