/* Internal: selects exactly one architecture implementation at build time.
 * Each arch/<name>/arch_impl.h defines the same small set of inline helpers:
 *   cf_arch_cpu_relax()        - spin-wait hint (pause / yield)
 *   cf_arch_store_fence()      - orders prior stores, including non-temporal ones, before later stores
 *   cf_arch_full_fence()       - full memory barrier
 * Runtime refinement (CPUID / HWCAP) lives in src/cpu_features.c.
 * Do not include arch/<name>/arch_impl.h directly. */
#ifndef CF_INTERNAL_ARCH_H
#define CF_INTERNAL_ARCH_H

#define CF_ARCH_SELECTED 1
#if defined(__x86_64__)
#include "x86_64/arch_impl.h"
#elif defined(__aarch64__)
#include "aarch64/arch_impl.h"
#else
#include "generic/arch_impl.h"
#endif
#undef CF_ARCH_SELECTED

#endif
