/* Real actor code for hierdelay.pi; HierarchicalDelayTest computes the same values in Java. */
#include "hierdelay.h"

/* The initial state of each firing of Step: non-zero, so zero-filled tokens would change the digests. */
void seed(int n, int k, int *state) {
    for (int i = 0; i < n * k; i++) state[i] = 100 + 7 * i;
}

void feed(int k, int *x) {
    for (int i = 0; i < k; i++) x[i] = 10 + i;
}

/* One step of the state loop: the next state and a summary of the previous one. */
void acc(int n, const int *prev, const int *x, int *next, int *y) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        next[i] = prev[i] * 2 + x[0] + i;
        sum += prev[i];
    }
    y[0] = sum + x[0];
}

void keep(int n, int k, const int *state) {
    (void)n;
    (void)k;
    (void)state;
}

void out(int k, const int *y) {
    (void)k;
    (void)y;
}
