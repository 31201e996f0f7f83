/* Copy-on-write buffers in one shared memory file (cf_cow_file, cf_cow_config.file): two "variants" whose
 * buffers overlap in the file take turns, as the variants of a program do (one runs at a time, every view
 * released before the other's producer writes). Variant 1 has two buffers side by side, variant 2 one buffer
 * over both; consumers write into their views (private pages) and must still see exactly their own producer's
 * newest bytes after the other variant has overwritten the file, in eager and lazy mode, whole and range views.
 * The buffers really share the file's pages (a write through one producer mapping shows in the other), the
 * file outlives its buffers, copy mode (below the threshold) lies in the file too, its views' copies private,
 * and bad offsets are -EINVAL. */
#define _GNU_SOURCE
#include "cacheflow/cow.h"
#include "helpers.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

static size_t page;

static unsigned char value(unsigned buffer, size_t iter, size_t i) {
    return (unsigned char)(buffer * 101u + iter * 29u + i * 7u + 1u);
}

static void produce(cf_cow_buffer *b, unsigned buffer, size_t iter) {
    unsigned char *p;
    CF_CHECK(cf_cow_write_begin(b, (void **)&p) == 0); /* every view released the last iteration */
    for (size_t i = 0; i < cf_cow_size(b); i++) p[i] = value(buffer, iter, i);
    CF_CHECK(cf_cow_publish(b) == 0);
}

/* A view of [offset, offset + length) of buffer `buffer`: acquire, check every byte, write some, release. */
static void consume(cf_cow_view *v, unsigned buffer, size_t iter, size_t offset, size_t length) {
    unsigned char *p;
    CF_CHECK(cf_cow_acquire(v, (void **)&p) == 0);
    for (size_t i = 0; i < length; i++) CF_CHECK(p[i] == value(buffer, iter, offset + i));
    for (size_t i = 0; i < length; i += page / 2) p[i] = (unsigned char)~p[i]; /* private copies of some pages */
    CF_CHECK(cf_cow_release(v) == 0);
}

static void take_turns(cf_cow_mode mode) {
    const size_t a = 3 * page + 100, b = 2 * page; /* variant 1: two buffers; variant 2: one over both */
    cf_cow_file *file;
    CF_CHECK(cf_cow_file_create(&file, cf_cow_file_span(a) + cf_cow_file_span(b)) == 0);
    cf_cow_config first = {.mode = mode, .copy_threshold = 1, .file = file, .file_offset = 0};
    cf_cow_config second = {.mode = mode, .copy_threshold = 1, .file = file, .file_offset = cf_cow_file_span(a)};
    cf_cow_config over = {.mode = mode, .copy_threshold = 1, .file = file, .file_offset = 0};
    cf_cow_buffer *v1a, *v1b, *v2;
    CF_CHECK(cf_cow_create(&v1a, a, &first) == 0);
    CF_CHECK(cf_cow_create(&v1b, b, &second) == 0);
    CF_CHECK(cf_cow_create(&v2, a + b, &over) == 0);
    CF_CHECK(cf_cow_buffer_mode(v2) == mode);
    cf_cow_view *whole_a, *range_a, *whole_b, *whole_2, *range_2;
    CF_CHECK(cf_cow_view_open(v1a, &whole_a) == 0);
    CF_CHECK(cf_cow_view_open_range(v1a, page + 17, page, &range_a) == 0);
    CF_CHECK(cf_cow_view_open(v1b, &whole_b) == 0);
    CF_CHECK(cf_cow_view_open(v2, &whole_2) == 0);
    CF_CHECK(cf_cow_view_open_range(v2, 2 * page + 5, 3 * page, &range_2) == 0);
    static const int turns[] = {1, 1, 2, 1, 2, 2, 2, 1, 2, 1};
    size_t iterations[3] = {0};
    for (size_t t = 0; t < sizeof turns / sizeof turns[0]; t++) {
        size_t iter = ++iterations[turns[t]];
        if (turns[t] == 1) {
            produce(v1a, 1, iter);
            produce(v1b, 2, iter);
            consume(whole_a, 1, iter, 0, a);
            consume(range_a, 1, iter, page + 17, page);
            consume(whole_b, 2, iter, 0, b);
        } else {
            produce(v2, 3, iter);
            consume(whole_2, 3, iter, 0, a + b);
            consume(range_2, 3, iter, 2 * page + 5, 3 * page);
        }
    }
    /* the same file pages: variant 2's producer mapping shows what variant 1's producer wrote last */
    unsigned char *p1, *p2;
    CF_CHECK(cf_cow_write_begin(v1b, (void **)&p1) == 0);
    memset(p1, 0x5a, b);
    CF_CHECK(cf_cow_publish(v1b) == 0);
    CF_CHECK(cf_cow_write_begin(v2, (void **)&p2) == 0);
    CF_CHECK(p2[cf_cow_file_span(a)] == 0x5a && p2[cf_cow_file_span(a) + b - 1] == 0x5a);
    CF_CHECK(cf_cow_publish(v2) == 0);
    cf_cow_view *views[] = {whole_a, range_a, whole_b, whole_2, range_2};
    for (size_t i = 0; i < sizeof views / sizeof views[0]; i++) CF_CHECK(cf_cow_view_close(views[i]) == 0);
    CF_CHECK(cf_cow_destroy(v1a) == 0);
    CF_CHECK(cf_cow_destroy(v1b) == 0);
    CF_CHECK(cf_cow_destroy(v2) == 0);
    CF_CHECK(cf_cow_file_destroy(file) == 0);
}

