/* Actors of the load-balancing benchmark's graph of steady costs: a unit of work is a fixed chain of integer
 * arithmetic (about 0.1 ms), so every firing of an actor costs the same. */
#include "steady.h"

#define STEPS_PER_UNIT 100000

static int iteration;

void steadySource(int lights, int *heavy, int *light) {
    *heavy = iteration;
    for (int l = 0; l < lights; l++) light[l] = iteration * lights + l;
    iteration++;
}

void steadyWork(int units, const int *in, int *out) {
    unsigned x = (unsigned)*in * 2654435761U + 1U;
    for (long s = 0; s < (long)units * STEPS_PER_UNIT; s++) x = x * 1664525U + 1013904223U;
    *out = (int)x;
}

void steadySink(int lights, const int *heavy, const int *light) {
    (void)lights;
    (void)heavy;
    (void)light;
}
