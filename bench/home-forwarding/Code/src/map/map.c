/* Map actors. The scatter copies the next matrix from a pool of pre-generated ones (sending a task costs
 * a copy, not a random-number generator) and the constant vector y; the workers share the constant vector
 * x; the gather folds c into a checksum. Integer arithmetic wraps (done in uint32_t), so results are
 * defined; float results are deterministic because every variant runs the same code in the same order. */
#define _GNU_SOURCE /* sched_getcpu (actor_timer.h) */
#include "map.h"
#include "actor_timer.h"
#include "stream_timer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POOL_MATRICES 8
#define ALPHA_INT 3
#define BETA_INT 2
#define ALPHA_FLOAT 0.75f
#define BETA_FLOAT 1.25f

static int32_t *pool;       /* POOL_MATRICES matrices */
static int32_t *x_shared;   /* x: read by every worker, written once before the cores start */
static int32_t *y_constant; /* y: sent with every matrix */
static size_t matrix_words;
static unsigned next_matrix; /* the scatter fires on one core only */
static volatile uint32_t gathered_checksum;

static uint32_t next_random(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

static int32_t random_word(uint32_t *state, int elemFloat) {
    uint32_t r = next_random(state);
    if (!elemFloat) return (int32_t)(r % 201u) - 100;
    float value = (float)(r % 2001u) / 1000.0f - 1.0f; /* -1.000 .. 1.000 */
    int32_t word;
    memcpy(&word, &value, sizeof word);
    return word;
}

void mapInit(int size, int elemFloat) {
    actor_timer_setup();
    matrix_words = (size_t)size * (size_t)size;
    free(pool);
    free(x_shared);
    free(y_constant);
    pool = malloc(POOL_MATRICES * matrix_words * sizeof *pool);
    x_shared = malloc((size_t)size * sizeof *x_shared);
    y_constant = malloc((size_t)size * sizeof *y_constant);
    if (!pool || !x_shared || !y_constant) {
        fprintf(stderr, "mapInit: out of memory for %d matrices of %dx%d\n", POOL_MATRICES, size, size);
        exit(1);
    }
    uint32_t state = 88675123u;
    for (size_t i = 0; i < POOL_MATRICES * matrix_words; i++) pool[i] = random_word(&state, elemFloat);
    for (int i = 0; i < size; i++) x_shared[i] = random_word(&state, elemFloat);
    for (int i = 0; i < size; i++) y_constant[i] = random_word(&state, elemFloat);
    next_matrix = 0;
}

void mapScatter(int size, int elemFloat, int32_t *rows, int32_t *y) {
    double actor_started = actor_timer_start();
    (void)elemFloat;
    memcpy(rows, pool + (next_matrix++ % POOL_MATRICES) * matrix_words, matrix_words * sizeof *pool);
    memcpy(y, y_constant, (size_t)size * sizeof *y);
    actor_timer_stop(0, "mapScatter", actor_started);
}

void mapMultiply(int size, int parts, int elemFloat, const int32_t *rows, const int32_t *y, int32_t *c) {
    double actor_started = actor_timer_start();
    int count = size / parts;
    if (elemFloat) {
        const float *a = (const float *)(const void *)rows, *x = (const float *)(const void *)x_shared;
        const float *yf = (const float *)(const void *)y;
        float *cf = (float *)(void *)c;
        for (int i = 0; i < count; i++) {
            const float *row = a + (size_t)i * size;
            float dot = 0.0f;
            for (int j = 0; j < size; j++) dot += row[j] * x[j];
            cf[i] = ALPHA_FLOAT * dot + BETA_FLOAT * yf[i];
        }
    } else {
        for (int i = 0; i < count; i++) {
            const int32_t *row = rows + (size_t)i * size;
            uint32_t dot = 0;
            for (int j = 0; j < size; j++) dot += (uint32_t)row[j] * (uint32_t)x_shared[j];
            c[i] = (int32_t)(ALPHA_INT * dot + BETA_INT * (uint32_t)y[i]);
        }
    }
    actor_timer_stop(1, "mapMultiply", actor_started);
}

void mapGather(int size, const int32_t *c) {
    double actor_started = actor_timer_start();
    stream_timer_tick(1);
    uint32_t checksum = gathered_checksum;
    for (int i = 0; i < size; i++) checksum = checksum * 31u + (uint32_t)c[i];
    gathered_checksum = checksum;
    actor_timer_stop(2, "mapGather", actor_started);
}
