/* armhf (ARMv7-A, hard-float ABI): HWCAP feature detection, NEON whole-line copies and the one cache
 * operation a user space program may issue. Structurally parallel to arch/aarch64/.
 *
 * What ARMv7 lets user space do, and what each runtime hook does here:
 *   - Non-temporal stores: ARMv7 has none (no stnp, no streaming hint on stores). cf_ntm_copy instead
 *     writes whole 64-byte lines with NEON (vld1/vst1 of eight d registers, source prefetched ahead with
 *     pld): Cortex-A cores switch to "write streaming" (no line allocation on a write miss) once they see
 *     consecutive full-line writes, which is as close to a non-temporal copy as this architecture comes.
 *     Only with NEON (HWCAP_NEON); without it the copy is a memcpy.
 *   - Cache maintenance: the by-address instructions (DCCMVAC, DCCMVAU, DCCIMVAC) are CP15 operations
 *     that ARMv7 allows at PL1 only; a user space program traps on them. The kernel offers one range
 *     operation instead, the ARM-private cacheflush system call, which cleans the data cache to the point
 *     of unification (and invalidates the instruction cache) for the range: the analogue of aarch64's
 *     dc cvau, used for CF_DEMOTE. CF_CLEAN (to the point of coherency) and CF_EVICT have no user space
 *     equivalent and issue nothing.
 *   - Line size: CTR is not readable at PL0 on ARMv7; the kernel's sysfs cache description gives it, or
 *     sysconf where the C library knows it; 64 bytes (Cortex-A7/A15/A53/A72) otherwise. */
#include "arch/select.h"
#if defined(CF_ARCH_ARMHF) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <stdio.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef HWCAP_ARM_NEON
#define HWCAP_ARM_NEON (1ul << 12)
#endif
#ifndef __ARM_NR_cacheflush
#define __ARM_NR_cacheflush 0x0f0002
#endif

const char *cf_arch_name(void) { return "armhf"; }

static size_t sysfs_line(void) {
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size", "r");
    unsigned long line = 0;
    if (f) {
        if (fscanf(f, "%lu", &line) != 1) line = 0;
        fclose(f);
    }
#ifdef _SC_LEVEL1_DCACHE_LINESIZE
    if (!line) {
        long l = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
        if (l > 0) line = (unsigned long)l;
    }
#endif
    return line >= 16 && line <= 1024 && !(line & (line - 1)) ? (size_t)line : 64;
}

uint32_t cf_arch_detect_features(size_t *cache_line) {
    unsigned long hwcap = getauxval(AT_HWCAP);
    *cache_line = sysfs_line();
    uint32_t features = CF_CPU_ARM_CACHEFLUSH; /* every ARM Linux kernel has the system call */
    if (hwcap & HWCAP_ARM_NEON) features |= CF_CPU_ARM_NEON;
    return features;
}

/* Eight d registers (64 bytes, one CF_STREAM_LINE) loaded and stored per iteration; the destination is
 * line-aligned (the :128 alignment hint), the source any alignment. d0-d7 are caller-saved. */
__attribute__((target("fpu=neon"))) int cf_arch_stream_lines(void *dst, const void *src, size_t lines,
                                                                uint32_t features) {
    if (!(features & CF_CPU_ARM_NEON)) return 0;
    char *d = dst;
    const char *s = src;
    for (; lines; lines--, d += CF_STREAM_LINE, s += CF_STREAM_LINE) {
        __asm__ __volatile__(
            "pld [%1, #256]\n\t"
            "vld1.8 {d0-d3}, [%1]\n\t"
            "add r12, %1, #32\n\t"
            "vld1.8 {d4-d7}, [r12]\n\t"
            "vst1.64 {d0-d3}, [%0:128]\n\t"
            "add r12, %0, #32\n\t"
            "vst1.64 {d4-d7}, [r12:128]\n\t"
            :
            : "r"(d), "r"(s)
            : "r12", "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "memory");
    }
    return 1;
}

size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features) {
    if (!(ops & CF_DEMOTE) || !(features & CF_CPU_ARM_CACHEFLUSH)) return 0;
    if (syscall(__ARM_NR_cacheflush, first, end, 0) != 0) return 0;
    return (end - first + line - 1) / line;
}

#endif /* CF_ARCH_ARMHF */
