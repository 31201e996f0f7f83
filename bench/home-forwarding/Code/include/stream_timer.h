/* Service time of a stream, measured at its sink: the sink actor calls stream_timer_tick once per firing;
 * at exit the mean interval between consecutive firings, after the first tenth (warm-up: page faults,
 * pipelines filling), is printed to stderr per task. This is the paper's service time ("the average time
 * interval between the beginning of the executions on two consecutive input tasks") taken where the tasks
 * leave the graph; it leaves out the program's start-up and tear-down, which the wall time would include.
 * Printed line (read by measure.py): "stream-timer: <firings> firings, <us> us/task". */
#ifndef CACHEFLOW_BENCH_STREAM_TIMER_H
#define CACHEFLOW_BENCH_STREAM_TIMER_H
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double *stream_timer_stamps;
static long stream_timer_count, stream_timer_capacity;
static int stream_timer_tasks_per_firing = 1;

static void stream_timer_report(void) {
    long first = stream_timer_count / 10;
    long last = stream_timer_count - 1;
    if (last - first < 1) return; /* fewer than two firings after the warm-up: nothing to report */
    double seconds = stream_timer_stamps[last] - stream_timer_stamps[first];
    fprintf(stderr, "stream-timer: %ld firings, %.4f us/task\n", stream_timer_count,
            seconds * 1e6 / ((double)(last - first) * stream_timer_tasks_per_firing));
}

/* Called by the sink actor, which fires on one core only. */
static void stream_timer_tick(int tasks_per_firing) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (stream_timer_count == stream_timer_capacity) {
        long capacity = stream_timer_capacity ? 2 * stream_timer_capacity : 1024;
        double *grown = realloc(stream_timer_stamps, (size_t)capacity * sizeof *grown);
        if (!grown) {
            fprintf(stderr, "stream-timer: out of memory for %ld time stamps\n", capacity);
            exit(1);
        }
        if (!stream_timer_stamps) atexit(stream_timer_report);
        stream_timer_stamps = grown;
        stream_timer_capacity = capacity;
    }
    stream_timer_tasks_per_firing = tasks_per_firing;
    stream_timer_stamps[stream_timer_count++] = (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

#endif
