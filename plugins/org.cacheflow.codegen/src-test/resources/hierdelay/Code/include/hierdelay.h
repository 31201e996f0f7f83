/* Actor prototypes of the hierarchical delay test graph hierdelay.pi (sub-graph step.pi). */
#ifndef HIERDELAY_H
#define HIERDELAY_H

void seed(int n, int k, int *state);
void feed(int k, int *x);
void acc(int n, const int *prev, const int *x, int *next, int *y);
void keep(int n, int k, const int *state);
void out(int k, const int *y);

#endif
