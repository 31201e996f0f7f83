/* Shared by the test_prestore_*.c programs: one cache operation through one instruction path. */
#ifndef CF_TEST_PRESTORE_CHECK_H
#define CF_TEST_PRESTORE_CHECK_H
#include "cacheflow/cpu.h"
#include "cacheflow/prestore.h"
#include "cacheflow/stats.h"
#include "cpu_internal.h"
#include "helpers.h"

#include <string.h>

/* Writes a pattern, pre-stores a misaligned range with `ops` using only `features`, and checks that
 * the data is unchanged (write-back and eviction must never lose a store) and that exactly one
 * request covering every overlapped line was counted. */
static void check_prestore_path(unsigned ops, uint32_t features) {
    size_t line = cf_cpu_cache_line();
    size_t size = 64 * 1024;
    unsigned char *buf = aligned_alloc(4096, size);
    CF_CHECK(buf);
    const size_t ranges[][2] = {{0, 1}, {3, 1000}, {line - 1, 2}, {0, 64 * 1024 - 4096}, {4095, 4097}};
    for (size_t r = 0; r < sizeof ranges / sizeof ranges[0]; r++) {
        size_t off = ranges[r][0], n = ranges[r][1];
        for (size_t i = 0; i < size; i++) buf[i] = (unsigned char)(i * 7 + r);
        cf_stats before, after;
        cf_stats_thread(&before);
        CF_CHECK(cf_prestore_with(buf + off, n, ops, features) == 0);
        CF_CHECK(cf_prestore_with(buf + off, n, ops | CF_FENCE, features) == 0);
        cf_stats_thread(&after);
        size_t lines = (off % line + n + line - 1) / line;
        CF_CHECK(after.prestores - before.prestores == 2);
        CF_CHECK(after.prestore_lines - before.prestore_lines == 2 * lines);
        for (size_t i = 0; i < size; i++) CF_CHECK(buf[i] == (unsigned char)(i * 7 + r));
    }
    free(buf);
}

#endif
