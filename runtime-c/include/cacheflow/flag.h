/* Rdy-ack flags: one-way event notification from one thread (the raiser) to another (the waiter), for the
 * cross-core dependencies of generated code -- "the data is ready", "the slot is free again".
 *
 * A flag is a counter only its raiser writes: cf_flag_raise(flag, n) publishes "my n-th event (and every
 * earlier one) has happened", with release ordering, and cf_flag_wait(flag, n) returns once the count has
 * reached n, with acquire ordering: everything the raiser wrote before raising n is visible to the waiter
 * afterwards. The paper's rdy and ack are two such flags raised in opposite directions. A counter is
 * never reset, so the waiter never writes the line the raiser writes (a boolean rdy reset by its reader
 * costs one more line transfer per event), and several events raised back to back cost one store: the
 * waiter of the earlier ones is satisfied by the later count. Counts are int64_t; a wait for a count
 * <= 0 returns at once, so "the event of iteration i - k" needs no special case for the first k.
 *
 * Homing: the flag lives in the waiting thread's cache. cf_flag_init, called by the waiter, writes it
 * first; a raise moves the line to the raiser once (read-for-ownership), the waiter's next read brings it
 * back (one line transfer each way per event, the minimum for a notification). Both words the raiser
 * touches -- the count and the waiter's "sleeping" word -- share that one line, so the raiser's check of
 * "sleeping" after its store is an L1 hit. See docs/flag.md and src/flag.c.
 *
 * Waiting spins with a pause instruction (the line stays in the waiter's cache, shared, and costs nothing
 * until the raiser writes it), then sleeps on a futex. The raiser makes a system call only when the
 * waiter has announced it is asleep: no wake-up is lost (Dekker's pattern, as in the channel; the
 * waiter's side of the barrier pair is membarrier(), so the raiser needs no fence).
 *
 * Threads: one raiser and one waiter per flag (they may change only with a happens-before between the
 * old and the new one). Raised counts must not decrease. */
#ifndef CACHEFLOW_FLAG_H
#define CACHEFLOW_FLAG_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Block of bytes each part of a flag occupies: two 64-byte lines (x86's adjacent-line prefetcher fetches
 * lines in pairs; some aarch64 cores have 128-byte lines). */
#define CF_FLAG_BLOCK 128

/* The fields are private: use the functions. The first block is the line the raiser writes; the second
 * holds the waiter's own counters, which the raiser never touches. */
typedef struct cf_flag {
    int64_t count;         /* raiser: the last count raised (0 before the first raise) */
    uint32_t sleeping;     /* futex word: the waiter sets it before sleeping, the raiser clears it */
    uint32_t spin_limit;   /* pause iterations before sleeping (read-only after cf_flag_init) */
    uint32_t fences;       /* 1: no membarrier, a full fence after every raise (read-only after init) */
    char raiser_block_end[CF_FLAG_BLOCK - 20];
    uint64_t waits;        /* waiter: waits that found the count too low */
    uint64_t sleeps;       /* waiter: waits that slept in the kernel */
    char waiter_block_end[CF_FLAG_BLOCK - 16];
} __attribute__((aligned(CF_FLAG_BLOCK))) cf_flag;

/* A zero-filled cf_flag (static storage, or this initialiser) is a flag with count 0 and the default
 * settings; cf_flag_init still has to be called by the waiter to home it. */
#define CF_FLAG_INIT {0}

enum {
    CF_FLAG_SPIN_DEFAULT = 4096,     /* pause iterations before sleeping (about 0.1 ms at 30 ns a pause) */
    CF_FLAG_NO_MEMBARRIER = 1u << 0, /* option: a full fence on every raise instead of membarrier() when
                                        going to sleep (for tests and measurements) */
};

/* Resets the flag to count 0 and makes the calling thread its home (it writes the flag's lines first).
 * Call it on the waiting thread, ordered before the raiser's first raise (e.g. before a barrier both
 * pass). spin_limit: pause iterations before sleeping; 0 means CF_FLAG_SPIN, when that environment
 * variable holds a number, else CF_FLAG_SPIN_DEFAULT. options: 0 or CF_FLAG_NO_MEMBARRIER.
 * Returns 0, or -EINVAL (NULL flag, unknown option). */
int cf_flag_init(cf_flag *flag, uint32_t spin_limit, uint32_t options);

/* Out of line: the slow halves of raise and wait (the fence is an instruction in flag.c, not a C11 fence,
 * which ThreadSanitizer does not support). */
void cf_flag_wake_waiter(cf_flag *flag);
void cf_flag_raised_with_fence(cf_flag *flag);
void cf_flag_wait_slow(cf_flag *flag, int64_t count);

/* Raiser: publishes count (and everything written before). Counts must not decrease. */
static inline void cf_flag_raise(cf_flag *flag, int64_t count) {
    __atomic_store_n(&flag->count, count, __ATOMIC_RELEASE);
    if (__builtin_expect(flag->fences != 0, 0)) { /* no membarrier: a full fence, out of line */
        cf_flag_raised_with_fence(flag);
        return;
    }
    /* The load below stays after the store in program order (compiler barrier); the hardware barrier of
     * the pair is the sleeping waiter's membarrier. */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (__builtin_expect(__atomic_load_n(&flag->sleeping, __ATOMIC_RELAXED) != 0, 0)) cf_flag_wake_waiter(flag);
}

/* Waiter: returns once the raised count is >= count (at once when count <= 0). */
static inline void cf_flag_wait(cf_flag *flag, int64_t count) {
    if (__builtin_expect(__atomic_load_n(&flag->count, __ATOMIC_ACQUIRE) >= count, 1)) return;
    cf_flag_wait_slow(flag, count);
}

/* The raised count (acquire). */
static inline int64_t cf_flag_count(const cf_flag *flag) {
    return __atomic_load_n(&flag->count, __ATOMIC_ACQUIRE);
}

/* The waiter's counters; read them on the waiting thread, or after it has stopped waiting. */
uint64_t cf_flag_waits(const cf_flag *flag);
uint64_t cf_flag_sleeps(const cf_flag *flag);

#ifdef __cplusplus
}
#endif
#endif
