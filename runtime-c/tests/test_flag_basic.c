/* cf_flag: argument checks, single-thread counts, and two threads handing a payload back and forth through
 * a rdy flag and an ack flag (the payload is a plain array: ThreadSanitizer checks that raise/wait order
 * it), with the default spin budget, with a spin budget of 1 (nearly every wait sleeps on the futex), and
 * without membarrier. A raiser that raises only after a long pause checks that a sleeping waiter is woken. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cacheflow/flag.h"
#include "helpers.h"

enum { WORDS = 32 };

typedef struct pingpong {
    cf_flag rdy; /* raised by the pinger, homed at the ponger */
    cf_flag ack; /* raised by the ponger, homed at the pinger */
    uint32_t spin;
    uint32_t options;
    pthread_barrier_t homed;
    long rounds;
    uint64_t payload[WORDS];
} pingpong;

static void *ponger(void *arg) {
    pingpong *p = arg;
    CF_CHECK(cf_flag_init(&p->rdy, p->spin, p->options) == 0);
    pthread_barrier_wait(&p->homed);
    for (long i = 1; i <= p->rounds; i++) {
        cf_flag_wait(&p->rdy, i);
        for (int w = 0; w < WORDS; w++) CF_CHECK(p->payload[w] == (uint64_t)i * 1000u + (uint64_t)w);
        for (int w = 0; w < WORDS; w++) p->payload[w] += 1; /* the answer */
        cf_flag_raise(&p->ack, i);
    }
    return NULL;
}

static void run_pingpong(uint32_t spin, uint32_t options, long rounds) {
    static pingpong p; /* static: two 256-byte aligned flags */
    memset(&p, 0, sizeof p);
    p.spin = spin;
    p.options = options;
    p.rounds = rounds;
    CF_CHECK(pthread_barrier_init(&p.homed, NULL, 2) == 0);
    CF_CHECK(cf_flag_init(&p.ack, spin, options) == 0);
    pthread_t thread;
    CF_CHECK(pthread_create(&thread, NULL, ponger, &p) == 0);
    pthread_barrier_wait(&p.homed);
    for (long i = 1; i <= rounds; i++) {
        for (int w = 0; w < WORDS; w++) p.payload[w] = (uint64_t)i * 1000u + (uint64_t)w;
        cf_flag_raise(&p.rdy, i);
        cf_flag_wait(&p.ack, i);
        for (int w = 0; w < WORDS; w++) CF_CHECK(p.payload[w] == (uint64_t)i * 1000u + (uint64_t)w + 1);
    }
    CF_CHECK(pthread_join(thread, NULL) == 0);
    CF_CHECK(cf_flag_count(&p.rdy) == rounds && cf_flag_count(&p.ack) == rounds);
    CF_CHECK(cf_flag_waits(&p.ack) <= (uint64_t)rounds && cf_flag_sleeps(&p.ack) <= cf_flag_waits(&p.ack));
    pthread_barrier_destroy(&p.homed);
    printf("ping-pong spin %u options %u: %ld rounds, pinger waited %llu times, slept %llu\n", spin, options, rounds,
           (unsigned long long)cf_flag_waits(&p.ack), (unsigned long long)cf_flag_sleeps(&p.ack));
}

typedef struct late {
    cf_flag flag;
    pthread_barrier_t homed;
    int value;
} late;

static void *late_raiser(void *arg) {
    late *l = arg;
    pthread_barrier_wait(&l->homed);
    struct timespec pause = {0, 30 * 1000 * 1000};
    nanosleep(&pause, NULL); /* far beyond a spin budget of 1 pause: the waiter is asleep by now */
    l->value = 42;
    cf_flag_raise(&l->flag, 1);
    return NULL;
}

static void sleeping_waiter_is_woken(uint32_t options) {
    static late l;
    memset(&l, 0, sizeof l);
    CF_CHECK(pthread_barrier_init(&l.homed, NULL, 2) == 0);
    CF_CHECK(cf_flag_init(&l.flag, 1, options) == 0);
    pthread_t thread;
    CF_CHECK(pthread_create(&thread, NULL, late_raiser, &l) == 0);
    pthread_barrier_wait(&l.homed);
    cf_flag_wait(&l.flag, 1);
    CF_CHECK(l.value == 42);
    CF_CHECK(cf_flag_waits(&l.flag) == 1);
    CF_CHECK(cf_flag_sleeps(&l.flag) >= 1);
    CF_CHECK(__atomic_load_n(&l.flag.sleeping, __ATOMIC_RELAXED) == 0);
    CF_CHECK(pthread_join(thread, NULL) == 0);
    pthread_barrier_destroy(&l.homed);
}

int main(void) {
    static cf_flag flag = CF_FLAG_INIT;
    CF_CHECK(cf_flag_init(NULL, 0, 0) == -EINVAL);
    CF_CHECK(cf_flag_init(&flag, 0, 1u << 7) == -EINVAL);
    CF_CHECK(cf_flag_init(&flag, 0, 0) == 0);
    CF_CHECK(flag.spin_limit > 0);
    CF_CHECK(cf_flag_count(&flag) == 0);
    cf_flag_wait(&flag, 0);  /* already reached: returns at once */
    cf_flag_wait(&flag, -5); /* "iteration - k" before the first k iterations */
    cf_flag_raise(&flag, 3);
    cf_flag_wait(&flag, 2);
    cf_flag_wait(&flag, 3);
    CF_CHECK(cf_flag_count(&flag) == 3);
    CF_CHECK(cf_flag_waits(&flag) == 0); /* none of these waits had to wait */
    CF_CHECK(cf_flag_init(&flag, 7, CF_FLAG_NO_MEMBARRIER) == 0);
    CF_CHECK(cf_flag_count(&flag) == 0 && flag.spin_limit == 7 && flag.fences == 1);

    run_pingpong(0, 0, 5000);
    run_pingpong(1, 0, 500);
    run_pingpong(0, CF_FLAG_NO_MEMBARRIER, 5000);
    run_pingpong(1, CF_FLAG_NO_MEMBARRIER, 500);
    sleeping_waiter_is_woken(0);
    sleeping_waiter_is_woken(CF_FLAG_NO_MEMBARRIER);
    puts("test_flag_basic: ok");
    return 0;
}
