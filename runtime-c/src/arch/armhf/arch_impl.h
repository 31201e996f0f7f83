#ifndef CF_ARCH_SELECTED
#error "include src/arch/arch.h, not an arch implementation directly"
#endif
#ifndef CF_ARCH_ARMHF_IMPL_H
#define CF_ARCH_ARMHF_IMPL_H

/* ARMv7-A (armhf): yield is the spin-wait hint from ARMv6K on (a no-op on cores without SMT).
 * dmb ishst orders stores against later stores in the inner-shareable domain (all cores of a cluster
 * and their coherent peers); dmb ish orders every access. */
static inline void cf_arch_cpu_relax(void) { __asm__ __volatile__("yield" ::: "memory"); }
static inline void cf_arch_store_fence(void) { __asm__ __volatile__("dmb ishst" ::: "memory"); }
static inline void cf_arch_full_fence(void) { __asm__ __volatile__("dmb ish" ::: "memory"); }

#endif
