/* Real actor code for delayinit.pi; DelayInitTest computes the same values in Java. */
#include "delayinit.h"

/* The delay's initial tokens: non-zero, so a run that skipped this call would print other digests. */
void fillHistory(int count, int seed, int *tokens) {
    for (int i = 0; i < count; i++) tokens[i] = seed * (i + 1) + 100;
}

void step(int count, const int *previous, int *state, int *out) {
    for (int i = 0; i < count; i++) {
        state[i] = previous[i] * 3 + i + 1;
        out[i] = state[i];
    }
}

void record(int count, const int *in) {
    (void)count;
    (void)in;
}
