/* cf_ntm_copy through the stnp streaming path only; skipped (77) when the CPU lacks it. */
#include "cacheflow/cpu.h"
#include "ntm_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_ARM_STNP)) CF_SKIP("stnp not available on this CPU");
    size_t checked = check_ntm_path(CF_CPU_ARM_STNP);
    check_ntm_counted(CF_CPU_ARM_STNP, 1);
    printf("stnp: %zu copies checked\n", checked);
    return 0;
}
