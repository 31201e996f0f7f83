/* cf_prestore's demote through the armhf cacheflush system call only; skipped (77) elsewhere. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_ARM_CACHEFLUSH)) CF_SKIP("cacheflush not available on this CPU");
    check_prestore_path(CF_DEMOTE, CF_CPU_ARM_CACHEFLUSH);
    check_prestore_path(CF_DEMOTE | CF_CLEAN, CF_CPU_ARM_CACHEFLUSH);
    printf("cacheflush: ok\n");
    return 0;
}
