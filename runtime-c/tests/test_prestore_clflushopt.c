/* cf_prestore through the clflushopt instruction only; skipped (77) when the CPU lacks it. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_CLFLUSHOPT)) CF_SKIP("clflushopt not available on this CPU");
    check_prestore_path(CF_CLEAN, CF_CPU_CLFLUSHOPT);
    printf("clflushopt: ok\n");
    return 0;
}
