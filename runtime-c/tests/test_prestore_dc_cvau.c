/* cf_prestore through the dc_cvau instruction only; skipped (77) when the CPU lacks it. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_ARM_DC_CVAU)) CF_SKIP("dc_cvau not available on this CPU");
    check_prestore_path(CF_DEMOTE, CF_CPU_ARM_DC_CVAU);
    printf("dc_cvau: ok\n");
    return 0;
}