static void errors(void) {
    cf_cow_file *file = (cf_cow_file *)&file;
    CF_CHECK(cf_cow_file_create(&file, 0) == -EINVAL);
    CF_CHECK(file == NULL);
    CF_CHECK(cf_cow_file_create(NULL, page) == -EINVAL);
    CF_CHECK(cf_cow_file_destroy(NULL) == -EINVAL);
    CF_CHECK(cf_cow_file_span(1) == page && cf_cow_file_span(page) == page && cf_cow_file_span(page + 1) == 2 * page);
    CF_CHECK(cf_cow_file_create(&file, 4 * page - 1) == 0); /* 4 pages */
    cf_cow_buffer *b = NULL;
    cf_cow_config misaligned = {.mode = CF_COW_EAGER, .copy_threshold = 1, .file = file, .file_offset = 100};
    CF_CHECK(cf_cow_create(&b, page, &misaligned) == -EINVAL);
    cf_cow_config beyond = {.mode = CF_COW_EAGER, .copy_threshold = 1, .file = file, .file_offset = 2 * page};
    CF_CHECK(cf_cow_create(&b, 2 * page + 1, &beyond) == -EINVAL); /* three pages from the third: past the end */
    cf_cow_config far = {.mode = CF_COW_EAGER, .copy_threshold = 1, .file = file, .file_offset = 8 * page};
    CF_CHECK(cf_cow_create(&b, 1, &far) == -EINVAL);
    CF_CHECK(cf_cow_create(&b, 2 * page, &beyond) == 0); /* the last two pages exactly */
    CF_CHECK(cf_cow_destroy(b) == 0);
    /* copy mode (below the threshold) lies in the file too: its offset is checked, and its bytes are the file's */
    cf_cow_config copy = {.mode = CF_COW_EAGER, .file = file, .file_offset = 100};
    CF_CHECK(cf_cow_create(&b, 64, &copy) == -EINVAL);
    CF_CHECK(b == NULL);
    copy.file_offset = page;
    cf_cow_buffer *c = NULL;
    CF_CHECK(cf_cow_create(&b, 64, &copy) == 0);
    CF_CHECK(cf_cow_create(&c, 100, &copy) == 0);
    CF_CHECK(cf_cow_buffer_mode(b) == CF_COW_COPY && cf_cow_buffer_mode(c) == CF_COW_COPY);
    unsigned char *pb, *pc;
    CF_CHECK(cf_cow_write_begin(b, (void **)&pb) == 0);
    memset(pb, 0x33, 64);
    CF_CHECK(cf_cow_publish(b) == 0);
    CF_CHECK(cf_cow_write_begin(c, (void **)&pc) == 0);
    CF_CHECK(pc[0] == 0x33 && pc[63] == 0x33);
    CF_CHECK(cf_cow_publish(c) == 0);
    CF_CHECK(cf_cow_destroy(c) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
    CF_CHECK(cf_cow_file_destroy(file) == 0);
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    errors();
    take_turns(CF_COW_EAGER);
    take_turns(CF_COW_LAZY);
    take_turns(CF_COW_COPY);
    printf("test_cow_file: ok\n");
    return 0;
}
