/* Actors of the load-balancing benchmark's graph of steady costs (Algo/steady.pi). */
#ifndef STEADY_H
#define STEADY_H

/* One job for Heavy and one for each Light, from the iteration number. */
void steadySource(int lights, int *heavy, int *light);
/* units units of arithmetic (the same every firing) on the job; out: the result. */
void steadyWork(int units, const int *in, int *out);
/* The results (the sink: --validate digests them). */
void steadySink(int lights, const int *heavy, const int *light);

#endif
