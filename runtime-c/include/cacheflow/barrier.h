/* A barrier for the cores of generated code that meet rarely and must leave together quickly: the cores of a
 * program holding several variants meet where the variant changes (docs/generate.md).
 *
 * pthread_barrier_wait sleeps in the kernel at once: every core but the last pays a futex sleep and wake-up, tens
 * of microseconds each on the critical path (about 26 us measured here for one round trip, src/flag.c), and a
 * sequence of barriers pays it every time. cf_barrier_wait spins first, as a rdy-ack flag's wait does
 * (cf_flag_wait, flag.h), then sleeps on a futex; the last core to arrive makes a system call only when one has
 * announced it sleeps (Dekker's pattern: the sleeper's count and the round are sequentially consistent).
 *
 * Layout: one line, which every core writes once per round (its arrival) and reads while it spins; the last core's
 * write of the round number hands the line to every spinner once. A central counter, not a tree: generated code
 * meets at most 64 cores, and these barriers are rare.
 *
 * Threads: exactly `count` threads call cf_barrier_wait per round (the same threads or others, with a
 * happens-before from a round's return to the next round's calls on each thread); everything each wrote before
 * its call is visible to every one after its return. cf_barrier_init must be ordered before the first wait (e.g.
 * made before the threads start). Nothing is allocated: no destroy. */
#ifndef CACHEFLOW_BARRIER_H
#define CACHEFLOW_BARRIER_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The fields are private: use the functions. One 128-byte block (CF_FLAG_BLOCK, flag.h: line pairs), so that
 * nothing else shares its lines. */
typedef struct cf_barrier {
    uint32_t arrived;    /* threads arrived in this round */
    uint32_t round;      /* rounds completed: the futex word sleepers wait on */
    uint32_t sleepers;   /* threads asleep on `round`, or about to sleep */
    uint32_t count;      /* threads meeting each round (read-only after init) */
    uint32_t spin_limit; /* pause iterations before sleeping (read-only after init) */
    char block_end[128 - 20];
} __attribute__((aligned(128))) cf_barrier;

/* count >= 1; spin_limit 0: the CF_FLAG_SPIN environment variable's value when it holds a number, else
 * CF_FLAG_SPIN_DEFAULT (flag.h), as a flag's. Errors: -EINVAL (NULL, count 0). */
int cf_barrier_init(cf_barrier *barrier, uint32_t count, uint32_t spin_limit);

/* Returns once `count` threads called it in this round (acquire and release: see above). */
void cf_barrier_wait(cf_barrier *barrier);

#ifdef __cplusplus
}
#endif
#endif
