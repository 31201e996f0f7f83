#ifndef CF_ARCH_SELECTED
#error "include src/arch/arch.h, not an arch implementation directly"
#endif
#ifndef CF_ARCH_AARCH64_IMPL_H
#define CF_ARCH_AARCH64_IMPL_H

static inline void cf_arch_cpu_relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
/* dmb ishst orders stores (stnp included) against later stores in the inner-shareable domain. */
static inline void cf_arch_store_fence(void) { __asm__ __volatile__("dmb ishst" ::: "memory"); }
static inline void cf_arch_full_fence(void) { __asm__ __volatile__("dmb ish" ::: "memory"); }

#endif
