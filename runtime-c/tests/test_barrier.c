/* cf_barrier: 1, 2, 3, 4 and 8 threads (more threads than CPUs too) meet for many rounds, spinning (default
 * limit) and sleeping almost at once (limit 1). Each round every thread writes its own word (plain stores), meets
 * the others, and must then read every thread's word of this round: the barrier orders each thread's writes
 * before every other's reads (TSan checks the happens-before); a second barrier keeps the next round's writes
 * after those reads. One thread arriving late (it sleeps a little first) makes the others wait beyond their spin
 * and sleep. Errors: NULL, count 0. */
#define _GNU_SOURCE
#include "cacheflow/barrier.h"
#include "helpers.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

#define MOST 8

typedef struct shared {
    cf_barrier barrier;
    unsigned threads;
    long rounds;
    long words[MOST]; /* plain: ordered by the barrier alone */
} shared;

typedef struct worker {
    shared *shared;
    unsigned index;
} worker;

static void *run(void *argument) {
    worker *w = argument;
    shared *s = w->shared;
    for (long round = 1; round <= s->rounds; round++) {
        if (w->index == round % s->threads && round % 64 == 0) {
            struct timespec late = {0, 200000}; /* 0.2 ms: past the default spin */
            nanosleep(&late, NULL);
        }
        s->words[w->index] = round;
        cf_barrier_wait(&s->barrier);
        for (unsigned t = 0; t < s->threads; t++) CF_CHECK(s->words[t] == round);
        cf_barrier_wait(&s->barrier);
    }
    return NULL;
}

static void meet(unsigned threads, uint32_t spin_limit, long rounds) {
    static shared s;
    CF_CHECK(cf_barrier_init(&s.barrier, threads, spin_limit) == 0);
    s.threads = threads;
    s.rounds = rounds;
    pthread_t ids[MOST];
    worker workers[MOST];
    for (unsigned t = 0; t < threads; t++) {
        workers[t] = (worker){&s, t};
        CF_CHECK(pthread_create(&ids[t], NULL, run, &workers[t]) == 0);
    }
    for (unsigned t = 0; t < threads; t++) CF_CHECK(pthread_join(ids[t], NULL) == 0);
}

int main(void) {
    CF_CHECK(cf_barrier_init(NULL, 2, 0) == -EINVAL);
    cf_barrier b;
    CF_CHECK(cf_barrier_init(&b, 0, 0) == -EINVAL);
    CF_CHECK(cf_barrier_init(&b, 1, 0) == 0);
    cf_barrier_wait(&b); /* one thread: returns at once */
    cf_barrier_wait(&b);
    long rounds = (long)(2000 * cf_test_scale());
    if (rounds < 100) rounds = 100;
    static const unsigned counts[] = {2, 3, 4, 8};
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        meet(counts[i], 0, rounds);
        meet(counts[i], 1, rounds / 4);
    }
    printf("test_barrier: ok\n");
    return 0;
}
