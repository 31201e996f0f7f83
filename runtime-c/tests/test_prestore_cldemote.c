/* cf_prestore through the cldemote instruction only; skipped (77) when the CPU lacks it. */
#include "prestore_check.h"

int main(void) {
    if (!(cf_cpu_features_detected() & CF_CPU_CLDEMOTE)) CF_SKIP("cldemote not available on this CPU");
    check_prestore_path(CF_DEMOTE, CF_CPU_CLDEMOTE);
    printf("cldemote: ok\n");
    return 0;
}
