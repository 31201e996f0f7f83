/* x86-64 streaming (non-temporal) line copies. Each width lives in a function compiled for that
 * instruction set through a target attribute, so the library itself builds for baseline x86-64 and
 * an AVX-512 instruction is only ever executed after CPUID said it is safe (valgrind cannot decode
 * EVEX, and CF_DISABLE_AVX512=1 steers around it).
 *
 * Source lines are prefetched with prefetchnta a few lines ahead: the line comes into the L1 without
 * being installed in the outer private levels, so copying a large cold buffer does not push the
 * caller's working set out of the L2. Destination lines are written whole by streaming stores, which
 * go to write-combining buffers and then straight to memory - no read-for-ownership, no cache fill. */
#include "arch/select.h"
#if defined(CF_ARCH_X86_64) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"
#include "cacheflow/cpu.h"

#include <immintrin.h>

/* Memory-level parallelism: one sequential stream of loads is limited by how many line fills one
 * core keeps in flight, which on the reference VM caps a single-stream copy near 5 GB/s. Walking four
 * pages side by side (one line of each per step) gives the prefetchers four streams and measured
 * 6.5-8 GB/s. Each stream prefetches its source with prefetchnta one whole block (4 pages) ahead:
 * the lines arrive in the L1 only, and because the demand loads then hit the L1, the L2 hardware
 * prefetcher is not trained on the stream and does not pull it into the L2 either (with a short
 * distance it did, and the copy evicted the caller's L2 working set almost like memcpy). 16 KiB in
 * flight fits the 32-48 KiB L1. */
#define STREAMS 4
#define STREAM_SPAN 4096
#define PREFETCH_AHEAD (STREAMS * STREAM_SPAN)

/* Copies whole lines in the interleaved order above, then the remainder sequentially. LINE(d, s)
 * streams one 64-byte line. */
#define INTERLEAVED_COPY(LINE)                                                                        \
    do {                                                                                              \
        const size_t block_lines = STREAMS * STREAM_SPAN / CF_STREAM_LINE;                            \
        for (; lines >= block_lines; lines -= block_lines, dst += STREAMS * STREAM_SPAN,              \
                                     src += STREAMS * STREAM_SPAN) {                                  \
            for (size_t off = 0; off < STREAM_SPAN; off += CF_STREAM_LINE) {                          \
                for (size_t s = 0; s < STREAMS; s++) {                                                \
                    _mm_prefetch(src + s * STREAM_SPAN + off + PREFETCH_AHEAD, _MM_HINT_NTA);         \
                    LINE(dst + s * STREAM_SPAN + off, src + s * STREAM_SPAN + off);                   \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        for (; lines; lines--, dst += CF_STREAM_LINE, src += CF_STREAM_LINE) {                        \
            _mm_prefetch(src + 4 * CF_STREAM_LINE, _MM_HINT_NTA); /* short copies: just ahead */      \
            LINE(dst, src);                                                                           \
        }                                                                                             \
    } while (0)

/* One line = four 16-byte, two 32-byte or one 64-byte streaming store (unaligned loads). */
#define LINE_SSE2(d, s)                                                                     \
    do {                                                                                    \
        __m128i a_ = _mm_loadu_si128((const __m128i *)(s)), b_ = _mm_loadu_si128((const __m128i *)((s) + 16)); \
        __m128i c_ = _mm_loadu_si128((const __m128i *)((s) + 32)), d_ = _mm_loadu_si128((const __m128i *)((s) + 48)); \
        _mm_stream_si128((__m128i *)(d), a_);                                               \
        _mm_stream_si128((__m128i *)((d) + 16), b_);                                        \
        _mm_stream_si128((__m128i *)((d) + 32), c_);                                        \
        _mm_stream_si128((__m128i *)((d) + 48), d_);                                        \
    } while (0)
#define LINE_AVX2(d, s)                                                                     \
    do {                                                                                    \
        __m256i a_ = _mm256_loadu_si256((const __m256i *)(s)), b_ = _mm256_loadu_si256((const __m256i *)((s) + 32)); \
        _mm256_stream_si256((__m256i *)(d), a_);                                            \
        _mm256_stream_si256((__m256i *)((d) + 32), b_);                                     \
    } while (0)
#define LINE_AVX512(d, s) _mm512_stream_si512((void *)(d), _mm512_loadu_si512((const void *)(s)))

static void stream_sse2(char *dst, const char *src, size_t lines) { INTERLEAVED_COPY(LINE_SSE2); }

__attribute__((target("avx2"))) static void stream_avx2(char *dst, const char *src, size_t lines) {
    INTERLEAVED_COPY(LINE_AVX2);
    _mm256_zeroupper(); /* avoid the AVX-SSE transition penalty in the caller */
}

__attribute__((target("avx512f"))) static void stream_avx512(char *dst, const char *src, size_t lines) {
    INTERLEAVED_COPY(LINE_AVX512);
    _mm256_zeroupper();
}

int cf_arch_stream_lines(void *dst, const void *src, size_t lines, uint32_t features) {
    if (features & CF_CPU_AVX512F)
        stream_avx512(dst, src, lines);
    else if (features & CF_CPU_AVX2)
        stream_avx2(dst, src, lines);
    else if (features & CF_CPU_SSE2)
        stream_sse2(dst, src, lines);
    else
        return 0;
    return 1;
}

#endif /* CF_ARCH_X86_64 */
