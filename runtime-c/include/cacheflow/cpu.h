/* What the processor offers to the runtime, detected once at run time (CPUID on x86-64, HWCAP and
 * CTR_EL0 on aarch64, HWCAP on armhf, the kernel's ISA string on riscv64) and possibly narrowed by the environment:
 *   CF_DISABLE_AVX512=1   never use AVX-512 (e.g. under valgrind, which does not decode EVEX)
 *   CF_DISABLE_AVX2=1     never use AVX2 (implies no AVX-512 copy path either)
 *   CF_CPU_FEATURES=MASK  keep only the CF_CPU_* bits set in MASK (C integer syntax, e.g. 0x3)
 * Every routine that picks an instruction-set path (cf_ntm_copy, cf_prestore) reads this mask. */
#ifndef CACHEFLOW_CPU_H
#define CACHEFLOW_CPU_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum cf_cpu_feature {
    /* x86-64 */
    CF_CPU_SSE2 = 1u << 0,       /* movntdq streaming stores (baseline on x86-64) */
    CF_CPU_AVX2 = 1u << 1,       /* 256-bit vmovntdq; also requires the OS to save YMM state */
    CF_CPU_AVX512F = 1u << 2,    /* 512-bit vmovntdq; also requires the OS to save ZMM state */
    CF_CPU_CLWB = 1u << 3,       /* write a dirty line back, keep it cached */
    CF_CPU_CLFLUSHOPT = 1u << 4, /* write back and invalidate, weakly ordered */
    CF_CPU_CLDEMOTE = 1u << 5,   /* hint: move a line from the private caches towards the shared one */
    /* aarch64 */
    CF_CPU_ARM_STNP = 1u << 8,    /* stnp of q registers (needs Advanced SIMD) */
    CF_CPU_ARM_DC_CVAU = 1u << 9, /* clean to the point of unification (user cache maintenance on) */
    CF_CPU_ARM_DC_CVAC = 1u << 10, /* clean to the point of coherency */
    CF_CPU_ARM_DC_CVAP = 1u << 11, /* clean to the point of persistence (HWCAP_DCPOP) */
    /* armhf (ARMv7-A) */
    CF_CPU_ARM_NEON = 1u << 12,       /* whole-line NEON copies (HWCAP_NEON) */
    CF_CPU_ARM_CACHEFLUSH = 1u << 13, /* the kernel's cacheflush call: clean to the point of unification */
    /* riscv64 */
    CF_CPU_RV_ZICBOM = 1u << 16,   /* cbo.clean / cbo.flush cache-block operations */
    CF_CPU_RV_ZIHINTNTL = 1u << 17 /* ntl.all non-temporal hints before stores */
};

/* Bit mask of enum cf_cpu_feature the runtime will use (detected AND allowed by the environment). */
uint32_t cf_cpu_features(void);
/* Features the processor reports, before the environment narrowed them. */
uint32_t cf_cpu_features_detected(void);
/* Data cache line size in bytes that cache maintenance steps by (smallest line of the data caches). */
size_t cf_cpu_cache_line(void);
/* Name of one feature bit ("avx2", "clwb", ...), or NULL for an unknown bit. */
const char *cf_cpu_feature_name(uint32_t feature);
/* Writes a one-line description ("x86_64 line=64 use: sse2 avx2 ... disabled: avx512f") into buf
 * (always NUL-terminated when size > 0). Returns the length the full text needs, like snprintf. */
int cf_cpu_describe(char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif
