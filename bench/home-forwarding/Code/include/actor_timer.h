/* Per-actor time, for the static schedule's bound (measure.py): with CF_BENCH_ACTOR_TIMES=1 in the environment,
 * every firing of an actor that brackets its body with actor_timer_start / actor_timer_stop is timed, and at
 * exit one line per actor function is printed to stderr (read by measure.py):
 *   "actor-time: <function> <firings> firings, <us> us/firing"
 * Meant for the sequential program (one thread: the counters are not shared between threads); without the
 * variable the cost is one predictable branch per firing. */
#ifndef CACHEFLOW_BENCH_ACTOR_TIMER_H
#define CACHEFLOW_BENCH_ACTOR_TIMER_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { ACTOR_TIMER_SLOTS = 8 };

static struct actor_timer_slot {
    const char *name;
    long firings;
    double seconds;
} actor_timer_slots[ACTOR_TIMER_SLOTS];
static int actor_timer_enabled = -1; /* -1: environment not read yet (actor_timer_setup) */

static void actor_timer_report(void) {
    for (int i = 0; i < ACTOR_TIMER_SLOTS; i++)
        if (actor_timer_slots[i].firings > 0)
            fprintf(stderr, "actor-time: %s %ld firings, %.4f us/firing\n", actor_timer_slots[i].name,
                    actor_timer_slots[i].firings, actor_timer_slots[i].seconds * 1e6 / actor_timer_slots[i].firings);
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
    actor_timer_slots[slot].name = name;
    actor_timer_slots[slot].firings++;
    actor_timer_slots[slot].seconds += actor_timer_now() - started;
}

#endif
