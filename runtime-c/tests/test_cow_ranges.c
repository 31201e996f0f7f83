/* Copy-on-write views of a range of a buffer (cf_cow_view_open_range), as the code generator opens
 * them for the slices of a broadcast, round buffer or explode: writes at page boundaries, ranges that
 * start and end inside a page (partial pages), a consumer that writes everything, and several
 * consumers on both cores (threads pinned to CPU 0 and 1 when there are two) over many iterations.
 * Every iteration each consumer must see exactly the producer's bytes of its range, whatever it or
 * the others wrote before, and the producer's memory must never show a consumer's write. */
#define _GNU_SOURCE
#include "cacheflow/cow.h"
#include "cacheflow/stats.h"
#include "cow_internal.h"
#include "helpers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

static size_t page;

static unsigned char value(size_t iter, size_t i) { return (unsigned char)(iter * 29 + i * 7 + (i >> 12)); }

static int matches(const unsigned char *p, size_t first, size_t n, size_t iter) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != value(iter, first + i)) return 0;
    return 1;
}

static void produce(cf_cow_buffer *b, size_t iter) {
    unsigned char *p;
    int rc;
    while ((rc = cf_cow_write_begin(b, (void **)&p)) == -EBUSY) sched_yield();
    CF_CHECK(rc == 0);
    for (size_t i = 0; i < cf_cow_size(b); i++) p[i] = value(iter, i);
    CF_CHECK(cf_cow_publish(b) == 0);
}

/* One thread, each mode: ranges at and off page boundaries, writes on both sides of a boundary. */
static void boundaries(cf_cow_mode mode) {
    const size_t n = 20 * page + 100; /* the last page is partial */
    cf_cow_config cfg = {mode, 1};
    cf_cow_buffer *b;
    CF_CHECK(cf_cow_create(&b, n, &cfg) == 0);
    cf_cow_view *bad;
    CF_CHECK(cf_cow_view_open_range(b, 0, 0, &bad) == -EINVAL);
    CF_CHECK(cf_cow_view_open_range(b, n - 10, 11, &bad) == -EINVAL);
    CF_CHECK(cf_cow_view_open_range(b, n + 1, 1, &bad) == -EINVAL);
    struct {
        size_t offset, length;
    } ranges[] = {
        {4 * page, 4 * page},            /* whole pages */
        {4 * page, 4 * page},            /* the same pages, another consumer (overlapping reads) */
        {3 * page + 17, 2 * page},       /* starts and ends inside a page */
        {20 * page + 10, 50},            /* inside the partial last page */
        {16 * page, n - 16 * page},      /* whole pages then the partial tail */
        {0, n},                          /* everything */
    };
    enum { VIEWS = sizeof ranges / sizeof ranges[0] };
    cf_cow_view *v[VIEWS];
    for (int i = 0; i < VIEWS; i++) CF_CHECK(cf_cow_view_open_range(b, ranges[i].offset, ranges[i].length, &v[i]) == 0);
    for (size_t iter = 1; iter <= 4; iter++) {
        produce(b, iter);
        unsigned char *d[VIEWS];
        cf_stats before, after;
        cf_stats_thread(&before);
        for (int i = 0; i < VIEWS; i++) {
            CF_CHECK(cf_cow_acquire(v[i], (void **)&d[i]) == 0);
            CF_CHECK(matches(d[i], ranges[i].offset, ranges[i].length, iter));
        }
        size_t expected_faults = 0;
        /* view 0: the last byte of its first page and the first byte of its second: two pages */
        d[0][page - 1] ^= 0xFF;
        d[0][page] ^= 0xFF;
        expected_faults += 2;
        /* view 2: its first byte (a page it shares with bytes before the range) and its last */
        d[2][0] ^= 0xFF;
        d[2][ranges[2].length - 1] ^= 0xFF;
        expected_faults += 2;
        /* view 3: the partial page, on even iterations */
        if (iter % 2 == 0) {
            memset(d[3], 0xAB, ranges[3].length);
            expected_faults += 1;
        }
        /* view 5: writes everything */
        memset(d[5], (int)iter, n);
        expected_faults += (n + page - 1) / page;
        /* no view sees another's writes; view 1 maps the same pages as view 0 */
        CF_CHECK(matches(d[1], ranges[1].offset, ranges[1].length, iter));
        CF_CHECK(matches(d[4], ranges[4].offset, ranges[4].length, iter));
        CF_CHECK(d[0][page - 2] == value(iter, ranges[0].offset + page - 2));
        for (int i = 0; i < VIEWS; i++) CF_CHECK(cf_cow_release(v[i]) == 0);
        cf_stats_thread(&after);
        if (mode != CF_COW_COPY) {
            size_t shared = 0;
            for (int i = 0; i < VIEWS; i++) {
                size_t first = ranges[i].offset / page, last = (ranges[i].offset + ranges[i].length + page - 1) / page;
                shared += last - first;
            }
            CF_CHECK(after.cow_pages_shared - before.cow_pages_shared == shared);
            if (mode == CF_COW_EAGER && !cf_cow_pagemap_usable()) { /* every page re-shared, none counted */
                CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared >= expected_faults);
            } else {
                CF_CHECK(after.cow_pages_faulted - before.cow_pages_faulted == expected_faults);
                CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared == expected_faults);
            }
        } else {
            CF_CHECK(after.cow_pages_shared == before.cow_pages_shared);
        }
    }
    for (int i = 0; i < VIEWS; i++) CF_CHECK(cf_cow_view_close(v[i]) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
}

