/* Hierarchical allocator, one thread: alignment and separation of blocks, first fit with splitting
 * and coalescing, large multi-chunk blocks, touch/zero flags, exhaustion with a clear error and full
 * recovery, remote frees through the garbage list, detach/destroy rules, and argument errors. */
#include "cacheflow/heap.h"
#include "cacheflow/stats.h"
#include "helpers.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>

#define CHUNK (64 * 1024)
#define CHUNKS 8

int main(void) {
    cf_heap *h = NULL;
    cf_heap_local *a = NULL, *b = NULL;
    void *p = NULL, *q = NULL;
    cf_heap_usage u;

    CF_CHECK(cf_heap_create(&h, 0, 0) == -EINVAL && h == NULL);
    CF_CHECK(cf_heap_create(&h, CHUNK, 1000) == -EINVAL);
    CF_CHECK(cf_heap_create(NULL, CHUNK, 0) == -EINVAL);
    CF_CHECK(cf_heap_create(&h, SIZE_MAX, CHUNK) == -ENOMEM && h == NULL);
    /* mmap refuses: 2^62 bytes, or on a 32-bit target all but the last 64 KiB of the address space */
    CF_CHECK(cf_heap_create(&h, ((size_t)-1 >> (sizeof(size_t) > 4 ? 2 : 0)) & ~(size_t)0xffff, CHUNK) == -ENOMEM &&
             h == NULL);
    CF_CHECK(cf_heap_create(&h, CHUNKS * CHUNK - 1, CHUNK) == 0);
    cf_heap_get_usage(h, &u);
    CF_CHECK(u.chunks_total == CHUNKS && u.chunks_in_use == 0 && u.region_bytes == CHUNKS * CHUNK);
    CF_CHECK(cf_heap_attach(h, &a) == 0 && cf_heap_attach(h, &b) == 0);
    CF_CHECK(cf_heap_alloc(a, 0, 0, &p) == -EINVAL && p == NULL);
    CF_CHECK(cf_heap_alloc(a, 10, 1u << 7, &p) == -EINVAL);
    CF_CHECK(cf_heap_alloc(NULL, 10, 0, &p) == -EINVAL);
    CF_CHECK(cf_heap_free(h, a, NULL) == -EINVAL);
    static char outside[128];
    CF_CHECK(cf_heap_free(h, a, outside) == -EINVAL);

    /* Small blocks: 64-byte aligned, disjoint lines, data intact. */
    void *blocks[100];
    for (size_t i = 0; i < 100; i++) {
        CF_CHECK(cf_heap_alloc(a, 1 + i * 37, 0, &blocks[i]) == 0);
        CF_CHECK(((uintptr_t)blocks[i] & 63) == 0);
        memset(blocks[i], (int)i, 1 + i * 37);
    }
    for (size_t i = 0; i < 100; i++) {
        for (size_t j = 0; j < 1 + i * 37; j++) CF_CHECK(((unsigned char *)blocks[i])[j] == (unsigned char)i);
        if (i) CF_CHECK((char *)blocks[i] >= (char *)blocks[i - 1] + 1 + (i - 1) * 37 + 64 ||
                        (char *)blocks[i] + 1 + i * 37 + 64 <= (char *)blocks[i - 1]);
    }
    CF_CHECK(cf_heap_local_in_use(a) > 0);
    /* Free every other block, then the rest: coalescing must give back one free run, so a block as
     * large as everything freed fits again without a new chunk. */
    cf_heap_get_usage(h, &u);
    size_t chunks_before = u.chunks_in_use;
    for (size_t i = 0; i < 100; i += 2) CF_CHECK(cf_heap_free(h, a, blocks[i]) == 0);
    CF_CHECK(cf_heap_free(h, a, blocks[0]) == -EINVAL); /* double free */
    for (size_t i = 1; i < 100; i += 2) CF_CHECK(cf_heap_free(h, a, blocks[i]) == 0);
    CF_CHECK(cf_heap_local_in_use(a) == 0);
    CF_CHECK(cf_heap_alloc(a, chunks_before * CHUNK - 64, 0, &p) == 0);
    cf_heap_get_usage(h, &u);
    CF_CHECK(u.chunks_in_use == chunks_before);
    CF_CHECK(cf_heap_free(h, a, p) == 0);

    /* A block larger than a chunk takes contiguous chunks; touch and zero flags. */
    CF_CHECK(cf_heap_alloc(b, 3 * CHUNK, CF_HEAP_ZERO, &q) == 0);
    for (size_t i = 0; i < 3 * CHUNK; i += 4096) CF_CHECK(((char *)q)[i] == 0);
    CF_CHECK(cf_heap_alloc(b, 5000, CF_HEAP_TOUCH, &p) == 0);

    /* Remote frees: a frees b's blocks; they wait in b's garbage list until b reclaims them. */
    cf_stats before, after;
    cf_stats_thread(&before);
    size_t b_used = cf_heap_local_in_use(b);
    CF_CHECK(cf_heap_free(h, a, q) == 0);
    CF_CHECK(cf_heap_free(h, NULL, p) == 0); /* a thread without a local heap */
    CF_CHECK(cf_heap_free(h, a, q) == -EINVAL); /* double remote free */
    cf_stats_thread(&after);
    CF_CHECK(after.heap_remote_frees - before.heap_remote_frees == 2);
    CF_CHECK(cf_heap_local_in_use(b) == b_used);
    CF_CHECK(cf_heap_reclaim(b) == 2);
    CF_CHECK(cf_heap_local_in_use(b) == 0);
    CF_CHECK(cf_heap_reclaim(b) == 0);

    /* Exhaustion: keep allocating until -ENOMEM; the failed call changes nothing. */
    CF_CHECK(cf_heap_detach(b) == 0);
    void *all[4096];
    size_t n = 0;
    int rc;
    while (n < 4096 && (rc = cf_heap_alloc(a, 10000, 0, &all[n])) == 0) n++;
    CF_CHECK(rc == -ENOMEM && n > 0 && n < 4096);
    cf_heap_get_usage(h, &u);
    CF_CHECK(u.chunks_in_use == CHUNKS);
    CF_CHECK(cf_heap_alloc(a, CHUNKS * CHUNK + 1, 0, &p) == -ENOMEM && p == NULL);
    CF_CHECK(cf_heap_attach(h, &b) == 0);
    CF_CHECK(cf_heap_alloc(b, 1, 0, &p) == -ENOMEM); /* no chunk left for a new local heap */
    CF_CHECK(cf_heap_destroy(h) == -EBUSY);
    CF_CHECK(cf_heap_detach(a) == -EBUSY); /* blocks are still allocated */
    /* Half freed remotely (b), half locally; then everything is back. */
    for (size_t i = 0; i < n; i++) CF_CHECK(cf_heap_free(h, i % 2 ? b : a, all[i]) == 0);
    CF_CHECK(cf_heap_detach(a) == 0); /* reclaims the garbage itself */
    CF_CHECK(cf_heap_alloc(b, CHUNKS * CHUNK - 64, 0, &p) == 0); /* the whole region, one block */
    CF_CHECK(cf_heap_free(h, b, p) == 0);
    CF_CHECK(cf_heap_detach(b) == 0);
    cf_heap_get_usage(h, &u);
    CF_CHECK(u.chunks_in_use == 0 && u.locals == 0);
    CF_CHECK(cf_heap_destroy(h) == 0);
    printf("heap: ok (%zu blocks of 10000 bytes filled %d chunks)\n", n, CHUNKS);
    return 0;
}
