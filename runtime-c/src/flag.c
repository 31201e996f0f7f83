/* Rdy-ack flags (include/cacheflow/flag.h): the slow paths -- spinning, sleeping, waking.
 *
 * CACHE LINES. A flag is two 128-byte blocks. The first holds what the raiser and the waiter share:
 * count (raiser writes), sleeping (waiter sets when it goes to sleep, raiser clears), and the read-only
 * settings. Per event the line moves twice: the raiser's store takes it (read-for-ownership; the raiser
 * never reads it first, so there is no extra shared-then-upgrade step), the waiter's next load brings it
 * back. The raiser's load of `sleeping` right after its store hits the line it now owns. While the waiter
 * spins, each pause-separated load hits its own shared copy: no traffic until the raiser writes. The
 * second block holds the waiter's counters, written only on the slow path, in lines the raiser never
 * touches (no false sharing with the count). cf_flag_init, called by the waiter, writes both blocks, so
 * they start in the waiter's cache: the flag is homed at the core that waits on it, as the paper homes
 * rdy/ack at their reader.
 *
 * NO LOST WAKE-UP (Dekker's pattern; the same argument as src/channel_common.h):
 *   waiter:  sleeping = 1;  membarrier();  if (count >= target) { sleeping = 0; done }
 *            futex_wait(&sleeping, 1)        -- returns at once unless sleeping is still 1
 *   raiser:  count = n (release);  compiler barrier;  if (sleeping && exchange(sleeping, 0)) futex_wake
 * membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) makes every running thread of the process execute a full
 * barrier, which splits the raiser's store and load: either the waiter's re-check sees the count, or the
 * raiser's load sees sleeping == 1 and wakes it. Clearing the word before futex_wake makes a futex_wait that
 * has not started yet return at once. Without membarrier (old kernel, seccomp, CF_FLAG_NO_MEMBARRIER) both
 * sides use a full fence instead (the raiser then pays one per raise).
 *
 * SPINNING first: a futex sleep and wake-up costs tens of microseconds of latency on the critical path
 * (measured round trip here: about 26 us), so the waiter spins for a few times that before sleeping. */
#define _GNU_SOURCE
#include "cacheflow/flag.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h"
#include "membarrier_internal.h"
#include "spin_internal.h"

_Static_assert(sizeof(cf_flag) == 2 * CF_FLAG_BLOCK, "a flag is two blocks");
_Static_assert(offsetof(cf_flag, waits) == CF_FLAG_BLOCK, "the waiter's counters start the second block");

uint32_t cf_spin_limit_from_environment(void) {
    const char *text = getenv("CF_FLAG_SPIN");
    if (text && *text) {
        char *end = NULL;
        unsigned long value = strtoul(text, &end, 10);
        if (end && *end == '\0' && value > 0 && value <= UINT32_MAX) return (uint32_t)value;
    }
    return CF_FLAG_SPIN_DEFAULT;
}

int cf_flag_init(cf_flag *flag, uint32_t spin_limit, uint32_t options) {
    if (!flag || (options & ~(uint32_t)CF_FLAG_NO_MEMBARRIER)) return -EINVAL;
    /* Plain stores on purpose: ordered before the raiser's first raise by the caller (flag.h). Writing
     * every byte makes this thread the first to own both blocks' lines. */
    memset(flag, 0, sizeof *flag);
    flag->spin_limit = spin_limit ? spin_limit : cf_spin_limit_from_environment();
    flag->fences = !cf_membarrier_usable() || (options & CF_FLAG_NO_MEMBARRIER) ? 1u : 0u;
    return 0;
}

void cf_flag_wake_waiter(cf_flag *flag) {
    /* Only one exchange gets the 1: at most one wake system call per sleep. */
    if (__atomic_exchange_n(&flag->sleeping, 0, __ATOMIC_RELAXED) != 0)
        syscall(SYS_futex, &flag->sleeping, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void cf_flag_raised_with_fence(cf_flag *flag) {
    cf_arch_full_fence();
    if (__atomic_load_n(&flag->sleeping, __ATOMIC_RELAXED) != 0) cf_flag_wake_waiter(flag);
}

static void waiter_barrier(const cf_flag *flag) {
    if (flag->fences || syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) cf_arch_full_fence();
}

static int reached(const cf_flag *flag, int64_t count) {
    return __atomic_load_n(&flag->count, __ATOMIC_ACQUIRE) >= count;
}

void cf_flag_wait_slow(cf_flag *flag, int64_t count) {
    /* Counters: relaxed load + store, the waiter is their only writer (readable from other threads). */
    __atomic_store_n(&flag->waits, __atomic_load_n(&flag->waits, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
    int slept = 0; /* `sleeps` counts waits that slept, once each, however often the futex returned early */
    for (;;) {
        for (uint32_t spin = 0; spin < flag->spin_limit; spin++) {
            cf_arch_cpu_relax();
            if (reached(flag, count)) return;
        }
        __atomic_store_n(&flag->sleeping, 1, __ATOMIC_RELAXED);
        waiter_barrier(flag);
        if (reached(flag, count)) {
            __atomic_store_n(&flag->sleeping, 0, __ATOMIC_RELAXED);
            return;
        }
        if (!slept) {
            __atomic_store_n(&flag->sleeps, __atomic_load_n(&flag->sleeps, __ATOMIC_RELAXED) + 1, __ATOMIC_RELAXED);
            slept = 1;
        }
        /* Errors (EAGAIN: the raiser already cleared the word; EINTR) just go round the loop again. */
        syscall(SYS_futex, &flag->sleeping, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
        /* Woken or a spurious return: the word may still be ours; clear it so that the raiser makes no
         * needless wake call, and re-check. */
        __atomic_store_n(&flag->sleeping, 0, __ATOMIC_RELAXED);
        if (reached(flag, count)) return;
    }
}

uint64_t cf_flag_waits(const cf_flag *flag) { return __atomic_load_n(&flag->waits, __ATOMIC_RELAXED); }

uint64_t cf_flag_sleeps(const cf_flag *flag) { return __atomic_load_n(&flag->sleeps, __ATOMIC_RELAXED); }
