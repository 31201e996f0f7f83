/* --time of generated programs (cacheflow/support.h): without it cf_gen_print_time prints nothing; with it core 0's
 * cf_gen_keep_running stamps every iteration it begins (other cores none) and cf_gen_print_time prints the run's
 * time and the iterations' median, quartiles and min-max, start to start. Six iterations of 2 ms but one of 12 ms:
 * the median stays near 2 ms and the maximum shows the 12 (and iterations shorter than a millisecond are printed in microseconds). A process of its own: the stamps are the runtime's. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cacheflow/support.h"
#include "helpers.h"

/* What cf_gen_print_time prints. */
struct time_report {
    long iterations;
    double seconds;
};

static void print_time(void *argument) {
    const struct time_report *report = argument;
    cf_gen_print_time(report->iterations, report->seconds);
}

static void printed(long iterations, double seconds, char *text, size_t size) {
    struct time_report report = {iterations, seconds};
    cf_test_stdout_of(print_time, &report, text, size);
}

static void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0) {
    }
}

int main(void) {
    char text[512];
    cf_gen_options options;
    char *plain[] = {"prog", "--iterations", "7", NULL};
    CF_CHECK(cf_gen_parse_arguments(3, plain, "prog", 1, &options) == 0 && !options.time);
    CF_CHECK(cf_gen_keep_running(0, 0));
    printed(7, 0.5, text, sizeof text);
    CF_CHECK(text[0] == '\0');

    char *timed[] = {"prog", "--iterations", "7", "--time", NULL};
    CF_CHECK(cf_gen_parse_arguments(4, timed, "prog", 1, &options) == 0 && options.time && options.iterations == 7);
    for (long i = 0; i < 7; i++) {
        CF_CHECK(cf_gen_keep_running(0, i) && cf_gen_keep_running(1, i + 100));
        sleep_ms(i == 3 ? 12 : 2);
    }
    printed(7, 0.5, text, sizeof text);
    fputs(text, stderr);
    CF_CHECK(strncmp(text, "time: 0.500000 s for 7 iterations\n", 34) == 0);
    double median, q1, q3, low, high;
    long count;
    const char *line = strchr(text, '\n') + 1;
    CF_CHECK(sscanf(line, "iterations (core 0, start to start): median %lf ms, quartiles %lf-%lf ms, min-max %lf-%lf ms "
                          "over %ld", &median, &q1, &q3, &low, &high, &count) == 6);
    CF_CHECK(count == 6); /* 7 stamps, 6 intervals: the last iteration has no successor */
    CF_CHECK(low >= 1.9 && low <= q1 && q1 <= median && median <= q3 && q3 <= high);
    CF_CHECK(median < 8 && high >= 11.9);

    /* iterations shorter than a millisecond: microseconds (a new run's stamps overwrite the first ones) */
    for (long i = 0; i < 7; i++) CF_CHECK(cf_gen_keep_running(0, i));
    printed(7, 0.5, text, sizeof text);
    line = strchr(text, '\n') + 1;
    CF_CHECK(sscanf(line, "iterations (core 0, start to start): median %lf us", &median) == 1 && median < 1000);
    return 0;
}
