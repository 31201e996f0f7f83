/* riscv64: feature detection from the kernel's ISA string, Zicbom cache-block operations behind cf_prestore
 * and Zihintntl non-temporal hints behind cf_ntm_copy. Structurally parallel to arch/aarch64/.
 *
 * What each runtime hook does here:
 *   - Cache maintenance (Zicbom): cbo.clean writes a dirty block back and keeps it valid (CF_CLEAN; also
 *     CF_DEMOTE, which has no closer RISC-V analogue: a clean block can be read by another hart without
 *     its owner supplying it), cbo.flush writes it back and invalidates it (CF_EVICT). On a core without
 *     Zicbom these are illegal instructions, so they are issued only when the kernel lists zicbom in the
 *     ISA string of /proc/cpuinfo; Linux enables them for user space (senvcfg.CBCFE) wherever it lists
 *     them. Elsewhere nothing is issued (the safe fallback: a pre-store is a plain write).
 *   - Non-temporal copies (Zihintntl): ntl.all before each store of a whole line tells the hierarchy the
 *     line will not be reused. ntl.all is a HINT (add x0, x0, x5), a no-op on cores without the
 *     extension, but the copy is then only a slower memcpy, so it is used only where zihintntl is listed.
 *   - Block size: the device tree's riscv,cbom-block-size, else the kernel's sysfs cache description,
 *     else 64 bytes. */
#include "arch/select.h"
#if defined(CF_ARCH_RISCV64) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"

#include <stdio.h>
#include <string.h>

const char *cf_arch_name(void) { return "riscv64"; }

/* Whether the ISA string (rv64imafdc_zicbom_zihintntl...) lists the multi-letter extension `name`. */
static int isa_has(const char *isa, const char *name) {
    size_t n = strlen(name);
    for (const char *p = strchr(isa, '_'); p; p = strchr(p + 1, '_'))
        if (strncmp(p + 1, name, n) == 0 && (p[1 + n] == '_' || p[1 + n] == '\0' || p[1 + n] == '\n'))
            return 1;
    return 0;
}

static uint32_t isa_features(void) {
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return 0;
    static char line[4096];
    uint32_t features = 0;
    int first = 1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "isa", 3) != 0 || !strchr(line, ':')) continue;
        const char *isa = strchr(line, ':') + 1;
        uint32_t mine = 0;
        if (isa_has(isa, "zicbom")) mine |= CF_CPU_RV_ZICBOM;
        if (isa_has(isa, "zihintntl")) mine |= CF_CPU_RV_ZIHINTNTL;
        features = first ? mine : (features & mine); /* only what every hart has */
        first = 0;
    }
    fclose(f);
    return features;
}

static size_t block_size(void) {
    unsigned char be[4];
    FILE *f = fopen("/sys/firmware/devicetree/base/cpus/cpu@0/riscv,cbom-block-size", "rb");
    unsigned long size = 0;
    if (f) {
        if (fread(be, 1, 4, f) == 4)
            size = (unsigned long)be[0] << 24 | (unsigned long)be[1] << 16 | (unsigned long)be[2] << 8 | be[3];
        fclose(f);
    }
    if (!size && (f = fopen("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size", "r"))) {
        if (fscanf(f, "%lu", &size) != 1) size = 0;
        fclose(f);
    }
    return size >= 16 && size <= 1024 && !(size & (size - 1)) ? (size_t)size : 64;
}

uint32_t cf_arch_detect_features(size_t *cache_line) {
    *cache_line = block_size();
    return isa_features();
}

/* ntl.all (add x0, x0, x5) before each of the eight 8-byte stores of a line. */
#define CF_NTL_SD(off) ".insn r 0x33, 0, 0, x0, x0, x5\n\tsd %[t" #off "], " #off "*8(%[d])\n\t"
int cf_arch_stream_lines(void *dst, const void *src, size_t lines, uint32_t features) {
    if (!(features & CF_CPU_RV_ZIHINTNTL)) return 0;
    char *d = dst;
    const char *s = src;
    for (; lines; lines--, d += CF_STREAM_LINE, s += CF_STREAM_LINE) {
        uint64_t t[8];
        memcpy(t, s, sizeof t); /* the source may be misaligned */
        __asm__ __volatile__(CF_NTL_SD(0) CF_NTL_SD(1) CF_NTL_SD(2) CF_NTL_SD(3) CF_NTL_SD(4) CF_NTL_SD(5)
                                 CF_NTL_SD(6) CF_NTL_SD(7)
                             :
                             : [d] "r"(d), [t0] "r"(t[0]), [t1] "r"(t[1]), [t2] "r"(t[2]), [t3] "r"(t[3]),
                               [t4] "r"(t[4]), [t5] "r"(t[5]), [t6] "r"(t[6]), [t7] "r"(t[7])
                             : "memory");
    }
    return 1;
}
#undef CF_NTL_SD

/* cbo.clean and cbo.flush are I-type MISC-MEM (opcode 0x0f, funct3 2) with the operation in the immediate
 * (1: clean, 2: flush) and rd = x0; written as .insn for assemblers without Zicbom. */
size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features) {
    if (!(features & CF_CPU_RV_ZICBOM)) return 0;
    size_t lines = (end - first + line - 1) / line;
    if (ops & CF_EVICT) {
        for (uintptr_t p = first; p < end; p += line) __asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 2" ::"r"(p) : "memory");
        return lines;
    }
    if (!(ops & (CF_CLEAN | CF_DEMOTE))) return 0;
    for (uintptr_t p = first; p < end; p += line) __asm__ __volatile__(".insn i 0x0f, 2, x0, %0, 1" ::"r"(p) : "memory");
    return lines;
}

#endif /* CF_ARCH_RISCV64 */
