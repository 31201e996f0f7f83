/* cf_ntm_copy as dispatched at run time, and the memcpy fallback (no features at all). */
#include "cacheflow/copy.h"
#include "cacheflow/cpu.h"
#include "ntm_check.h"

int main(void) {
    size_t checked = check_ntm_path(0);
    check_ntm_counted(0, 0);
    checked += check_ntm_path(cf_cpu_features());

    /* The public entry point, fence included: misaligned, odd size. */
    static unsigned char src[10007], dst[10007];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i ^ 0x5a);
    cf_ntm_copy(dst + 3, src + 1, sizeof src - 4);
    CF_CHECK(memcmp(dst + 3, src + 1, sizeof src - 4) == 0);
    cf_ntm_copy(dst, src, 0);

    /* cf_copy counts into bytes_memcpy. */
    cf_stats before, after;
    cf_stats_thread(&before);
    cf_copy(dst, src, 777);
    cf_copy(dst, src, 0);
    cf_stats_thread(&after);
    CF_CHECK(after.bytes_memcpy - before.bytes_memcpy == 777);
    CF_CHECK(memcmp(dst, src, 777) == 0);
    printf("dispatch + fallback: %zu copies checked\n", checked);
    return 0;
}
