/* Generated programs' copy-on-write parts and per-core report (cacheflow/support.h): two cores write one part each
 * of a buffer through cf_gen_cow_write_begin_part / cf_gen_cow_publish_part, a third reads it through a lazy view
 * and writes some pages; cf_gen_print_stats then prints, after the unchanged "stats:" line, one line per core with
 * that core's own copy-on-write counters. No per-core lines before any cf_gen_run_cores, after a run that shared no
 * page, nor once other processes' counts were added (cf_stats_add, as MPI rank 0 does). A process of its own: the
 * records are the runtime's. */
#include "cacheflow/support.h"
#include "helpers.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define ITERATIONS 40
#define PAGES 8

static size_t page, size;
static cf_cow_buffer *buffer;
static cf_cow_view *view;
static cf_stats own[3]; /* what each core counted, as it saw it at its end */
static size_t written;  /* pages the reading core wrote */

/* What cf_gen_print_stats prints. */
static void print_stats(void *argument) {
    (void)argument;
    cf_gen_print_stats(ITERATIONS, 0.5);
}

static void printed(char *text, size_t capacity) { cf_test_stdout_of(print_stats, NULL, text, capacity); }

/* The two lines every report has: the totals, byte for byte as before, then the time. */
static void totals(char *text, size_t capacity, char *time, size_t time_capacity) {
    cf_stats t;
    cf_stats_total(&t);
    snprintf(text, capacity,
             "stats: bytes copied %llu, non-temporal %llu, cow pages shared %llu, faulted %llu, re-shared %llu, "
             "pre-stores %llu (%llu lines), channel waits %llu (sleeps %llu)\n",
             (unsigned long long)t.bytes_memcpy, (unsigned long long)t.bytes_ntm,
             (unsigned long long)t.cow_pages_shared, (unsigned long long)t.cow_pages_faulted,
             (unsigned long long)t.cow_pages_reshared, (unsigned long long)t.prestores,
             (unsigned long long)t.prestore_lines, (unsigned long long)t.channel_waits,
             (unsigned long long)t.channel_sleeps);
    snprintf(time, time_capacity, "time: %.6f s for %d iterations\n", 0.5, ITERATIONS);
}

static void expect_no_core_lines(void) {
    char text[2048], stats[512], time[128], expected[1024];
    printed(text, sizeof text);
    totals(stats, sizeof stats, time, sizeof time);
    snprintf(expected, sizeof expected, "%s%s", stats, time);
    CF_CHECK(strcmp(text, expected) == 0);
}

static void *writer(unsigned part) {
    for (int i = 1; i <= ITERATIONS; i++) {
        uint8_t *data = cf_gen_cow_write_begin_part(buffer, part, "cf_cow_write_begin_part");
        size_t from = size * part / 2, to = size * (part + 1) / 2;
        memset(data + from, i, to - from);
        cf_gen_cow_publish_part(buffer, part, "cf_cow_publish_part");
    }
    cf_stats_thread(&own[part]);
    return NULL;
}

static void *core0(void *argument) {
    (void)argument;
    return writer(0);
}

static void *core1(void *argument) {
    (void)argument;
    return writer(1);
}

static void *core2(void *argument) {
    (void)argument;
    for (int i = 1; i <= ITERATIONS; i++) {
        uint8_t *data = cf_gen_cow_acquire(view, "cf_cow_acquire");
        for (size_t b = 0; b < size; b++) CF_CHECK(data[b] == (uint8_t)i);
        for (size_t p = (size_t)i % 3; p < PAGES; p += 3) { /* private copies, re-shared at release */
            data[p * page] = 0;
            written++;
        }
        cf_gen_cow_release(view, "cf_cow_release");
    }
    cf_stats_thread(&own[2]);
    return NULL;
}

static void *idle(void *argument) { return argument; }

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    size = PAGES * page;

    expect_no_core_lines(); /* no cf_gen_run_cores yet */
    void *(*const nothing[])(void *) = {idle, idle};
    cf_gen_run_cores(nothing, 2, 0);
    expect_no_core_lines(); /* core threads, but no page shared */

    cf_cow_config cfg = {CF_COW_LAZY, 1, 2};
    cf_gen_check(cf_cow_create(&buffer, size, &cfg), "cf_cow_create");
    cf_gen_check(cf_cow_view_open(buffer, &view), "cf_cow_view_open");
    void *(*const cores[])(void *) = {core0, core1, core2};
    for (int pin = 0; pin <= 1; pin++) {
        memset(own, 0, sizeof own);
        written = 0;
        cf_gen_run_cores(cores, 3, pin);
        CF_CHECK(own[0].cow_pages_shared == 0 && own[1].cow_pages_shared == 0);
        CF_CHECK(own[2].cow_pages_shared == (uint64_t)ITERATIONS * PAGES);
        CF_CHECK(own[2].cow_pages_faulted == written && own[2].cow_pages_reshared == written);

        char text[2048], stats[512], time[128], expected[2048];
        printed(text, sizeof text);
        totals(stats, sizeof stats, time, sizeof time);
        int at = snprintf(expected, sizeof expected, "%s", stats);
        for (int c = 0; c < 3; c++) /* each run's own counts: the core threads are new */
            at += snprintf(expected + at, sizeof expected - (size_t)at,
                           "stats core %d: cow pages shared %llu, faulted %llu, re-shared %llu\n", c,
                           (unsigned long long)own[c].cow_pages_shared, (unsigned long long)own[c].cow_pages_faulted,
                           (unsigned long long)own[c].cow_pages_reshared);
        snprintf(expected + at, sizeof expected - (size_t)at, "%s", time);
        if (strcmp(text, expected) != 0) {
            fprintf(stderr, "printed:\n%sexpected:\n%s", text, expected);
            return 1;
        }
        if (pin) printf("%s", text);
    }
    cf_gen_check(cf_cow_view_close(view), "cf_cow_view_close");
    cf_gen_check(cf_cow_destroy(buffer), "cf_cow_destroy");

    cf_stats none;
    memset(&none, 0, sizeof none);
    cf_stats_add(&none); /* what MPI rank 0 does before printing: the core lines would be this node's only */
    expect_no_core_lines();
    return 0;
}
