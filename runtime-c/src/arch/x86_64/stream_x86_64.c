/* x86-64 streaming (non-temporal) line copies. Each width lives in a function compiled for that
 * instruction set through a target attribute, so the library itself builds for baseline x86-64 and
 * an AVX-512 instruction is only ever executed after CPUID said it is safe (valgrind cannot decode
 * EVEX, and CF_DISABLE_AVX512=1 steers around it).
 *
 * Source lines are prefetched with prefetchnta a few lines ahead: the line comes into the L1 without
 * being installed in the outer private levels, so copying a large cold buffer does not push the
 * caller's working set out of the L2. Destination lines are written whole by streaming stores, which
 * go to write-combining buffers and then straight to memory - no read-for-ownership, no cache fill. */
#include "arch/arch.h"
#include "cacheflow/cpu.h"

#include <immintrin.h>

/* 8 lines = 512 bytes ahead: enough to cover DRAM latency at the rate one core streams, small enough
 * that the prefetched lines are still in the L1 when the loads reach them. */
#define PREFETCH_AHEAD (8 * CF_STREAM_LINE)

static void stream_sse2(char *dst, const char *src, size_t lines) {
    for (; lines; lines--, dst += CF_STREAM_LINE, src += CF_STREAM_LINE) {
        _mm_prefetch(src + PREFETCH_AHEAD, _MM_HINT_NTA);
        __m128i a = _mm_loadu_si128((const __m128i *)src);
        __m128i b = _mm_loadu_si128((const __m128i *)(src + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(src + 32));
        __m128i d = _mm_loadu_si128((const __m128i *)(src + 48));
        _mm_stream_si128((__m128i *)dst, a);
        _mm_stream_si128((__m128i *)(dst + 16), b);
        _mm_stream_si128((__m128i *)(dst + 32), c);
        _mm_stream_si128((__m128i *)(dst + 48), d);
    }
}

__attribute__((target("avx2"))) static void stream_avx2(char *dst, const char *src, size_t lines) {
    for (; lines; lines--, dst += CF_STREAM_LINE, src += CF_STREAM_LINE) {
        _mm_prefetch(src + PREFETCH_AHEAD, _MM_HINT_NTA);
        __m256i a = _mm256_loadu_si256((const __m256i *)src);
        __m256i b = _mm256_loadu_si256((const __m256i *)(src + 32));
        _mm256_stream_si256((__m256i *)dst, a);
        _mm256_stream_si256((__m256i *)(dst + 32), b);
    }
    _mm256_zeroupper(); /* avoid the AVX-SSE transition penalty in the caller */
}

__attribute__((target("avx512f"))) static void stream_avx512(char *dst, const char *src, size_t lines) {
    /* Two lines per iteration keeps two loads in flight while the stores drain. */
    for (; lines >= 2; lines -= 2, dst += 2 * CF_STREAM_LINE, src += 2 * CF_STREAM_LINE) {
        _mm_prefetch(src + PREFETCH_AHEAD, _MM_HINT_NTA);
        _mm_prefetch(src + PREFETCH_AHEAD + CF_STREAM_LINE, _MM_HINT_NTA);
        __m512i a = _mm512_loadu_si512((const void *)src);
        __m512i b = _mm512_loadu_si512((const void *)(src + CF_STREAM_LINE));
        _mm512_stream_si512((void *)dst, a);
        _mm512_stream_si512((void *)(dst + CF_STREAM_LINE), b);
    }
    if (lines) _mm512_stream_si512((void *)dst, _mm512_loadu_si512((const void *)src));
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
