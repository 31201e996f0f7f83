/* aarch64: HWCAP / CTR_EL0 feature detection, stnp streaming copies and the dc cache operations
 * behind cf_prestore. Structurally parallel to arch/x86_64/. */
#include "arch/select.h"
#if defined(CF_ARCH_AARCH64) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <sys/auxv.h>

#ifndef HWCAP_ASIMD
#define HWCAP_ASIMD (1ul << 1)
#endif
#ifndef HWCAP_DCPOP
#define HWCAP_DCPOP (1ul << 16)
#endif

const char *cf_arch_name(void) { return "aarch64"; }

uint32_t cf_arch_detect_features(size_t *cache_line) {
    unsigned long hwcap = getauxval(AT_HWCAP);
    uint64_t ctr;
    /* CTR_EL0.DminLine (bits 19:16) = log2 of the smallest data-cache line in 4-byte words. Linux
     * lets user space read CTR_EL0 (or emulates the read), and enables user cache maintenance
     * (SCTLR_EL1.UCI), so dc cvau / cvac / civac are available to every Linux process. */
    __asm__ __volatile__("mrs %0, ctr_el0" : "=r"(ctr));
    *cache_line = (size_t)4 << ((ctr >> 16) & 0xf);
    uint32_t features = CF_CPU_ARM_DC_CVAU | CF_CPU_ARM_DC_CVAC;
    if (hwcap & HWCAP_ASIMD) features |= CF_CPU_ARM_STNP;
    if (hwcap & HWCAP_DCPOP) features |= CF_CPU_ARM_DC_CVAP;
    return features;
}

/* stnp is a store-pair with a non-temporal hint: the line is written towards memory without being
 * kept in the caches. Each line is two 32-byte q-register pairs. The source is prefetched with the
 * streaming hint (pldl1strm) so it does not displace the caller's working set either. */
int cf_arch_stream_lines(void *dst, const void *src, size_t lines, uint32_t features) {
    if (!(features & CF_CPU_ARM_STNP)) return 0;
    char *d = dst;
    const char *s = src;
    for (; lines; lines--, d += CF_STREAM_LINE, s += CF_STREAM_LINE) {
        __asm__ __volatile__(
            "prfm pldl1strm, [%1, #512]\n\t"
            "ldp q0, q1, [%1]\n\t"
            "ldp q2, q3, [%1, #32]\n\t"
            "stnp q0, q1, [%0]\n\t"
            "stnp q2, q3, [%0, #32]\n\t"
            :
            : "r"(d), "r"(s)
            : "v0", "v1", "v2", "v3", "memory");
    }
    return 1;
}

size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features) {
    size_t lines = (end - first + line - 1) / line;
    size_t issued = 0;
    if (ops & CF_EVICT) {
        for (uintptr_t p = first; p < end; p += line) __asm__ __volatile__("dc civac, %0" ::"r"(p) : "memory");
        return lines;
    }
    if ((ops & CF_CLEAN) && (features & CF_CPU_ARM_DC_CVAC)) {
        for (uintptr_t p = first; p < end; p += line) __asm__ __volatile__("dc cvac, %0" ::"r"(p) : "memory");
        issued += lines;
    }
    /* Cleaning to the point of unification makes the data visible where all cores meet (usually the
     * L2 or the interconnect) without writing it to memory: the closest aarch64 analogue of a demote. */
    if ((ops & CF_DEMOTE) && (features & CF_CPU_ARM_DC_CVAU)) {
        for (uintptr_t p = first; p < end; p += line) __asm__ __volatile__("dc cvau, %0" ::"r"(p) : "memory");
        issued += lines;
    }
    return issued;
}

#endif /* CF_ARCH_AARCH64 */
