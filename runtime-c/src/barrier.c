/* Barriers that spin, then sleep (include/cacheflow/barrier.h).
 *
 * A central counter and a round number. A thread reads the round (r: every round before it completed, as it
 * returned from the last one, and r cannot complete without it), then counts itself in. The last to arrive
 * resets the counter for round r + 1 and publishes r + 1 (release: the reset and everything the threads wrote
 * before arriving -- the counter's read-modify-writes carry their writes along -- become visible to whoever sees
 * r + 1); the others wait until the round number is no longer r (acquire), spinning first:
 *
 *   sleeper:  sleepers += 1 (seq_cst);  if round == r (seq_cst): futex_wait(&round, r);  sleepers -= 1
 *   last:     round = r + 1 (seq_cst);  if sleepers != 0 (seq_cst): futex_wake(&round, all)
 *
 * In the single total order of the two seq_cst pairs, either the last thread sees the sleeper's count (and wakes
 * it) or the sleeper sees the new round (and does not sleep); futex_wait also returns at once when the word is no
 * longer r. A stale non-zero count only costs a needless wake call. */
#define _GNU_SOURCE
#include "cacheflow/barrier.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stddef.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "spin_internal.h"

_Static_assert(sizeof(cf_barrier) == 128, "a barrier is one 128-byte block");

int cf_barrier_init(cf_barrier *barrier, uint32_t count, uint32_t spin_limit) {
    if (!barrier || count == 0) return -EINVAL;
    memset(barrier, 0, sizeof *barrier);
    barrier->count = count;
    barrier->spin_limit = spin_limit ? spin_limit : cf_spin_limit_from_environment();
    return 0;
}

static int passed(cf_barrier *barrier, uint32_t round) {
    return __atomic_load_n(&barrier->round, __ATOMIC_ACQUIRE) != round;
}

void cf_barrier_wait(cf_barrier *barrier) {
    uint32_t round = __atomic_load_n(&barrier->round, __ATOMIC_ACQUIRE);
    if (__atomic_add_fetch(&barrier->arrived, 1, __ATOMIC_ACQ_REL) == barrier->count) {
        __atomic_store_n(&barrier->arrived, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&barrier->round, round + 1, __ATOMIC_SEQ_CST);
        if (__atomic_load_n(&barrier->sleepers, __ATOMIC_SEQ_CST) != 0)
            syscall(SYS_futex, &barrier->round, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
        return;
    }
    for (;;) {
        for (uint32_t spin = 0; spin < barrier->spin_limit; spin++) {
            if (passed(barrier, round)) return;
            cf_arch_cpu_relax();
        }
        __atomic_add_fetch(&barrier->sleepers, 1, __ATOMIC_SEQ_CST);
        /* Errors (EAGAIN: the round moved on; EINTR) just go round the loop again. */
        if (__atomic_load_n(&barrier->round, __ATOMIC_SEQ_CST) == round)
            syscall(SYS_futex, &barrier->round, FUTEX_WAIT_PRIVATE, round, NULL, NULL, 0);
        __atomic_sub_fetch(&barrier->sleepers, 1, __ATOMIC_RELAXED);
        if (passed(barrier, round)) return;
    }
}
