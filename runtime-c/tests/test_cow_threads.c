/* Copy-on-write under concurrency: one producer thread, three consumer threads with their own views,
 * many iterations. Consumers write none, one, 10% or all pages of their view; every iteration each
 * consumer checks that it sees exactly the producer's data (so written pages were re-shared) and the
 * producer never overwrites a buffer a consumer still holds. */
#include "cacheflow/cow.h"
#include "cacheflow/stats.h"
#include "cow_internal.h"
#include "helpers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#define CONSUMERS 3
#define ITERATIONS 150
#define PAGES 64

static size_t page, size;
static cf_cow_buffer *buf;
static cf_cow_view *views[CONSUMERS];
static size_t pages_written[CONSUMERS];

static unsigned char value(size_t iter, size_t i) { return (unsigned char)(iter * 13 + i / 512); }

static void *producer(void *arg) {
    (void)arg;
    for (size_t iter = 1; iter <= ITERATIONS; iter++) {
        unsigned char *p;
        int rc;
        while ((rc = cf_cow_write_begin(buf, (void **)&p)) == -EBUSY) sched_yield();
        CF_CHECK(rc == 0);
        for (size_t i = 0; i < size; i += 512) memset(p + i, value(iter, i), 512);
        CF_CHECK(cf_cow_publish(buf) == 0);
    }
    return NULL;
}

static void *consumer(void *arg) {
    size_t id = (size_t)arg;
    for (size_t iter = 1; iter <= ITERATIONS; iter++) {
        unsigned char *d;
        int rc;
        while ((rc = cf_cow_acquire(views[id], (void **)&d)) == -EAGAIN) sched_yield();
        CF_CHECK(rc == 0);
        for (size_t i = 0; i < size; i += 64) CF_CHECK(d[i] == value(iter, i));
        size_t stride = (iter + id) % 4 == 0 ? 0 : (iter + id) % 4 == 1 ? PAGES : (iter + id) % 4 == 2 ? 10 : 1;
        if (stride) {
            for (size_t p = (iter + id) % stride; p < PAGES; p += stride) {
                d[p * page + id] = 0xFF;
                pages_written[id]++;
            }
        }
        CF_CHECK(cf_cow_release(views[id]) == 0);
    }
    return NULL;
}

static void run(cf_cow_mode mode) {
    cf_cow_config cfg = {mode, 1};
    CF_CHECK(cf_cow_create(&buf, size, &cfg) == 0);
    for (size_t i = 0; i < CONSUMERS; i++) {
        CF_CHECK(cf_cow_view_open(buf, &views[i]) == 0);
        pages_written[i] = 0;
    }
    cf_stats before, after;
    cf_stats_total(&before);
    pthread_t threads[CONSUMERS + 1];
    for (size_t i = 0; i < CONSUMERS; i++) CF_CHECK(pthread_create(&threads[i], NULL, consumer, (void *)i) == 0);
    CF_CHECK(pthread_create(&threads[CONSUMERS], NULL, producer, NULL) == 0);
    for (size_t i = 0; i <= CONSUMERS; i++) CF_CHECK(pthread_join(threads[i], NULL) == 0);
    cf_stats_total(&after);
    size_t written = 0;
    for (size_t i = 0; i < CONSUMERS; i++) written += pages_written[i];
    if (mode == CF_COW_EAGER && !cf_cow_pagemap_usable()) { /* every page re-shared, none counted as faulted */
        CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared >= written);
    } else if (mode != CF_COW_COPY) {
        CF_CHECK(after.cow_pages_faulted - before.cow_pages_faulted == written);
        CF_CHECK(after.cow_pages_reshared - before.cow_pages_reshared == written);
    } else {
        CF_CHECK(after.bytes_memcpy - before.bytes_memcpy >= (uint64_t)CONSUMERS * ITERATIONS * size);
    }
    for (size_t i = 0; i < CONSUMERS; i++) CF_CHECK(cf_cow_view_close(views[i]) == 0);
    CF_CHECK(cf_cow_destroy(buf) == 0);
    printf("mode %d: %zu pages written and re-shared\n", (int)mode, written);
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    size = PAGES * page;
    run(CF_COW_EAGER);
    run(CF_COW_LAZY);
    run(CF_COW_COPY);
    return 0;
}
