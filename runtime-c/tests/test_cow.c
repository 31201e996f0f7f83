/* Copy-on-write buffers, one thread, every mode: the iteration protocol and its release rule, page
 * granularity of private copies, re-sharing of exactly the written pages, counters, and argument
 * errors. */
#include "cacheflow/cow.h"
#include "cacheflow/stats.h"
#include "cow_internal.h"
#include "helpers.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

static size_t page;

static unsigned char pattern(size_t iter, size_t i) { return (unsigned char)(iter * 37 + i * 11 + (i >> 12)); }

static void fill(unsigned char *p, size_t n, size_t iter) {
    for (size_t i = 0; i < n; i++) p[i] = pattern(iter, i);
}

static int matches(const unsigned char *p, size_t from, size_t to, size_t iter) {
    for (size_t i = from; i < to; i++)
        if (p[i] != pattern(iter, i)) return 0;
    return 1;
}

static unsigned char *publish(cf_cow_buffer *b, size_t n, size_t iter) {
    void *data;
    CF_CHECK(cf_cow_write_begin(b, &data) == 0);
    CF_CHECK(cf_cow_write_begin(b, &data) == -EALREADY);
    fill(data, n, iter);
    CF_CHECK(cf_cow_publish(b) == 0);
    return data;
}

static void run_mode(cf_cow_mode mode) {
    const size_t n = 64 * page + 123; /* not a whole number of pages */
    cf_cow_config cfg = {mode, 1};
    cf_cow_buffer *b;
    CF_CHECK(cf_cow_create(&b, n, &cfg) == 0);
    CF_CHECK(cf_cow_buffer_mode(b) == mode && cf_cow_size(b) == n);
    CF_CHECK(cf_cow_publish(b) == -EINVAL); /* not writing */

    cf_cow_view *a, *c;
    CF_CHECK(cf_cow_view_open(b, &a) == 0);
    CF_CHECK(cf_cow_view_open(b, &c) == 0);
    unsigned char *pa, *pc, *prod;
    CF_CHECK(cf_cow_acquire(a, (void **)&pa) == -EAGAIN); /* nothing published yet */
    CF_CHECK(cf_cow_release(a) == -EINVAL);               /* not held */

    /* Iteration 1: both views see the data; c writes 3 pages (one byte each, two adjacent). */
    publish(b, n, 1);
    CF_CHECK(cf_cow_pending(b) == 2);
    CF_CHECK(cf_cow_write_begin(b, (void **)&prod) == -EBUSY);
    CF_CHECK(cf_cow_acquire(a, (void **)&pa) == 0);
    CF_CHECK(cf_cow_acquire(a, (void **)&pa) == -EBUSY);
    CF_CHECK(cf_cow_acquire(c, (void **)&pc) == 0);
    CF_CHECK(matches(pa, 0, n, 1) && matches(pc, 0, n, 1));
    pc[3 * page + 5] = 0xEE;
    pc[10 * page] = 0xEE;
    pc[11 * page + page - 1] = 0xEE;
    CF_CHECK(matches(pa, 0, n, 1)); /* a is unaffected: c's writes went to private copies */
    CF_CHECK(pc[3 * page + 5] == 0xEE && matches(pc, 3 * page, 3 * page + 5, 1) && matches(pc, 3 * page + 6, 4 * page, 1));

    cf_stats before, after;
    cf_stats_thread(&before);
    CF_CHECK(cf_cow_release(a) == 0);
    CF_CHECK(cf_cow_pending(b) == 1);
    CF_CHECK(cf_cow_write_begin(b, (void **)&prod) == -EBUSY); /* c still holds it */
    CF_CHECK(cf_cow_release(c) == 0);
    cf_stats_thread(&after);
    CF_CHECK(cf_cow_pending(b) == 0);
    if (mode == CF_COW_EAGER && !cf_cow_pagemap_usable()) { /* every page re-shared, none counted as faulted */
        CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared >= 3);
    } else if (mode != CF_COW_COPY) {
        CF_CHECK(after.cow_pages_faulted - before.cow_pages_faulted == 3);
        CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared == 3);
    } else {
        CF_CHECK(after.cow_pages_faulted == before.cow_pages_faulted);
    }
    CF_CHECK(cf_cow_acquire(c, (void **)&pc) == -EAGAIN);

    /* Iteration 2: pages c wrote show the producer's new data again; a view opened now starts with
     * the next iteration and does not block this one. */
    unsigned char *prod2 = publish(b, n, 2);
    cf_cow_view *late;
    CF_CHECK(cf_cow_view_open(b, &late) == 0);
    CF_CHECK(cf_cow_pending(b) == 2);
    CF_CHECK(cf_cow_acquire(late, (void **)&pa) == -EAGAIN);
    CF_CHECK(cf_cow_acquire(c, (void **)&pc) == 0);
    CF_CHECK(matches(pc, 0, n, 2));
    CF_CHECK(cf_cow_acquire(a, (void **)&pa) == 0);
    CF_CHECK(matches(pa, 0, n, 2));

    /* A private view is not a snapshot: a producer that ignores the release rule and writes now is
     * seen through pages the consumer only read, but not through pages it wrote. */
    if (mode != CF_COW_COPY) {
        CF_CHECK(cf_cow_write_begin(b, (void **)&prod) == -EBUSY); /* the API refuses... */
        pa[20 * page] = 0x11;
        prod2[20 * page] = 0x22; /* ...but a producer that writes anyway is seen: */
        prod2[21 * page] = 0x22;
        CF_CHECK(pa[21 * page] == 0x22); /* through a page a only read */
        CF_CHECK(pa[20 * page] == 0x11); /* not through the page a wrote */
        prod2[20 * page] = pattern(2, 20 * page);
        prod2[21 * page] = pattern(2, 21 * page);
    }

    /* a writes every page (100%). */
    cf_stats_thread(&before);
    for (size_t p = 0; p < n; p += page) pa[p] ^= 0xFF;
    CF_CHECK(cf_cow_release(a) == 0);
    cf_stats_thread(&after);
    if (mode != CF_COW_COPY) CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared == (n + page - 1) / page);
    CF_CHECK(cf_cow_release(c) == 0);

    /* Closing a view that owes a release (never acquired) unblocks the producer. */
    publish(b, n, 3);
    CF_CHECK(cf_cow_pending(b) == 3);
    CF_CHECK(cf_cow_view_close(late) == 0);
    CF_CHECK(cf_cow_pending(b) == 2);
    /* Closing a held view releases it. */
    CF_CHECK(cf_cow_acquire(a, (void **)&pa) == 0);
    CF_CHECK(matches(pa, 0, n, 3));
    CF_CHECK(cf_cow_view_close(a) == 0);
    CF_CHECK(cf_cow_destroy(b) == -EBUSY); /* c is still open; nothing was freed */
    CF_CHECK(cf_cow_acquire(c, (void **)&pc) == 0 && matches(pc, 0, n, 3));
    CF_CHECK(cf_cow_release(c) == 0);
    CF_CHECK(cf_cow_pending(b) == 0);
    CF_CHECK(cf_cow_view_close(c) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    cf_cow_buffer *b = NULL;
    cf_cow_view *v = NULL;
    void *data;
    CF_CHECK(cf_cow_create(&b, 0, NULL) == -EINVAL && b == NULL);
    CF_CHECK(cf_cow_create(NULL, 4096, NULL) == -EINVAL);
    cf_cow_config bad = {(cf_cow_mode)7, 0};
    CF_CHECK(cf_cow_create(&b, 1 << 20, &bad) == -EINVAL);
    CF_CHECK(cf_cow_create(&b, SIZE_MAX, NULL) == -EINVAL);
    CF_CHECK(cf_cow_destroy(NULL) == -EINVAL);
    CF_CHECK(cf_cow_view_open(NULL, &v) == -EINVAL);
    CF_CHECK(cf_cow_view_close(NULL) == -EINVAL);
    CF_CHECK(cf_cow_acquire(NULL, &data) == -EINVAL);
    CF_CHECK(cf_cow_release(NULL) == -EINVAL);
    CF_CHECK(cf_cow_write_begin(NULL, &data) == -EINVAL);

    /* The threshold: small buffers are copied whatever mode was asked for. */
    cf_cow_config lazy_default = {CF_COW_LAZY, 0};
    CF_CHECK(cf_cow_create(&b, CF_COW_DEFAULT_COPY_THRESHOLD - 1, &lazy_default) == 0);
    CF_CHECK(cf_cow_buffer_mode(b) == CF_COW_COPY);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(cf_cow_create(&b, CF_COW_DEFAULT_COPY_THRESHOLD, &lazy_default) == 0);
    CF_CHECK(cf_cow_buffer_mode(b) == CF_COW_LAZY);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(cf_cow_create(&b, 1, NULL) == 0 && cf_cow_buffer_mode(b) == CF_COW_COPY);
    CF_CHECK(cf_cow_destroy(b) == 0);

    run_mode(CF_COW_COPY);
    run_mode(CF_COW_EAGER);
    run_mode(CF_COW_LAZY);
    printf("cow: copy, eager and lazy modes ok\n");
    return 0;
}
