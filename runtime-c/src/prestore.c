#include "cacheflow/prestore.h"

#include "arch/arch.h"
#include "cacheflow/copy.h"
#include "cacheflow/cpu.h"
#include "cpu_internal.h"
#include "stats_internal.h"

#include <errno.h>
#include <string.h>

#define CACHE_OPS (CF_DEMOTE | CF_CLEAN | CF_EVICT)
#define KNOWN_OPS (CACHE_OPS | CF_SKIP | CF_FENCE)

int cf_prestore_with(const void *addr, size_t size, unsigned ops, uint32_t features) {
    if ((ops & ~(unsigned)KNOWN_OPS) || (ops & CF_SKIP)) return -EINVAL;
    if (!size) return 0;
    if (ops & CACHE_OPS) {
        size_t line = cf_cpu_cache_line();
        uintptr_t first = (uintptr_t)addr & ~(uintptr_t)(line - 1);
        uintptr_t end = (uintptr_t)addr + size;
        size_t issued = cf_arch_prestore_lines(first, end, line, ops & CACHE_OPS, features);
        if (issued) {
            CF_STAT_ADD(prestores, 1);
            CF_STAT_ADD(prestore_lines, issued);
        }
    }
    /* A full fence: clwb/clflushopt are ordered by sfence on x86; dc by dmb on aarch64. */
    if (ops & CF_FENCE) cf_arch_full_fence();
    return 0;
}

int cf_prestore(const void *addr, size_t size, unsigned ops) {
    return cf_prestore_with(addr, size, ops, cf_cpu_features());
}

int cf_prestore_write(void *dst, const void *src, size_t n, unsigned ops) {
    if (ops & ~(unsigned)KNOWN_OPS) return -EINVAL;
    if ((ops & CF_SKIP) && (ops & CACHE_OPS)) return -EINVAL;
    if (ops & CF_SKIP) {
        /* Unfenced unless asked: the caller may issue several writes and fence once. */
        cf_ntm_copy_fenced(dst, src, n, cf_cpu_features(), (ops & CF_FENCE) != 0);
        return 0;
    }
    cf_copy(dst, src, n);
    return cf_prestore(dst, n, ops);
}

void cf_prestore_fence(void) { cf_arch_full_fence(); }
