/* Farm actors: the emitter copies tasks from a pool of pre-generated matrices (so that producing a task
 * costs a copy, as sending one does in the paper, not a random-number generator), the worker applies a
 * 3x3 convolution, the collector reads every result word (a sum). Deterministic: every strategy and
 * channel implementation must produce the same result bytes. */
#define _GNU_SOURCE /* sched_getcpu (actor_timer.h) */
#include "farm.h"
#include "actor_timer.h"
#include "stream_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL_MATRICES 16

static int32_t *pool;        /* POOL_MATRICES matrices of the configured size and type */
static size_t pool_words;    /* words per matrix */
static unsigned next_task;   /* tasks emitted so far (the emitter fires on one core only) */
static volatile uint32_t collected_checksum; /* keeps the collector's reads from being optimised away */

/* xorshift32: a fixed sequence, the same on every run and machine */
static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

void farmEmitInit(int size, int elemFloat) {
    actor_timer_setup();
    pool_words = (size_t)size * (size_t)size;
    free(pool);
    pool = malloc(POOL_MATRICES * pool_words * sizeof *pool);
    if (!pool) {
        fprintf(stderr, "farmEmitInit: out of memory for %d matrices of %dx%d\n", POOL_MATRICES, size, size);
        exit(1);
    }
    uint32_t state = 2463534242u;
    for (size_t i = 0; i < POOL_MATRICES * pool_words; i++) {
        uint32_t r = next_random(&state);
        if (elemFloat) {
            float value = (float)(r % 2001u) / 100.0f - 10.0f; /* -10.00 .. 10.00 */
            memcpy(&pool[i], &value, sizeof value);
        } else {
            pool[i] = (int32_t)(r % 2001u) - 1000;
        }
    }
    next_task = 0;
}

void farmEmit(int size, int tasks, int elemFloat, int32_t *matrices) {
    double actor_started = actor_timer_start();
    (void)size;
    (void)elemFloat;
    for (int t = 0; t < tasks; t++, next_task++)
        memcpy(matrices + (size_t)t * pool_words, pool + (next_task % POOL_MATRICES) * pool_words,
               pool_words * sizeof *pool);
    actor_timer_stop(0, "farmEmit", actor_started);
}

/* out = (4*centre + 2*(N+S+E+W) + (NE+NW+SE+SW)) / 16 inside, borders copied: a smoothing filter of the
 * kind the paper's difference methods and image filters apply. */
static void convolve_int(int n, const int32_t *in, int32_t *out) {
    memcpy(out, in, (size_t)n * sizeof *in);
    for (int i = 1; i < n - 1; i++) {
        const int32_t *up = in + (size_t)(i - 1) * n, *row = up + n, *down = row + n;
        int32_t *dst = out + (size_t)i * n;
        dst[0] = row[0];
        for (int j = 1; j < n - 1; j++) {
            int32_t sum = 4 * row[j] + 2 * (up[j] + down[j] + row[j - 1] + row[j + 1]) + up[j - 1] + up[j + 1] +
                          down[j - 1] + down[j + 1];
            dst[j] = sum / 16;
        }
        dst[n - 1] = row[n - 1];
    }
    memcpy(out + (size_t)(n - 1) * n, in + (size_t)(n - 1) * n, (size_t)n * sizeof *in);
}

static void convolve_float(int n, const float *in, float *out) {
    memcpy(out, in, (size_t)n * sizeof *in);
    for (int i = 1; i < n - 1; i++) {
        const float *up = in + (size_t)(i - 1) * n, *row = up + n, *down = row + n;
        float *dst = out + (size_t)i * n;
        dst[0] = row[0];
        for (int j = 1; j < n - 1; j++) {
            float sum = 0.25f * row[j] + 0.125f * (up[j] + down[j] + row[j - 1] + row[j + 1]) +
                        0.0625f * (up[j - 1] + up[j + 1] + down[j - 1] + down[j + 1]);
            dst[j] = sum;
        }
        dst[n - 1] = row[n - 1];
    }
    memcpy(out + (size_t)(n - 1) * n, in + (size_t)(n - 1) * n, (size_t)n * sizeof *in);
}

void farmConvolve(int size, int elemFloat, const int32_t *task, int32_t *result) {
    double actor_started = actor_timer_start();
    /* The buffers are only ever accessed as the configured type (copies are byte copies). */
    if (elemFloat) convolve_float(size, (const float *)(const void *)task, (float *)(void *)result);
    else convolve_int(size, task, result);
    actor_timer_stop(1, "farmConvolve", actor_started);
}

void farmCollect(int size, int tasks, const int32_t *results) {
    double actor_started = actor_timer_start();
    stream_timer_tick(tasks);
    /* Reads every result word (the lines the workers wrote, on whichever core), as cheaply as that can be
     * done: a sum the compiler vectorises. A serial multiply-add chain here cost 4 ns per word, six times a
     * worker's convolution, and made the collector's core the whole iteration's bottleneck. */
    uint32_t sum = 0;
    size_t words = (size_t)tasks * (size_t)size * (size_t)size;
    for (size_t i = 0; i < words; i++) sum += (uint32_t)results[i];
    collected_checksum = collected_checksum * 31u + sum;
    actor_timer_stop(2, "farmCollect", actor_started);
}
