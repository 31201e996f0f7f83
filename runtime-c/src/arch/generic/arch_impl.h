#ifndef CF_ARCH_SELECTED
#error "include src/arch/arch.h, not an arch implementation directly"
#endif
#ifndef CF_ARCH_GENERIC_IMPL_H
#define CF_ARCH_GENERIC_IMPL_H

static inline void cf_arch_cpu_relax(void) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
static inline void cf_arch_store_fence(void) { __atomic_thread_fence(__ATOMIC_RELEASE); }
static inline void cf_arch_full_fence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }

#endif