/* Several consumers on both cores: views of overlapping slices, each writing a different share. */
#define THREADS 4
#define ITERATIONS 120
static cf_cow_buffer *shared_buf;
static cf_cow_view *shared_views[THREADS];
static size_t slice_offset[THREADS], slice_length[THREADS];

static void pin(int cpu) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cpus < 2) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu % 2, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set); /* best effort: may be refused */
}

static void *producer_thread(void *arg) {
    (void)arg;
    pin(0);
    for (size_t iter = 1; iter <= ITERATIONS; iter++) produce(shared_buf, iter);
    return NULL;
}

static void *consumer_thread(void *arg) {
    size_t id = (size_t)arg;
    pin((int)id + 1);
    for (size_t iter = 1; iter <= ITERATIONS; iter++) {
        unsigned char *d;
        int rc;
        while ((rc = cf_cow_acquire(shared_views[id], (void **)&d)) == -EAGAIN) sched_yield();
        CF_CHECK(rc == 0);
        CF_CHECK(matches(d, slice_offset[id], slice_length[id], iter));
        switch ((iter + id) % 4) {
        case 0: break;                                          /* reads only */
        case 1: memset(d, 0x5A, slice_length[id]); break;       /* writes everything */
        case 2: d[slice_length[id] - 1] = 0x5A; break;          /* its last byte (a partial page) */
        default:                                                /* both sides of every page boundary */
            for (size_t p = page - (slice_offset[id] % page); p < slice_length[id]; p += page) {
                d[p - 1] = 0x5A;
                d[p] = 0x5A;
            }
        }
        CF_CHECK(cf_cow_release(shared_views[id]) == 0);
    }
    return NULL;
}

static void both_cores(cf_cow_mode mode) {
    const size_t n = 32 * page + 1000;
    cf_cow_config cfg = {mode, 1};
    CF_CHECK(cf_cow_create(&shared_buf, n, &cfg) == 0);
    for (size_t i = 0; i < THREADS; i++) {
        /* overlapping slices, none on a page boundary but the first */
        slice_offset[i] = i == 0 ? 0 : i * 5 * page + 333 * i;
        slice_length[i] = n - slice_offset[i] - i * 7;
        CF_CHECK(cf_cow_view_open_range(shared_buf, slice_offset[i], slice_length[i], &shared_views[i]) == 0);
    }
    pthread_t threads[THREADS + 1];
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(pthread_create(&threads[i], NULL, consumer_thread, (void *)i) == 0);
    CF_CHECK(pthread_create(&threads[THREADS], NULL, producer_thread, NULL) == 0);
    for (size_t i = 0; i <= THREADS; i++) CF_CHECK(pthread_join(threads[i], NULL) == 0);
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(cf_cow_view_close(shared_views[i]) == 0);
    CF_CHECK(cf_cow_destroy(shared_buf) == 0);
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    const cf_cow_mode modes[] = {CF_COW_EAGER, CF_COW_LAZY, CF_COW_COPY};
    for (int m = 0; m < 3; m++) {
        boundaries(modes[m]);
        both_cores(modes[m]);
        printf("mode %d: range views correct\n", (int)modes[m]);
    }
    return 0;
}
