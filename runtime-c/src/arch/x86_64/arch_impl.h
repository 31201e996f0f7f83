#ifndef CF_ARCH_SELECTED
#error "include src/arch/arch.h, not an arch implementation directly"
#endif
#ifndef CF_ARCH_X86_64_IMPL_H
#define CF_ARCH_X86_64_IMPL_H

static inline void cf_arch_cpu_relax(void) { __asm__ __volatile__("pause" ::: "memory"); }
/* sfence: non-temporal stores are weakly ordered even on x86; sfence makes them globally visible first. */
static inline void cf_arch_store_fence(void) { __asm__ __volatile__("sfence" ::: "memory"); }
static inline void cf_arch_full_fence(void) { __asm__ __volatile__("mfence" ::: "memory"); }

#endif
