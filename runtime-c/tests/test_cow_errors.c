/* Copy-on-write error paths: no memfd (shm_open fallback), neither memfd nor shm, mmap refused for
 * the producer or a view, a size the kernel cannot map, unreadable pagemap, too many lazy views.
 * Every failure returns a negative errno and leaves no descriptor or mapping behind. */
#include "cacheflow/cow.h"
#include "cacheflow/stats.h"
#include "cow_internal.h"
#include "fd_count.h"
#include "helpers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define SIZE (256 * 1024)

/* One full iteration through a fresh buffer: it must work whatever backing it got. */
static void round_trip(cf_cow_mode mode) {
    cf_cow_config cfg = {mode, 1};
    cf_cow_buffer *b;
    cf_cow_view *v;
    unsigned char *prod, *view;
    CF_CHECK(cf_cow_create(&b, SIZE, &cfg) == 0);
    CF_CHECK(cf_cow_view_open(b, &v) == 0);
    CF_CHECK(cf_cow_write_begin(b, (void **)&prod) == 0);
    memset(prod, 0x5c, SIZE);
    CF_CHECK(cf_cow_publish(b) == 0);
    CF_CHECK(cf_cow_acquire(v, (void **)&view) == 0);
    CF_CHECK(view[0] == 0x5c && view[SIZE - 1] == 0x5c);
    view[100] = 1;
    CF_CHECK(prod[100] == 0x5c);
    CF_CHECK(cf_cow_release(v) == 0);
    CF_CHECK(cf_cow_view_close(v) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
}

int main(void) {
    cf_cow_config eager = {CF_COW_EAGER, 1}, lazy = {CF_COW_LAZY, 1};
    cf_cow_buffer *b = NULL;
    cf_cow_view *v = NULL;
    round_trip(CF_COW_EAGER); /* warm up: one-time descriptors (pagemap) and handler are in place */
    round_trip(CF_COW_LAZY);
    int fds = count_open_fds(), maps = count_mappings();
    CF_CHECK(fds > 0 && maps == 0);

    /* memfd missing: the shm_open fallback takes over (if this system has POSIX shm at all). */
    cf_cow_inject_failures(CF_COW_FAIL_MEMFD);
    if (access("/dev/shm", W_OK) == 0) {
        round_trip(CF_COW_EAGER);
        CF_CHECK(cf_cow_last_backing() == 2);
        round_trip(CF_COW_LAZY);
    } else {
        printf("no writable /dev/shm: fallback success path not exercised\n");
    }

    /* Neither: a clear error, nothing left open. */
    cf_cow_inject_failures(CF_COW_FAIL_MEMFD | CF_COW_FAIL_SHM_OPEN);
    CF_CHECK(cf_cow_create(&b, SIZE, &eager) == -EACCES && b == NULL);
    /* ...but small buffers need no shared memory at all. */
    CF_CHECK(cf_cow_create(&b, 100, NULL) == 0 && cf_cow_buffer_mode(b) == CF_COW_COPY);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(count_open_fds() == fds && count_mappings() == maps);

    /* The producer's mapping fails: the memfd is closed again. */
    cf_cow_inject_failures(CF_COW_FAIL_MAP_PRODUCER);
    CF_CHECK(cf_cow_create(&b, SIZE, &lazy) == -ENOMEM && b == NULL);
    CF_CHECK(count_open_fds() == fds && count_mappings() == maps);

    /* A view's mapping fails: the buffer stays usable and does not wait for the failed view. */
    cf_cow_inject_failures(0);
    CF_CHECK(cf_cow_create(&b, SIZE, &lazy) == 0);
    cf_cow_inject_failures(CF_COW_FAIL_MAP_VIEW);
    CF_CHECK(cf_cow_view_open(b, &v) == -ENOMEM && v == NULL);
    cf_cow_inject_failures(0);
    void *data;
    CF_CHECK(cf_cow_write_begin(b, &data) == 0 && cf_cow_publish(b) == 0);
    CF_CHECK(cf_cow_pending(b) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(count_open_fds() == fds && count_mappings() == maps);

    /* A size the kernel refuses (ftruncate or mmap fails for real): 2^60 bytes, or on a 32-bit target
     * all but the last 64 KiB of the address space. */
    int rc = cf_cow_create(&b, ((size_t)-1 >> (sizeof(size_t) > 4 ? 4 : 0)) & ~(size_t)0xffff, &eager);
    CF_CHECK(rc < 0 && b == NULL);
    printf("2^60-byte buffer: %s\n", strerror(-rc));
    CF_CHECK(count_open_fds() == fds && count_mappings() == maps);

    /* pagemap unreadable: eager release re-shares the whole view, still correctly. */
    cf_cow_inject_failures(CF_COW_FAIL_PAGEMAP);
    cf_stats before, after;
    cf_stats_thread(&before);
    round_trip(CF_COW_EAGER);
    cf_stats_thread(&after);
    CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared == SIZE / (size_t)sysconf(_SC_PAGESIZE));
    cf_cow_inject_failures(0);

    /* Lazy views are limited by the signal handler's table: the next one gets -ENOSPC, cleanly. */
    static cf_cow_view *views[1024];
    size_t opened = 0;
    CF_CHECK(cf_cow_create(&b, SIZE, &lazy) == 0);
    while (opened < 1024 && (rc = cf_cow_view_open(b, &views[opened])) == 0) opened++;
    CF_CHECK(rc == -ENOSPC && opened >= 64 && opened < 1024);
    int maps_full = count_mappings();
    CF_CHECK(maps_full == (int)opened + 1);
    CF_CHECK(cf_cow_view_open(b, &v) == -ENOSPC);
    CF_CHECK(count_mappings() == maps_full);
    CF_CHECK(cf_cow_destroy(b) == -EBUSY);
    for (size_t i = 0; i < opened; i++) CF_CHECK(cf_cow_view_close(views[i]) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(count_open_fds() == fds && count_mappings() == maps);
    printf("cow errors: ok (%zu lazy views at most)\n", opened);
    return 0;
}
