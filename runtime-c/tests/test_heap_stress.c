/* Hierarchical allocator under concurrency: every thread owns a local heap, allocates blocks, fills
 * them with a pattern naming itself, and hands them to the next thread through a lock-free mailbox;
 * the receiver checks the pattern and frees the block (a remote free onto the owner's garbage list).
 * Owners reclaim while others push. At the end everything is free again and every chunk is back. */
#include "cacheflow/heap.h"
#include "cacheflow/stats.h"
#include "helpers.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#define THREADS 4
#define ROUNDS 4000
#define SLOTS 64

static cf_heap *heap;
static cf_heap_local *locals[THREADS];
/* mailbox[t][s]: a block sent to thread t; NULL when empty. */
static void *mailbox[THREADS][SLOTS];
static size_t mailbox_size[THREADS][SLOTS];
static int finished;

static unsigned char tag(size_t owner, size_t i) { return (unsigned char)(owner * 31 + i); }

static size_t drain(size_t id, cf_heap_local *self) {
    size_t n = 0;
    for (size_t s = 0; s < SLOTS; s++) {
        unsigned char *p = __atomic_load_n(&mailbox[id][s], __ATOMIC_ACQUIRE);
        if (!p) continue;
        size_t size = mailbox_size[id][s];
        size_t owner = p[0];
        for (size_t i = 1; i < size; i += 97) CF_CHECK(p[i] == tag(owner, i));
        __atomic_store_n(&mailbox[id][s], NULL, __ATOMIC_RELEASE);
        CF_CHECK(cf_heap_free(heap, self, p) == 0);
        n++;
    }
    return n;
}

static void *worker(void *arg) {
    size_t id = (size_t)arg, next = (id + 1) % THREADS;
    cf_heap_local *self = locals[id];
    unsigned seed = (unsigned)id * 7919u + 1;
    for (size_t r = 0; r < ROUNDS; r++) {
        seed = seed * 1103515245u + 12345u;
        size_t size = 2 + (seed >> 8) % 20000;
        unsigned char *p;
        int rc = cf_heap_alloc(self, size, 0, (void **)&p);
        while (rc == -ENOMEM) { /* region full: make progress by freeing what others sent us */
            drain(id, self);
            cf_heap_reclaim(self);
            sched_yield();
            rc = cf_heap_alloc(self, size, 0, (void **)&p);
        }
        CF_CHECK(rc == 0);
        p[0] = (unsigned char)id;
        for (size_t i = 1; i < size; i += 97) p[i] = tag(id, i);
        if (r % 3 == 0) { /* some blocks stay local */
            CF_CHECK(cf_heap_free(heap, self, p) == 0);
            continue;
        }
        size_t s = (seed >> 4) % SLOTS;
        while (__atomic_load_n(&mailbox[next][s], __ATOMIC_ACQUIRE)) {
            drain(id, self);
            sched_yield();
        }
        mailbox_size[next][s] = size;
        __atomic_store_n(&mailbox[next][s], p, __ATOMIC_RELEASE);
        drain(id, self);
        if (r % 64 == 0) cf_heap_reclaim(self);
    }
    __atomic_fetch_add(&finished, 1, __ATOMIC_ACQ_REL);
    while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < THREADS) {
        drain(id, self);
        sched_yield();
    }
    drain(id, self);
    return NULL;
}

int main(void) {
    CF_CHECK(cf_heap_create(&heap, 16u << 20, 256u << 10) == 0);
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(cf_heap_attach(heap, &locals[i]) == 0);
    cf_stats before, after;
    cf_stats_total(&before);
    pthread_t t[THREADS];
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(pthread_create(&t[i], NULL, worker, (void *)i) == 0);
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(pthread_join(t[i], NULL) == 0);
    cf_stats_total(&after);
    /* Late sends may still sit in mailboxes of threads that drained before them. */
    for (size_t i = 0; i < THREADS; i++) drain(i, NULL);
    size_t remote = (size_t)(after.heap_remote_frees - before.heap_remote_frees);
    CF_CHECK(remote > 0);
    for (size_t i = 0; i < THREADS; i++) CF_CHECK(cf_heap_detach(locals[i]) == 0);
    cf_heap_usage u;
    cf_heap_get_usage(heap, &u);
    CF_CHECK(u.chunks_in_use == 0 && u.locals == 0);
    CF_CHECK(cf_heap_destroy(heap) == 0);
    printf("heap stress: %d threads, %zu remote frees, all chunks returned\n", THREADS, remote);
    return 0;
}
