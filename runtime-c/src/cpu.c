#include "cacheflow/cpu.h"

#include "arch/arch.h"
#include "cpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Detected once; racing first callers compute identical values, so plain relaxed stores followed by
 * a release of `ready` are enough - no lock on the path every copy takes. */
static struct {
    uint32_t detected;
    uint32_t usable;
    size_t line;
    int ready;
} cpu;

static const struct {
    uint32_t bit;
    const char *name;
} feature_names[] = {
    {CF_CPU_SSE2, "sse2"},           {CF_CPU_AVX2, "avx2"},           {CF_CPU_AVX512F, "avx512f"},
    {CF_CPU_CLWB, "clwb"},           {CF_CPU_CLFLUSHOPT, "clflushopt"}, {CF_CPU_CLDEMOTE, "cldemote"},
    {CF_CPU_ARM_STNP, "stnp"},       {CF_CPU_ARM_DC_CVAU, "dc-cvau"}, {CF_CPU_ARM_DC_CVAC, "dc-cvac"},
    {CF_CPU_ARM_DC_CVAP, "dc-cvap"}, {CF_CPU_ARM_NEON, "neon"},    {CF_CPU_ARM_CACHEFLUSH, "cacheflush"},
    {CF_CPU_RV_ZICBOM, "zicbom"},    {CF_CPU_RV_ZIHINTNTL, "zihintntl"},
};

static int env_flag(const char *name) {
    const char *v = getenv(name);
    return v && *v && strcmp(v, "0") != 0;
}

static uint32_t allowed_by_environment(uint32_t features) {
    const char *mask = getenv("CF_CPU_FEATURES");
    if (mask && *mask) {
        char *end;
        unsigned long m = strtoul(mask, &end, 0);
        if (*end == '\0') features &= (uint32_t)m;
    }
    if (env_flag("CF_DISABLE_AVX2")) features &= ~(uint32_t)(CF_CPU_AVX2 | CF_CPU_AVX512F);
    if (env_flag("CF_DISABLE_AVX512")) features &= ~(uint32_t)CF_CPU_AVX512F;
    return features;
}

uint32_t cf_cpu_features_refresh(void) {
    size_t line;
    uint32_t detected = cf_arch_detect_features(&line);
    __atomic_store_n(&cpu.detected, detected, __ATOMIC_RELAXED);
    __atomic_store_n(&cpu.usable, allowed_by_environment(detected), __ATOMIC_RELAXED);
    __atomic_store_n(&cpu.line, line ? line : 64, __ATOMIC_RELAXED);
    __atomic_store_n(&cpu.ready, 1, __ATOMIC_RELEASE);
    return __atomic_load_n(&cpu.usable, __ATOMIC_RELAXED);
}

static void ensure_detected(void) {
    if (__builtin_expect(!__atomic_load_n(&cpu.ready, __ATOMIC_ACQUIRE), 0)) cf_cpu_features_refresh();
}

uint32_t cf_cpu_features(void) {
    ensure_detected();
    return __atomic_load_n(&cpu.usable, __ATOMIC_RELAXED);
}

uint32_t cf_cpu_features_detected(void) {
    ensure_detected();
    return __atomic_load_n(&cpu.detected, __ATOMIC_RELAXED);
}

size_t cf_cpu_cache_line(void) {
    ensure_detected();
    return __atomic_load_n(&cpu.line, __ATOMIC_RELAXED);
}

const char *cf_cpu_feature_name(uint32_t feature) {
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++)
        if (feature_names[i].bit == feature) return feature_names[i].name;
    return NULL;
}

/* snprintf-like appending: keeps counting the full length after the buffer is full. */
static void append(char *buf, size_t size, size_t *len, const char *text) {
    size_t n = strlen(text);
    if (*len < size) {
        size_t room = size - *len - 1;
        memcpy(buf + *len, text, n < room ? n : room);
        buf[*len + (n < room ? n : room)] = '\0';
    }
    *len += n;
}

int cf_cpu_describe(char *buf, size_t size) {
    uint32_t usable = cf_cpu_features(), detected = cf_cpu_features_detected();
    size_t len = 0;
    char line[32];
    if (size) buf[0] = '\0';
    append(buf, size, &len, cf_arch_name());
    snprintf(line, sizeof line, " line=%zu use:", cf_cpu_cache_line());
    append(buf, size, &len, line);
    if (!usable) append(buf, size, &len, " none");
    for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
        if (usable & feature_names[i].bit) {
            append(buf, size, &len, " ");
            append(buf, size, &len, feature_names[i].name);
        }
    }
    if (detected & ~usable) {
        append(buf, size, &len, " disabled:");
        for (size_t i = 0; i < sizeof feature_names / sizeof feature_names[0]; i++) {
            if ((detected & ~usable) & feature_names[i].bit) {
                append(buf, size, &len, " ");
                append(buf, size, &len, feature_names[i].name);
            }
        }
    }
    return (int)len;
}
