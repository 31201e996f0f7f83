/* Copy-on-write buffers written by several threads, one part each (cf_cow_config.writers).
 * (a) One thread, every mode: the sequencing of parts (a view sees nothing until every part is published;
 *     a part that published may not begin again until the iteration is complete and released), the
 *     argument errors, and cf_cow_write_begin / cf_cow_publish as part 0.
 * (b) Threads: 2 and 3 writer threads each fill their own slice of a multi-page buffer (slice borders
 *     inside pages) with the iteration number; 3 view threads acquire every iteration, check every byte
 *     of every slice, write a few pages of their view (private copies) and release, for eager, lazy and
 *     copy-mode buffers. An iteration shown before all its parts were published, a part writing into an
 *     iteration a view still holds, or a written page not re-shared shows up as a wrong byte. */
#include "cacheflow/cow.h"
#include "helpers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static size_t page;

/* ---- (a) one thread ---------------------------------------------------------------------------- */

static void creation(void) {
    cf_cow_buffer *b = NULL;
    cf_cow_config too_many = {CF_COW_EAGER, 1, CF_COW_MAX_WRITERS + 1};
    CF_CHECK(CF_COW_MAX_WRITERS == 64);
    CF_CHECK(cf_cow_create(&b, 4 * page, &too_many) == -EINVAL && b == NULL);
    cf_cow_config most = {CF_COW_EAGER, 1, 64};
    CF_CHECK(cf_cow_create(&b, 4 * page, &most) == 0 && cf_cow_writers(b) == 64);
    void *data;
    CF_CHECK(cf_cow_write_begin_part(b, 64, &data) == -EINVAL);
    CF_CHECK(cf_cow_write_begin_part(b, 63, &data) == 0);
    CF_CHECK(cf_cow_publish_part(b, 63) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
    cf_cow_config zero = {CF_COW_LAZY, 1, 0}; /* 0 = one writer */
    CF_CHECK(cf_cow_create(&b, 4 * page, &zero) == 0 && cf_cow_writers(b) == 1);
    CF_CHECK(cf_cow_write_begin_part(b, 1, &data) == -EINVAL);
    CF_CHECK(cf_cow_publish_part(b, 1) == -EINVAL);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(cf_cow_create(&b, 4 * page, NULL) == 0 && cf_cow_writers(b) == 1);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(cf_cow_write_begin_part(NULL, 0, &data) == -EINVAL);
    CF_CHECK(cf_cow_publish_part(NULL, 0) == -EINVAL);
}

static int all(const unsigned char *p, size_t from, size_t to, unsigned char value) {
    for (size_t i = from; i < to; i++)
        if (p[i] != value) return 0;
    return 1;
}

static void sequencing(cf_cow_mode mode) {
    const size_t n = 8 * page + 77, half = 4 * page + 1000; /* part 0: [0, half), part 1: [half, n) */
    cf_cow_config cfg = {mode, mode == CF_COW_COPY ? 0 : 1, 2};
    cf_cow_buffer *b;
    CF_CHECK(cf_cow_create(&b, n, &cfg) == 0);
    CF_CHECK(cf_cow_buffer_mode(b) == mode && cf_cow_writers(b) == 2);
    cf_cow_view *v;
    CF_CHECK(cf_cow_view_open(b, &v) == 0);
    unsigned char *w0, *w1, *r;

    CF_CHECK(cf_cow_publish_part(b, 0) == -EINVAL); /* without begin */
    CF_CHECK(cf_cow_write_begin_part(b, 2, (void **)&w0) == -EINVAL);
    CF_CHECK(cf_cow_write_begin_part(b, 0, NULL) == -EINVAL);
    CF_CHECK(cf_cow_publish_part(b, 2) == -EINVAL);

    /* Iteration 1: part 0 first. */
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == -EALREADY);
    CF_CHECK(cf_cow_write_begin(b, (void **)&w0) == -EALREADY); /* the same part 0 */
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == 0);
    CF_CHECK(w0 == w1); /* both get the whole buffer */
    memset(w0, 1, half);
    CF_CHECK(cf_cow_publish_part(b, 0) == 0);
    CF_CHECK(cf_cow_publish_part(b, 0) == -EINVAL); /* not writing any more */
    CF_CHECK(cf_cow_pending(b) == 0);
    CF_CHECK(cf_cow_acquire(v, (void **)&r) == -EAGAIN); /* part 1 still writes */
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == -EBUSY); /* iteration not complete */
    CF_CHECK(cf_cow_write_begin(b, (void **)&w0) == -EBUSY);
    memset(w1 + half, 1, n - half);
    CF_CHECK(cf_cow_publish_part(b, 1) == 0); /* completes iteration 1 */
    CF_CHECK(cf_cow_pending(b) == 1);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == -EBUSY); /* the view owes a release */
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == -EBUSY);
    CF_CHECK(cf_cow_acquire(v, (void **)&r) == 0);
    CF_CHECK(all(r, 0, n, 1));
    r[0] = r[half] = r[n - 1] = 0xEE; /* private copies of pages of both parts */
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == -EBUSY);
    CF_CHECK(cf_cow_release(v) == 0);
    CF_CHECK(cf_cow_pending(b) == 0);
    CF_CHECK(cf_cow_acquire(v, (void **)&r) == -EAGAIN);

    /* Iteration 2: part 1 first; a view opened meanwhile sees the iteration (it completes after the open). */
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == 0);
    memset(w1 + half, 2, n - half);
    CF_CHECK(cf_cow_publish_part(b, 1) == 0);
    cf_cow_view *late;
    CF_CHECK(cf_cow_view_open(b, &late) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == -EBUSY);
    CF_CHECK(cf_cow_acquire(v, (void **)&r) == -EAGAIN && cf_cow_acquire(late, (void **)&r) == -EAGAIN);
    CF_CHECK(cf_cow_write_begin(b, (void **)&w0) == 0); /* part 0 through the single-writer call */
    memset(w0, 2, half);
    CF_CHECK(cf_cow_publish(b) == 0);
    CF_CHECK(cf_cow_pending(b) == 2);
    CF_CHECK(cf_cow_acquire(v, (void **)&r) == 0 && all(r, 0, n, 2)); /* the written pages were re-shared */
    CF_CHECK(cf_cow_release(v) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == -EBUSY); /* late still owes it */
    CF_CHECK(cf_cow_view_close(late) == 0);                         /* closing settles that */
    CF_CHECK(cf_cow_pending(b) == 0);

    /* Iteration 3, with no view open: complete at once, nothing owed. */
    CF_CHECK(cf_cow_view_close(v) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == 0 && cf_cow_publish_part(b, 0) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == -EBUSY);
    CF_CHECK(cf_cow_write_begin_part(b, 1, (void **)&w1) == 0 && cf_cow_publish_part(b, 1) == 0);
    CF_CHECK(cf_cow_pending(b) == 0);
    CF_CHECK(cf_cow_write_begin_part(b, 0, (void **)&w0) == 0 && cf_cow_publish_part(b, 0) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
}

