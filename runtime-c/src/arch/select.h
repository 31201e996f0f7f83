/* Internal: which architecture this compiler builds for, as one macro set to 1 (the others undefined):
 * CF_ARCH_X86_64, CF_ARCH_AARCH64, CF_ARCH_ARMHF (ARMv7-A and later), CF_ARCH_RISCV64 or CF_ARCH_GENERIC.
 * arch.h includes the matching arch/<name>/arch_impl.h. Each .c file of arch/<name>/ compiles to nothing unless its
 * macro is set, so that a build which compiles every source of the runtime (a PREESM project's CMakeLists.txt
 * compiling Code/generated/) gets exactly one architecture; CMake compiles one directory anyway. No includes:
 * the .c files test the macro before their system headers (<cpuid.h>, <immintrin.h>, <sys/auxv.h>). */
#ifndef CF_INTERNAL_ARCH_SELECT_H
#define CF_INTERNAL_ARCH_SELECT_H

#if defined(__x86_64__)
#define CF_ARCH_X86_64 1
#elif defined(__aarch64__)
#define CF_ARCH_AARCH64 1
#elif defined(__arm__) && defined(__ARM_ARCH) && __ARM_ARCH >= 7
#define CF_ARCH_ARMHF 1
#elif defined(__riscv) && __riscv_xlen == 64
#define CF_ARCH_RISCV64 1
#else
#define CF_ARCH_GENERIC 1
#endif

#endif
