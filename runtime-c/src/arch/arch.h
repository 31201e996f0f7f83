/* Internal: selects exactly one architecture implementation at build time.
 * Each arch/<name>/arch_impl.h defines the same small set of inline helpers:
 *   cf_arch_cpu_relax()        - spin-wait hint (pause / yield)
 *   cf_arch_store_fence()      - orders prior stores, including non-temporal ones, before later stores
 *   cf_arch_full_fence()       - full memory barrier
 * Each arch/<name>/ directory also holds .c files defining the out-of-line functions declared below;
 * CMake compiles exactly one such directory. Feature masking by the environment lives in src/cpu.c.
 * Do not include arch/<name>/arch_impl.h directly. */
#ifndef CF_INTERNAL_ARCH_H
#define CF_INTERNAL_ARCH_H

#include "select.h"

#define CF_ARCH_SELECTED 1
#if defined(CF_ARCH_X86_64)
#include "x86_64/arch_impl.h"
#elif defined(CF_ARCH_AARCH64)
#include "aarch64/arch_impl.h"
#elif defined(CF_ARCH_ARMHF)
#include "armhf/arch_impl.h"
#elif defined(CF_ARCH_RISCV64)
#include "riscv64/arch_impl.h"
#else
#include "generic/arch_impl.h"
#endif
#undef CF_ARCH_SELECTED

#include <stddef.h>
#include <stdint.h>

/* Streaming copies work on whole lines of this many bytes: one AVX-512 store, two AVX2 / stnp-pair
 * stores, four SSE2 stores. A full line written by streaming stores needs no read-for-ownership. */
#define CF_STREAM_LINE 64

/* Name of the architecture directory compiled in ("x86_64", "aarch64", "armhf", "riscv64", "generic"). */
const char *cf_arch_name(void);
/* Features the processor reports (enum cf_cpu_feature bits) and its smallest data-cache line. */
uint32_t cf_arch_detect_features(size_t *cache_line);
/* Copies `lines` whole CF_STREAM_LINE-byte lines, dst aligned to CF_STREAM_LINE, src any alignment,
 * with non-temporal stores using the widest path `features` allows, without a trailing fence.
 * Returns 0 when no streaming path is allowed (nothing was copied; the caller copies normally). */
int cf_arch_stream_lines(void *dst, const void *src, size_t lines, uint32_t features);
/* Issues the cache operations `ops` (CF_DEMOTE | CF_CLEAN | CF_EVICT, see prestore.h) for every line
 * in [first, end), where first is aligned to `line`. Returns how many line operations were issued
 * (0 when `features` offers none of them). No fence. */
size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features);

#endif
