/* Actors of the farm benchmark (Algo/farm.pi). Matrices are size x size 4-byte words holding int32_t
 * (elemFloat == 0) or float (elemFloat == 1) values. */
#ifndef CACHEFLOW_BENCH_FARM_H
#define CACHEFLOW_BENCH_FARM_H
#include <stdint.h>

void farmEmitInit(int size, int elemFloat);
void farmEmit(int size, int tasks, int elemFloat, int32_t *matrices);
void farmConvolve(int size, int elemFloat, const int32_t *task, int32_t *result);
void farmCollect(int size, int tasks, const int32_t *results);

#endif
