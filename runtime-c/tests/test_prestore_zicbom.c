/* cf_prestore through the riscv64 Zicbom cache-block operations only (cbo.clean for clean and demote,
 * cbo.flush for evict); skipped (77) when the kernel does not list zicbom. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_RV_ZICBOM)) CF_SKIP("zicbom not available on this CPU");
    check_prestore_path(CF_CLEAN, CF_CPU_RV_ZICBOM);
    check_prestore_path(CF_DEMOTE, CF_CPU_RV_ZICBOM);
    check_prestore_path(CF_EVICT, CF_CPU_RV_ZICBOM);
    printf("zicbom: ok\n");
    return 0;
}
