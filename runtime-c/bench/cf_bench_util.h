/* Shared by the bench_*.c programs (not by the channel benchmarks): timing, robust statistics over
 * repeated runs, command-line handling (--quick, --csv FILE) and table/CSV output.
 * Numbers are only compared within one run: the machine is shared and noisy, so every table shows
 * ratios against a baseline measured in the same run, with the spread (min..max) of each median. */
#ifndef CF_BENCH_UTIL_H
#define CF_BENCH_UTIL_H
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct bench_opts {
    int quick;
    FILE *csv;
} bench_opts;

static inline uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

typedef struct bench_summary {
    double median, min, max;
    double iqm; /* interquartile mean: the mean of the middle half (a counter that advances in steps leaves a
                   median on its grid; the mean of the middle half sees between the steps and not the tails) */
} bench_summary;

static int bench_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts the samples in place. */
static inline bench_summary bench_summarize(double *samples, size_t n) {
    qsort(samples, n, sizeof *samples, bench_cmp_double);
    bench_summary s = {n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2, samples[0], samples[n - 1],
                       0};
    size_t low = n / 4, high = n - n / 4;
    double sum = 0;
    for (size_t i = low; i < high; i++) sum += samples[i];
    s.iqm = sum / (double)(high - low);
    return s;
}

static inline void bench_usage(const char *prog, const char *what) {
    fprintf(stderr, "usage: %s [--quick] [--csv FILE]\n%s\n", prog, what);
    exit(2);
}

static inline bench_opts bench_parse(int argc, char **argv, const char *what, const char *csv_header) {
    bench_opts o = {0, NULL};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--quick") == 0) {
            o.quick = 1;
        } else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc) {
            o.csv = fopen(argv[++i], "w");
            if (!o.csv) {
                perror(argv[i]);
                exit(2);
            }
            fprintf(o.csv, "%s\n", csv_header);
        } else {
            bench_usage(argv[0], what);
        }
    }
    return o;
}

static inline void bench_csv(const bench_opts *o, const char *fmt, ...) {
    if (!o->csv) return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(o->csv, fmt, ap);
    va_end(ap);
    fputc('\n', o->csv);
}

/* Pins the calling thread; quietly does nothing where that is not allowed. */
static inline void bench_pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
}

static inline const char *bench_size_name(size_t n, char *buf, size_t len) {
    if (n >= (1u << 20))
        snprintf(buf, len, "%zu MiB", n >> 20);
    else
        snprintf(buf, len, "%zu KiB", n >> 10);
    return buf;
}

/* Prints the load average (/proc/loadavg) with `when` ("before", "after"): the figures of a shared machine are
 * read beside it. */
static inline void bench_print_load(const char *when) {
    char text[128] = "?";
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(text, sizeof text, f)) strcpy(text, "?");
        fclose(f);
    }
    text[strcspn(text, "\n")] = 0;
    printf("load average %s: %s\n", when, text);
}

/* The trials of a floor-relative benchmark (bench_flag, bench_barrier): trial(kind, quick) measures one kind
 * once and returns its figure (< 0: the kind is not built in). Trials of the kinds are interleaved, kind 0 (the
 * floor) first in each round, so that a change of vCPU placement (this VM's two vCPUs flip between "near" and
 * "far") shows in the floor measured next to the others; the table gives each kind's median of the trials
 * (min-max) and its median ratio to the floor of its own round, the CSV the same as `metric` and ratio_vs_<floor>
 * rows (header kind,metric,median,min,max,unit,trials). */
#define BENCH_MOST_TRIALS 15
static inline void bench_floor_table(const bench_opts *o, int kinds, const char *const *names, const char *heading,
                                     const char *metric, double (*trial)(int kind, int quick)) {
    int trials = o->quick ? 5 : BENCH_MOST_TRIALS;
    double samples[8][BENCH_MOST_TRIALS], ratio[8][BENCH_MOST_TRIALS];
    if (kinds > 8) kinds = 8;
    for (int t = 0; t < trials; t++) {
        double floor_ns = trial(0, o->quick);
        for (int k = 0; k < kinds; k++) {
            samples[k][t] = k == 0 ? floor_ns : trial(k, o->quick);
            ratio[k][t] = samples[k][t] / floor_ns;
        }
    }
    printf("%-11s %12s %21s %14s\n", "kind", heading, "min-max", "vs floor");
    for (int k = 0; k < kinds; k++) {
        if (samples[k][0] < 0) {
            printf("%-11s %12s\n", names[k], "not built in");
            continue;
        }
        bench_summary s = bench_summarize(samples[k], (size_t)trials);
        bench_summary r = bench_summarize(ratio[k], (size_t)trials);
        char range[48];
        snprintf(range, sizeof range, "%.1f-%.1f", s.min, s.max);
        printf("%-11s %12.1f %21s %14.2f\n", names[k], s.median, range, r.median);
        bench_csv(o, "%s,%s,%.1f,%.1f,%.1f,ns,%d", names[k], metric, s.median, s.min, s.max, trials);
        bench_csv(o, "%s,ratio_vs_%s,%.3f,%.3f,%.3f,x,%d", names[k], names[0], r.median, r.min, r.max, trials);
    }
}

/* Starts a thread, or exits with the error. */
static inline void bench_spawn(pthread_t *thread, void *(*function)(void *), void *argument) {
    if (pthread_create(thread, NULL, function, argument) != 0) {
        perror("pthread_create");
        exit(1);
    }
}

/* Keeps a computed value alive so the compiler cannot drop the loop producing it. */
static volatile uint64_t bench_sink;

#endif
