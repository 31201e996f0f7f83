/* Real actor code for tiny.pi: deterministic, so runs under every strategy must agree. */
#include "tiny.h"

static unsigned char next_value;

void genInit(int size) { next_value = (unsigned char)size; }

void genFrame(int size, unsigned char *frame) {
    for (int i = 0; i < size; i++) frame[i] = next_value++;
}

void scale(int slice, const unsigned char *in, unsigned char *out) {
    for (int i = 0; i < slice; i++) out[i] = (unsigned char)(in[i] * 3 + 1);
}

/* Writes its frame input after reading it (its port is not READ_ONLY), as real in-place actors do. */
void accumulate(int size, unsigned char *frame, const int *previous, int *state, int *total) {
    int sum = *previous;
    for (int i = 0; i < size; i++) {
        sum += frame[i];
        frame[i] = 0;
    }
    *state = sum;
    *total = sum;
}

void collect(int size, const unsigned char *scaled, const int *total) {
    (void)size;
    (void)scaled;
    (void)total;
}
