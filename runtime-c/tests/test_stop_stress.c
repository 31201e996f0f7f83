/* Stress of the preesmStopThreads agreement in the pattern generated loops use: core 0 fires a reader that sets
 * the flag in iteration STOP_AT and hands each iteration's data to core 1 (a release store, as cf_flag_raise),
 * core 1 waits for it, fires its consumer, and both call cf_gen_check_stop at the end of every iteration and
 * cf_gen_keep_running at the start of the next. Core 1's next iteration begins after the reader's write, so the
 * run must stop after iteration STOP_AT exactly, as the sequential program does, whichever core records the
 * stop. Both sides add random short delays; the runtime's stop state lives for a process, so every trial is a
 * child process. A trial that ran another count of iterations, or did not finish, fails the test.
 *
 * Before cf_gen_check_stop made every core that sees the flag wait for the agreed last iteration, core 1 could
 * lose the race to record the stop, go on, publish iteration STOP_AT + 1 while core 0 was reading what every
 * core had begun, and so run one iteration too many (10 of 3,000 trials of a native build; a generated frame-crc
 * program under ThreadSanitizer read a 7th frame in 3 of 200 runs). CF_TEST_SCALE=<percent> scales the trials,
 * 2,000 at least, or as many as BUDGET_SECONDS allow (200 at least) where a trial is slow (aarch64 under qemu). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cacheflow/support.h"
#include "helpers.h"

enum { STOP_AT = 5, MAX_ITERATIONS = 20, TRIALS = 3000, MIN_TRIALS = 200, BUDGET_SECONDS = 6 };

static _Atomic long handed; /* iterations core 0 has handed to core 1, plus one */
static _Atomic long consumed[MAX_ITERATIONS + 1];
static unsigned seed;

static void delay(unsigned *state) {
    *state = *state * 1103515245u + 12345u;
    unsigned spins = (*state >> 16) % 64;
    for (volatile unsigned i = 0; i < spins; i++) {
    }
}

static void *core0(void *argument) {
    (void)argument;
    unsigned state = seed;
    for (long i = 0; i < MAX_ITERATIONS && cf_gen_keep_running(0, i); i++) {
        if (i == STOP_AT) preesmStopThreads = 1; /* the reader's last frame */
        atomic_store_explicit(&handed, i + 1, memory_order_release);
        delay(&state);
        cf_gen_check_stop();
    }
    return NULL;
}

static void *core1(void *argument) {
    (void)argument;
    unsigned state = seed ^ 0x9e3779b9u;
    for (long i = 0; i < MAX_ITERATIONS && cf_gen_keep_running(1, i); i++) {
        while (atomic_load_explicit(&handed, memory_order_acquire) <= i) {
        }
        atomic_fetch_add(&consumed[i], 1);
        if (state & 1) delay(&state);
        cf_gen_check_stop();
    }
    return NULL;
}

/* One trial: exit code 0 when the run stopped after iteration STOP_AT on both cores. */
static int trial(void) {
    pthread_t threads[2];
    CF_CHECK(pthread_create(&threads[0], NULL, core0, NULL) == 0);
    CF_CHECK(pthread_create(&threads[1], NULL, core1, NULL) == 0);
    CF_CHECK(pthread_join(threads[0], NULL) == 0 && pthread_join(threads[1], NULL) == 0);
    long run = cf_gen_iterations_run(MAX_ITERATIONS);
    long last_consumed = -1;
    for (long i = 0; i <= MAX_ITERATIONS; i++) {
        if (atomic_load(&consumed[i])) last_consumed = i;
    }
    if (run != STOP_AT + 1 || last_consumed != STOP_AT) {
        fprintf(stderr, "trial %u: %ld iterations run, core 1 consumed up to iteration %ld (want %d and %d)\n",
                seed, run, last_consumed, STOP_AT + 1, STOP_AT);
        return 1;
    }
    return 0;
}

int main(void) {
    int trials = (int)(TRIALS * cf_test_scale());
    if (trials < 2000) trials = 2000; /* sanitizer builds too: a trial takes about a millisecond */
    int failed = 0;
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    for (int t = 0; t < trials; t++) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (t >= MIN_TRIALS && now.tv_sec - start.tv_sec >= BUDGET_SECONDS) {
            trials = t;
            break;
        }
        fflush(stderr);
        pid_t child = fork();
        CF_CHECK(child >= 0);
        if (child == 0) {
            seed = (unsigned)t * 2654435761u + 1;
            _exit(trial());
        }
        int status = 0;
        CF_CHECK(waitpid(child, &status, 0) == child);
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed++;
    }
    printf("%d of %d trials stopped after iteration %d\n", trials - failed, trials, STOP_AT);
    CF_CHECK(failed == 0);
    return 0;
}
