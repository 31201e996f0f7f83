/* Real actor code for delayends.pi; DelayEndsTest computes the same values in Java. */
#include "delayends.h"

void source(int count, int base, int *out) {
    for (int i = 0; i < count; i++) out[i] = base + i;
}

/* The delay's initial tokens, written by the setter: non-zero, so zero-filled tokens would change the digests. */
void seedTokens(int half, int first, int *tokens) {
    for (int i = 0; i < half; i++) tokens[i] = first * (i + 1) + 100;
}

void mix(const int *in, int *out) {
    out[0] = in[0] * 3 + 1;
}

void record(int count, const int *in) {
    (void)count;
    (void)in;
}

/* The getter: the delay's final tokens, passed on so that a sink digests them. */
void last(int half, const int *in, int *out) {
    for (int i = 0; i < half; i++) out[i] = in[i] * 5 - i;
}

void tail(int half, const int *in) {
    (void)half;
    (void)in;
}
