/* cf_prestore / cf_prestore_write / cf_prestore_fence as dispatched: argument errors, zero length,
 * eviction, operations the CPU lacks (silently skipped, not counted), and CF_SKIP writes handed to
 * another thread. */
#include "cacheflow/copy.h"
#include "prestore_check.h"

#include <errno.h>
#include <pthread.h>

static unsigned char handoff_buf[256 * 1024 + 7];
static int handoff_ready;

static void *consumer(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&handoff_ready, __ATOMIC_ACQUIRE)) {
    }
    for (size_t i = 0; i < sizeof handoff_buf; i++) CF_CHECK(handoff_buf[i] == (unsigned char)(i % 251));
    return NULL;
}

int main(void) {
    static unsigned char src[70001], dst[70001 + 64];
    for (size_t i = 0; i < sizeof src; i++) src[i] = (unsigned char)(i % 253);
    cf_stats before, after;

    /* Errors. */
    CF_CHECK(cf_prestore(src, 10, CF_SKIP) == -EINVAL);
    CF_CHECK(cf_prestore(src, 10, 1u << 20) == -EINVAL);
    CF_CHECK(cf_prestore_write(dst, src, 10, CF_SKIP | CF_CLEAN) == -EINVAL);
    CF_CHECK(cf_prestore_write(dst, src, 10, 1u << 20) == -EINVAL);

    /* Zero length: nothing happens, nothing is counted, pointers are not touched. */
    cf_stats_thread(&before);
    CF_CHECK(cf_prestore(NULL, 0, CF_CLEAN | CF_DEMOTE | CF_FENCE) == 0);
    CF_CHECK(cf_prestore_write(NULL, NULL, 0, CF_SKIP) == 0);
    CF_CHECK(cf_prestore_write(NULL, NULL, 0, CF_CLEAN) == 0);
    cf_stats_thread(&after);
    CF_CHECK(memcmp(&before, &after, sizeof before) == 0);

    /* No features: every cache operation is skipped and not counted. */
    cf_stats_thread(&before);
    CF_CHECK(cf_prestore_with(src, sizeof src, CF_CLEAN | CF_DEMOTE, 0) == 0);
    cf_stats_thread(&after);
    CF_CHECK(after.prestores == before.prestores && after.prestore_lines == before.prestore_lines);

    /* Eviction works on every architecture with cache maintenance (clflush is x86-64 baseline). */
#if defined(__x86_64__) || defined(__aarch64__)
    check_prestore_path(CF_EVICT, cf_cpu_features());
    check_prestore_path(CF_EVICT, 0);
#else
    (void)check_prestore_path; /* eviction on armhf (none) and riscv64 (Zicbom): test_prestore_<path>.c */
#endif
    /* Whatever the dispatcher picks for clean+demote keeps the data intact. */
    CF_CHECK(cf_prestore(src + 1, sizeof src - 1, CF_CLEAN | CF_DEMOTE) == 0);

    /* Writes: plain, clean, demote, skip (fenced and not) at odd offsets and sizes. */
    static const unsigned ops[] = {0, CF_CLEAN, CF_DEMOTE, CF_CLEAN | CF_DEMOTE | CF_FENCE, CF_SKIP, CF_SKIP | CF_FENCE};
    static const size_t sizes[] = {1, 63, 64, 65, 4097, 70001 - 5};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; o++) {
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            memset(dst, 0, sizeof dst);
            cf_stats_thread(&before);
            CF_CHECK(cf_prestore_write(dst + 5, src + 3, sizes[s], ops[o]) == 0);
            cf_prestore_fence();
            cf_stats_thread(&after);
            CF_CHECK(memcmp(dst + 5, src + 3, sizes[s]) == 0);
            CF_CHECK(dst[4] == 0 && dst[5 + sizes[s]] == 0);
            CF_CHECK((after.bytes_memcpy - before.bytes_memcpy) + (after.bytes_ntm - before.bytes_ntm) == sizes[s]);
            if (!(ops[o] & CF_SKIP)) CF_CHECK(after.bytes_ntm == before.bytes_ntm);
        }
    }

    /* CF_SKIP written data, fenced, then published with a release store: the other thread sees it. */
    static unsigned char pattern[sizeof handoff_buf];
    for (size_t i = 0; i < sizeof pattern; i++) pattern[i] = (unsigned char)(i % 251);
    pthread_t t;
    CF_CHECK(pthread_create(&t, NULL, consumer, NULL) == 0);
    CF_CHECK(cf_prestore_write(handoff_buf, pattern, sizeof pattern, CF_SKIP) == 0);
    cf_prestore_fence();
    __atomic_store_n(&handoff_ready, 1, __ATOMIC_RELEASE);
    CF_CHECK(pthread_join(t, NULL) == 0);
    printf("prestore: ok\n");
    return 0;
}
