/* Generic fallback: no feature detection, no streaming stores, no cache maintenance. cf_ntm_copy
 * becomes memcpy and cf_prestore does nothing (both still counted). */
#include "arch/select.h"
#if defined(CF_ARCH_GENERIC) /* compiled to nothing for another processor: see arch/select.h */
#include "arch/arch.h"

const char *cf_arch_name(void) { return "generic"; }

uint32_t cf_arch_detect_features(size_t *cache_line) {
    *cache_line = 64;
    return 0;
}

int cf_arch_stream_lines(void *dst, const void *src, size_t lines, uint32_t features) {
    (void)dst, (void)src, (void)lines, (void)features;
    return 0;
}

size_t cf_arch_prestore_lines(uintptr_t first, uintptr_t end, size_t line, unsigned ops, uint32_t features) {
    (void)first, (void)end, (void)line, (void)ops, (void)features;
    return 0;
}

#endif /* CF_ARCH_GENERIC */