/* ---- (b) threads ------------------------------------------------------------------------------- */

#define VIEWS 3
#define MAX_PARTS 3

static cf_cow_buffer *shared_buffer;
static cf_cow_view *views[VIEWS];
static size_t size, iterations;
static unsigned parts;

static size_t slice_start(unsigned part) { return size * part / parts; }

static unsigned char value(size_t iter) { return (unsigned char)(iter * 7 + 1); }

static void *writer(void *arg) {
    unsigned part = (unsigned)(uintptr_t)arg;
    size_t from = slice_start(part), to = slice_start(part + 1);
    for (size_t iter = 1; iter <= iterations; iter++) {
        unsigned char *p;
        int rc;
        while ((rc = cf_cow_write_begin_part(shared_buffer, part, (void **)&p)) == -EBUSY) sched_yield();
        CF_CHECK(rc == 0);
        memset(p + from, value(iter), to - from);
        if (iter % 5 == part) sched_yield(); /* vary which part publishes last */
        CF_CHECK(cf_cow_publish_part(shared_buffer, part) == 0);
    }
    return NULL;
}

static void *reader(void *arg) {
    size_t id = (size_t)arg, pages = (size + page - 1) / page;
    for (size_t iter = 1; iter <= iterations; iter++) {
        unsigned char *d;
        int rc;
        while ((rc = cf_cow_acquire(views[id], (void **)&d)) == -EAGAIN) sched_yield();
        CF_CHECK(rc == 0);
        for (size_t i = 0; i < size; i++) {
            if (d[i] != value(iter)) {
                fprintf(stderr, "view %zu, iteration %zu, %u parts: byte %zu is %u, expected %u\n", id, iter, parts,
                        i, d[i], value(iter));
                exit(1);
            }
        }
        /* Private copies of a few pages: one of them at a slice border, written by two parts. */
        if ((iter + id) % 3 != 0) {
            d[((iter * 5 + id) % pages) * page] ^= 0xFF;
            d[slice_start(1) + (iter + id) % 64] ^= 0xFF;
        }
        CF_CHECK(cf_cow_release(views[id]) == 0);
    }
    return NULL;
}

static void stress(cf_cow_mode mode, unsigned writers, size_t bytes) {
    parts = writers;
    size = bytes;
    cf_cow_config cfg = {mode, mode == CF_COW_COPY ? 0 : 1, writers};
    CF_CHECK(cf_cow_create(&shared_buffer, size, &cfg) == 0);
    CF_CHECK(cf_cow_buffer_mode(shared_buffer) == mode);
    for (size_t i = 0; i < VIEWS; i++) CF_CHECK(cf_cow_view_open(shared_buffer, &views[i]) == 0);
    pthread_t threads[VIEWS + MAX_PARTS];
    for (size_t i = 0; i < VIEWS; i++) CF_CHECK(pthread_create(&threads[i], NULL, reader, (void *)i) == 0);
    for (unsigned p = 0; p < writers; p++)
        CF_CHECK(pthread_create(&threads[VIEWS + p], NULL, writer, (void *)(uintptr_t)p) == 0);
    for (size_t i = 0; i < VIEWS + writers; i++) CF_CHECK(pthread_join(threads[i], NULL) == 0);
    CF_CHECK(cf_cow_pending(shared_buffer) == 0);
    for (size_t i = 0; i < VIEWS; i++) CF_CHECK(cf_cow_view_close(views[i]) == 0);
    CF_CHECK(cf_cow_destroy(shared_buffer) == 0);
    printf("mode %d, %u writers, %zu bytes: %zu iterations\n", (int)mode, writers, bytes, iterations);
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    creation();
    sequencing(CF_COW_EAGER);
    sequencing(CF_COW_LAZY);
    sequencing(CF_COW_COPY);

    iterations = (size_t)(3000 * cf_test_scale());
    if (iterations < 100) iterations = 100;
    for (unsigned writers = 2; writers <= 3; writers++) {
        stress(CF_COW_EAGER, writers, 16 * page + 300);
        stress(CF_COW_LAZY, writers, 16 * page + 300);
        stress(CF_COW_COPY, writers, 3 * page + 300); /* below the default threshold: copied */
    }
    return 0;
}
