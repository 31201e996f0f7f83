#ifndef CF_ARCH_SELECTED
#error "include src/arch/arch.h, not an arch implementation directly"
#endif
#ifndef CF_ARCH_RISCV64_IMPL_H
#define CF_ARCH_RISCV64_IMPL_H

/* RISC-V (RV64): pause (Zihintpause) is encoded as fence w,0, a HINT every core executes as a no-op when
 * it lacks the extension, so it needs no detection; written as .insn for assemblers that predate it.
 * fence w,w orders stores (the non-temporal hint does not change how they are ordered) and the
 * cache-block operations, which FENCE orders as stores; fence rw,rw orders every access. */
static inline void cf_arch_cpu_relax(void) { __asm__ __volatile__(".insn i 0x0f, 0, x0, x0, 0x010" ::: "memory"); }
static inline void cf_arch_store_fence(void) { __asm__ __volatile__("fence w, w" ::: "memory"); }
static inline void cf_arch_full_fence(void) { __asm__ __volatile__("fence rw, rw" ::: "memory"); }

#endif
