/* Internal: feature-explicit entry points, so tests and benchmarks can drive one instruction-set path
 * at a time regardless of what the dispatcher would pick, plus re-detection after changing the
 * environment. */
#ifndef CF_CPU_INTERNAL_H
#define CF_CPU_INTERNAL_H
#include <stddef.h>
#include <stdint.h>

/* Forgets the cached detection and reads CPUID/HWCAP and the environment again. */
uint32_t cf_cpu_features_refresh(void);

void cf_ntm_copy_with(void *dst, const void *src, size_t n, uint32_t features);
/* fence = 0 leaves the streaming stores unordered (cf_prestore_write with CF_SKIP, no CF_FENCE). */
void cf_ntm_copy_fenced(void *dst, const void *src, size_t n, uint32_t features, int fence);
int cf_prestore_with(const void *addr, size_t size, unsigned ops, uint32_t features);

#endif
