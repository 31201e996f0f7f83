/* cf_ntm_copy through the avx512 streaming path only; skipped (77) when the CPU lacks it. */
#include "cacheflow/cpu.h"
#include "ntm_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_AVX512F)) CF_SKIP("avx512 not available on this CPU");
    size_t checked = check_ntm_path(CF_CPU_AVX512F | CF_CPU_AVX2 | CF_CPU_SSE2);
    check_ntm_counted(CF_CPU_AVX512F | CF_CPU_AVX2 | CF_CPU_SSE2, 1);
    printf("avx512: %zu copies checked\n", checked);
    return 0;
}
