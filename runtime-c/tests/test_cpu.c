/* cf_cpu_features / cf_cpu_describe, the environment overrides, and (on x86-64 Linux) agreement
 * with the kernel's view in /proc/cpuinfo. */
#include "cacheflow/cpu.h"
#include "cpu_internal.h"
#include "helpers.h"

#include <string.h>

#if defined(__x86_64__)
/* Returns 1 if /proc/cpuinfo lists `flag` for the first processor, 0 if not, -1 if unreadable. */
static int cpuinfo_has(const char *flag) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return -1;
    static char line[8192];
    int found = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "flags", 5) != 0) continue;
        found = 0;
        for (char *tok = strtok(strchr(line, ':') + 1, " \n"); tok; tok = strtok(NULL, " \n"))
            if (strcmp(tok, flag) == 0) found = 1;
        break;
    }
    fclose(f);
    return found;
}
#endif

int main(void) {
    unsetenv("CF_DISABLE_AVX512");
    unsetenv("CF_DISABLE_AVX2");
    unsetenv("CF_CPU_FEATURES");
    uint32_t detected = cf_cpu_features_refresh();
    CF_CHECK(detected == cf_cpu_features_detected());
    CF_CHECK(detected == cf_cpu_features());
    size_t line = cf_cpu_cache_line();
    CF_CHECK(line >= 16 && line <= 1024 && (line & (line - 1)) == 0);

#if defined(__x86_64__)
    CF_CHECK(detected & CF_CPU_SSE2);
    static const struct {
        const char *flag;
        uint32_t bit;
    } flags[] = {{"avx2", CF_CPU_AVX2}, {"avx512f", CF_CPU_AVX512F}, {"clwb", CF_CPU_CLWB},
                 {"clflushopt", CF_CPU_CLFLUSHOPT}, {"cldemote", CF_CPU_CLDEMOTE}};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        int has = cpuinfo_has(flags[i].flag);
        if (has >= 0) CF_CHECK(has == ((detected & flags[i].bit) != 0));
    }
#elif defined(__aarch64__)
    CF_CHECK(detected & CF_CPU_ARM_DC_CVAC);
#elif defined(__arm__)
    CF_CHECK(detected & CF_CPU_ARM_CACHEFLUSH);
#endif

    /* Descriptions: length query, truncation, content. */
    char full[512], tiny[8];
    int need = cf_cpu_describe(NULL, 0);
    CF_CHECK(need > 0 && (size_t)need < sizeof full);
    CF_CHECK(cf_cpu_describe(full, sizeof full) == need);
    CF_CHECK(strlen(full) == (size_t)need);
    CF_CHECK(cf_cpu_describe(tiny, sizeof tiny) == need);
    CF_CHECK(strlen(tiny) == sizeof tiny - 1 && strncmp(tiny, full, sizeof tiny - 1) == 0);
    CF_CHECK(strstr(full, "disabled") == NULL);
    for (uint32_t bit = 1; bit; bit <<= 1)
        if (detected & bit) CF_CHECK(strstr(full, cf_cpu_feature_name(bit)) != NULL);
    CF_CHECK(cf_cpu_feature_name(1u << 31) == NULL);
    printf("%s\n", full);

    /* Environment narrowing. */
    setenv("CF_DISABLE_AVX512", "1", 1);
    CF_CHECK(cf_cpu_features_refresh() == (detected & ~(uint32_t)CF_CPU_AVX512F));
    CF_CHECK(cf_cpu_features_detected() == detected);
    setenv("CF_DISABLE_AVX512", "0", 1); /* "0" means not disabled */
    CF_CHECK(cf_cpu_features_refresh() == detected);
    setenv("CF_DISABLE_AVX2", "1", 1);
    CF_CHECK((cf_cpu_features_refresh() & (CF_CPU_AVX2 | CF_CPU_AVX512F)) == 0);
    unsetenv("CF_DISABLE_AVX2");
    setenv("CF_CPU_FEATURES", "0", 1);
    CF_CHECK(cf_cpu_features_refresh() == 0);
    CF_CHECK(cf_cpu_describe(full, sizeof full) > 0);
    CF_CHECK(strstr(full, "use: none") != NULL);
    if (detected) CF_CHECK(strstr(full, "disabled:") != NULL);
    setenv("CF_CPU_FEATURES", "0x1", 1);
    CF_CHECK(cf_cpu_features_refresh() == (detected & 1u));
    setenv("CF_CPU_FEATURES", "not-a-number", 1); /* ignored rather than guessed at */
    CF_CHECK(cf_cpu_features_refresh() == detected);
    unsetenv("CF_CPU_FEATURES");
    CF_CHECK(cf_cpu_features_refresh() == detected);
    return 0;
}
