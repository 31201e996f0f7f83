/* Shared by the test_ntm_copy*.c programs: exhaustive small sizes, every source/destination offset
 * within a cache line, sizes around page and line boundaries, and guard bytes on both sides of the
 * destination so a store outside [dst, dst+n) is caught. */
#ifndef CF_TEST_NTM_CHECK_H
#define CF_TEST_NTM_CHECK_H
#include "cacheflow/stats.h"
#include "cpu_internal.h"
#include "helpers.h"

#include <stdint.h>
#include <string.h>

#define GUARD 128
#define GUARD_BYTE 0xA5

static void check_one(uint32_t features, unsigned char *dst_area, const unsigned char *src_area, size_t dst_off,
                      size_t src_off, size_t n, size_t area) {
    memset(dst_area, GUARD_BYTE, area);
    unsigned char *dst = dst_area + GUARD + dst_off;
    const unsigned char *src = src_area + GUARD + src_off;
    cf_ntm_copy_with(dst, src, n, features);
    CF_CHECK(memcmp(dst, src, n) == 0);
    for (size_t i = 0; i < GUARD + dst_off; i++) CF_CHECK(dst_area[i] == GUARD_BYTE);
    for (size_t i = GUARD + dst_off + n; i < area; i++) CF_CHECK(dst_area[i] == GUARD_BYTE);
}

/* Returns the number of copies checked. */
static size_t check_ntm_path(uint32_t features) {
    const size_t max_n = (1u << 20) + 4099; /* crosses 1 MiB, odd */
    const size_t area = max_n + 2 * GUARD + 128;
    unsigned char *src_area = aligned_alloc(4096, (area + 4095) & ~(size_t)4095);
    unsigned char *dst_area = aligned_alloc(4096, (area + 4095) & ~(size_t)4095);
    CF_CHECK(src_area && dst_area);
    for (size_t i = 0; i < area; i++) src_area[i] = (unsigned char)(i * 131u + (i >> 8) + 7u);
    size_t checked = 0;

    /* Every size up to 4 lines + 1, at a few offset pairs (aligned, misaligned, mismatched). */
    static const size_t offsets[][2] = {{0, 0}, {1, 0}, {0, 1}, {63, 17}, {32, 32}, {5, 60}};
    for (size_t o = 0; o < sizeof offsets / sizeof offsets[0]; o++)
        for (size_t n = 0; n <= 4 * 64 + 1; n++, checked++)
            check_one(features, dst_area, src_area, offsets[o][0], offsets[o][1], n, 4 * 64 + 2 * GUARD + 128);

    /* Every destination and source offset within a line, for a size with head, body and tail. */
    for (size_t d = 0; d < 64; d++)
        for (size_t s = 0; s < 64; s += 7, checked++) check_one(features, dst_area, src_area, d, s, 1000, 1000 + 2 * GUARD + 128);

    /* Larger sizes around page and line boundaries. */
    static const size_t sizes[] = {4095, 4096, 4097, 65536 + 13, (1u << 20) - 64, (1u << 20) + 4099};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++, checked += 2) {
        check_one(features, dst_area, src_area, 0, 0, sizes[i], area);
        check_one(features, dst_area, src_area, 3, 9, sizes[i], area);
    }

    /* Zero length must not touch even an invalid pointer. */
    cf_ntm_copy_with(NULL, NULL, 0, features);
    free(src_area);
    free(dst_area);
    return checked;
}

/* The streaming path must count its bytes as non-temporal: one aligned 4 KiB copy is all body. */
static void check_ntm_counted(uint32_t features, int expect_streaming) {
    unsigned char *a = aligned_alloc(64, 4096), *b = aligned_alloc(64, 4096);
    CF_CHECK(a && b);
    memset(a, 1, 4096);
    cf_stats before, after;
    cf_stats_thread(&before);
    cf_ntm_copy_with(b, a, 4096, features);
    cf_stats_thread(&after);
    if (expect_streaming) {
        CF_CHECK(after.bytes_ntm - before.bytes_ntm == 4096);
        CF_CHECK(after.bytes_memcpy == before.bytes_memcpy);
    } else {
        CF_CHECK(after.bytes_memcpy - before.bytes_memcpy == 4096);
        CF_CHECK(after.bytes_ntm == before.bytes_ntm);
    }
    free(a);
    free(b);
}

#endif
