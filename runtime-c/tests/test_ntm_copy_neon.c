/* cf_ntm_copy through the armhf NEON whole-line path only; skipped (77) when the CPU lacks NEON. */
#include "cacheflow/cpu.h"
#include "ntm_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_ARM_NEON)) CF_SKIP("neon not available on this CPU");
    size_t checked = check_ntm_path(CF_CPU_ARM_NEON);
    check_ntm_counted(CF_CPU_ARM_NEON, 1);
    printf("neon: %zu copies checked\n", checked);
    return 0;
}
