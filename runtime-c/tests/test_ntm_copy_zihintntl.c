/* cf_ntm_copy through the riscv64 ntl.all path. ntl.all is a HINT that every RISC-V core executes (as a
 * no-op without Zihintntl), so on riscv64 the path runs whether or not the kernel lists the extension;
 * skipped (77) on other architectures. */
#include "cacheflow/cpu.h"
#include "ntm_check.h"

int main(void) {
#if defined(__riscv)
    size_t checked = check_ntm_path(CF_CPU_RV_ZIHINTNTL);
    check_ntm_counted(CF_CPU_RV_ZIHINTNTL, 1);
    printf("zihintntl: %zu copies checked (detected: %s)\n", checked,
           cf_cpu_features_detected() & CF_CPU_RV_ZIHINTNTL ? "yes" : "no");
    return 0;
#else
    (void)check_ntm_path, (void)check_ntm_counted;
    CF_SKIP("not riscv64");
#endif
}
