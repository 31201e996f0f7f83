/* Per-actor time, for the static schedule's bound (measure.py): with CF_BENCH_ACTOR_TIMES=1 in the environment,
 * every firing of an actor that brackets its body with actor_timer_start / actor_timer_stop is timed, and at
 * exit one line per actor function and CPU is printed to stderr (read by measure.py):
 *   "actor-time: <function> <firings> firings, <us> us/firing"          (CPU 0; the sequential program)
 *   "actor-time: <function>@cpu<N> <firings> firings, <us> us/firing"   (other CPUs)
 * Counters are per CPU, so the generated programs' threads, pinned one per CPU, never share one: in a 2-core
 * program the same actor's time on each core shows what pulling the other core's lines costs it. Without the
 * variable the cost is one predictable branch per firing. */
#ifndef CACHEFLOW_BENCH_ACTOR_TIMER_H
#define CACHEFLOW_BENCH_ACTOR_TIMER_H
#include <stdio.h>
#include <stdlib.h>
#include <sched.h>
#include <time.h>

enum { ACTOR_TIMER_SLOTS = 8, ACTOR_TIMER_CPUS = 4 };

static struct actor_timer_slot {
    const char *name;
    long firings;
    double seconds;
    char pad[40]; /* a line per slot: the CPUs' counters do not share lines */
} actor_timer_slots[ACTOR_TIMER_CPUS][ACTOR_TIMER_SLOTS];
static int actor_timer_enabled = -1; /* -1: environment not read yet (actor_timer_setup) */

static void actor_timer_report(void) {
    for (int cpu = 0; cpu < ACTOR_TIMER_CPUS; cpu++)
        for (int i = 0; i < ACTOR_TIMER_SLOTS; i++) {
            const struct actor_timer_slot *t = &actor_timer_slots[cpu][i];
            if (t->firings == 0) continue;
            char where[16] = "";
            if (cpu > 0) snprintf(where, sizeof where, "@cpu%d", cpu);
            fprintf(stderr, "actor-time: %s%s %ld firings, %.4f us/firing\n", t->name, where, t->firings,
                    t->seconds * 1e6 / (double)t->firings);
        }
}

static double actor_timer_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* Called by an init function, before the cores start (so that no two threads set it up at once). */
static void actor_timer_setup(void) {
    if (actor_timer_enabled >= 0) return;
    const char *value = getenv("CF_BENCH_ACTOR_TIMES");
    actor_timer_enabled = value && *value && *value != '0';
    if (actor_timer_enabled) atexit(actor_timer_report);
}

static double actor_timer_start(void) { return actor_timer_enabled > 0 ? actor_timer_now() : 0.0; }

/* slot: a small number per actor function of the file, name: the function's name */
static void actor_timer_stop(int slot, const char *name, double started) {
    if (actor_timer_enabled <= 0) return;
    int cpu = sched_getcpu();
    struct actor_timer_slot *t = &actor_timer_slots[cpu < 0 ? 0 : cpu % ACTOR_TIMER_CPUS][slot];
    t->name = name;
    t->firings++;
    t->seconds += actor_timer_now() - started;
}

#endif
