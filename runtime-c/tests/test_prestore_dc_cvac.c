/* cf_prestore through the dc_cvac instruction only; skipped (77) when the CPU lacks it. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_ARM_DC_CVAC)) CF_SKIP("dc_cvac not available on this CPU");
    check_prestore_path(CF_CLEAN, CF_CPU_ARM_DC_CVAC);
    printf("dc_cvac: ok\n");
    return 0;
}
