/* Actors of the map benchmark (Algo/map.pi): c = alpha*A*x + beta*y for a stream of size x size matrices A,
 * computed in `parts` row partitions. Words hold int32_t (elemFloat == 0) or float (elemFloat == 1). */
#ifndef CACHEFLOW_BENCH_MAP_H
#define CACHEFLOW_BENCH_MAP_H
#include <stdint.h>

void mapInit(int size, int elemFloat);
void mapScatter(int size, int elemFloat, int32_t *rows, int32_t *y);
void mapMultiply(int size, int parts, int elemFloat, const int32_t *rows, const int32_t *y, int32_t *c);
void mapGather(int size, const int32_t *c);

#endif
