/* x86-64: CPUID feature detection and the per-line cache operations behind cf_prestore. */
#include "arch/select.h"
#if defined(CF_ARCH_X86_64) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <cpuid.h>

const char *cf_arch_name(void) { return "x86_64"; }

/* XCR0 says which register state the OS saves on context switch; a vector width is usable only if
 * both the CPU has it and the OS preserves its registers. */
static uint64_t read_xcr0(void) {
    uint32_t lo, hi;
    __asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

#define XCR0_SSE (1u << 1)
#define XCR0_AVX (1u << 2)
#define XCR0_AVX512 ((1u << 5) | (1u << 6) | (1u << 7)) /* opmask, ZMM0-15 upper, ZMM16-31 */

uint32_t cf_arch_detect_features(size_t *cache_line) {
    unsigned eax, ebx, ecx, edx;
    uint32_t features = 0;
    *cache_line = 64;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (edx & (1u << 26)) features |= CF_CPU_SSE2;
    /* CPUID.1:EBX[15:8] is the clflush line size in 8-byte units. */
    if ((ebx >> 8) & 0xff) *cache_line = ((ebx >> 8) & 0xff) * 8u;
    int has_avx = (ecx & (1u << 28)) != 0;
    uint64_t xcr0 = (ecx & (1u << 27)) ? read_xcr0() : 0; /* OSXSAVE: xgetbv is allowed */
    if (__get_cpuid_max(0, NULL) >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        int os_avx = (xcr0 & (XCR0_SSE | XCR0_AVX)) == (XCR0_SSE | XCR0_AVX);
        if (has_avx && os_avx && (ebx & (1u << 5))) features |= CF_CPU_AVX2;
        if (os_avx && (xcr0 & XCR0_AVX512) == XCR0_AVX512 && (ebx & (1u << 16))) features |= CF_CPU_AVX512F;
        if (ebx & (1u << 23)) features |= CF_CPU_CLFLUSHOPT;
        if (ebx & (1u << 24)) features |= CF_CPU_CLWB;
        if (ecx & (1u << 25)) features |= CF_CPU_CLDEMOTE;
    }
    return features;
}

/* The instructions are named in inline assembly so the library needs no -mclwb etc.; they are only
 * executed when CPUID reported them. The "m" operand tells the compiler which line is affected. */
static inline void line_clwb(uintptr_t p) { __asm__ __volatile__("clwb %0" ::"m"(*(const volatile char *)p)); }
static inline void line_clflushopt(uintptr_t p) {
    __asm__ __volatile__("clflushopt %0" ::"m"(*(const volatile char *)p));
}
static inline void line_clflush(uintptr_t p) { __asm__ __volatile__("clflush %0" ::"m"(*(const volatile char *)p)); }
static inline void line_cldemote(uintptr_t p) { __asm__ __volatile__("cldemote %0" ::"m"(*(const volatile char *)p)); }

size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features) {
    size_t lines = (end - first + line - 1) / line;
    size_t issued = 0;
    /* Evicting subsumes cleaning and demoting: the line leaves every cache level. clflush (always
     * present on x86-64) is ordered against other stores and slower, so prefer clflushopt. */
    if (ops & CF_EVICT) {
        if (features & CF_CPU_CLFLUSHOPT)
            for (uintptr_t p = first; p < end; p += line) line_clflushopt(p);
        else
            for (uintptr_t p = first; p < end; p += line) line_clflush(p);
        return lines;
    }
    if (ops & CF_CLEAN) {
        /* Without clwb, clflushopt still starts the write-back but also drops the line: the next
         * read of it misses. Plain clflush is too strongly ordered to count as non-blocking. */
        if (features & CF_CPU_CLWB) {
            for (uintptr_t p = first; p < end; p += line) line_clwb(p);
            issued += lines;
        } else if (features & CF_CPU_CLFLUSHOPT) {
            for (uintptr_t p = first; p < end; p += line) line_clflushopt(p);
            issued += lines;
        }
    }
    if ((ops & CF_DEMOTE) && (features & CF_CPU_CLDEMOTE)) {
        for (uintptr_t p = first; p < end; p += line) line_cldemote(p);
        issued += lines;
    }
    return issued;
}

#endif /* CF_ARCH_X86_64 */
