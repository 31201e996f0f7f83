/* Actors of the weights benchmark graph (bench/cow-unannotated/weights): the shape of the copy-on-write
 * paper's stereo application, where a data-parallel actor computes one memory slice by slice (stereo's
 * ComputeVertWeights) that a broadcast hands to every disparity's aggregation (AggregateCost). Written for
 * cacheflow's benchmarks; every function reads its inputs only and writes its outputs whole. */
#ifndef WEIGHTS_H
#define WEIGHTS_H

/* A random-dot stereo pair: the right view is the left one shifted by a disparity that grows with the row
 * band, plus a little noise. */
void readPair(int width, int height, unsigned char *left, unsigned char *right);

/* The disparities 0 .. nbDisparities-1, one per aggregation firing. */
void disparities(int nbDisparities, unsigned char *disparity);

/* Per pixel of rows [0, sliceRows) of a slice of the left view, the 4 weights of its neighbours (up, down,
 * left, right): exp(-|I(p) - I(q)| / 12), 0 beyond the slice or the image. */
void computeWeights(int width, int sliceRows, const unsigned char *rows, float *weights);

/* The matching cost of one disparity: |L(x, y) - R(x - d, y)| aggregated over the 4-neighbourhood with the
 * weights (two passes), scaled to 16 bits. */
void aggregateCost(int width, int height, const unsigned char *disparity, const unsigned char *left,
    const unsigned char *right, const float *weights, unsigned short *cost);

/* Winner-takes-all over the disparities' costs. */
void selectDisparity(int width, int height, int nbDisparities, const unsigned short *costs, unsigned char *depth);

/* The sink: a checksum, so that nothing is optimised away (the program's --validate prints its input's MD5). */
void writeDepth(int width, int height, const unsigned char *depth);

#endif
