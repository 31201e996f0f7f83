/* Actor prototypes of the delay-init test graph delayinit.pi. */
#ifndef DELAYINIT_H
#define DELAYINIT_H

void fillHistory(int count, int seed, int *tokens);
void step(int count, const int *previous, int *state, int *out);
void record(int count, const int *in);

#endif
