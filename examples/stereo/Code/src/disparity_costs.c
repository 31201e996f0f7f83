/* The per-disparity workers of Algo/disparity_costs.pi: disparity tokens, matching cost, cost
 * aggregation and winner-takes-all selection. */
#include "stereo_costs.h"

#include <stddef.h>

#include "stereo_census.h"
#include "stereo_require.h"

void generateDisparities(int nbDisparities, unsigned char *disparities) {
    stereoRequire(nbDisparities >= 1 && nbDisparities <= 256, "generateDisparities",
                  "nbDisparities must be in [1, 256] (one byte per disparity token)");
    for (int d = 0; d < nbDisparities; d++) {
        disparities[d] = (unsigned char)d;
    }
}

static unsigned hammingWeight(unsigned v) {
    v = v - ((v >> 1) & 0x55555555u);
    v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
    return (((v + (v >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24;
}

void matchingCost(int width, int height, int truncation, const unsigned char *disparity,
                  const unsigned char *left, const unsigned char *right, const unsigned int *censusLeft,
                  const unsigned int *censusRight, unsigned short *cost) {
    stereoRequire(width > 0 && height > 0, "matchingCost", "width and height must be positive");
    stereoRequire(truncation >= 0 && truncation <= 255, "matchingCost", "truncation must be in [0, 255]");
    int d = *disparity;
    unsigned noMatchCost = STEREO_CENSUS_WEIGHT * STEREO_CENSUS_BITS + (unsigned)truncation;
    for (int y = 0; y < height; y++) {
        long row = (long)y * width;
        for (int x = 0; x < width; x++) {
            long i = row + x;
            if (x < d) {
                cost[i] = (unsigned short)noMatchCost;
                continue;
            }
            long j = i - d;
            int difference = left[i] - right[j];
            unsigned absolute = (unsigned)(difference < 0 ? -difference : difference);
            unsigned intensity = absolute < (unsigned)truncation ? absolute : (unsigned)truncation;
            cost[i] = (unsigned short)(STEREO_CENSUS_WEIGHT * hammingWeight(censusLeft[i] ^ censusRight[j])
                                       + intensity);
        }
    }
}

enum { LANES = 16, WINDOW_MAX = 2 * STEREO_MAX_AGGREGATION_RADIUS + 1 };

static int clampIndex(int i, int n) {
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

/* Box sum of radius r along `lanes` parallel lines of `length` elements (element k of lane l at
 * base[l * laneStep + k * step]), borders repeated, from src to dst. dst may be src: the originals still
 * needed after their element is overwritten wait in a ring of the last 2r+1 values, and every other
 * read is ahead of the write position. Sums saturate at 65535. */
static void boxSumLanes(const unsigned short *src, unsigned short *dst, int length, ptrdiff_t step, int lanes,
                        ptrdiff_t laneStep, int radius) {
    const int window = 2 * radius + 1;
    unsigned ring[WINDOW_MAX][LANES];
    unsigned sum[LANES];
    for (int l = 0; l < lanes; l++) {
        sum[l] = 0;
    }
    /* ring slot of position p (p may be negative before the start) */
#define SLOT(p) ((((p) % window) + window) % window)
    for (int p = -radius; p <= radius; p++) {
        const unsigned short *at = src + (ptrdiff_t)clampIndex(p, length) * step;
        for (int l = 0; l < lanes; l++) {
            unsigned v = at[l * laneStep];
            ring[SLOT(p)][l] = v;
            sum[l] += v;
        }
    }
    for (int k = 0; k < length; k++) {
        if (k > 0) {
            /* slide: the leaving position k-1-r and the entering one k+r share a ring slot */
            int entering = k + radius;
            const unsigned short *at = src + (ptrdiff_t)clampIndex(entering, length) * step;
            unsigned *slot = ring[SLOT(entering)];
            for (int l = 0; l < lanes; l++) {
                unsigned v = at[l * laneStep];
                sum[l] = sum[l] - slot[l] + v;
                slot[l] = v;
            }
        }
        unsigned short *out = dst + (ptrdiff_t)k * step;
        for (int l = 0; l < lanes; l++) {
            out[l * laneStep] = (unsigned short)(sum[l] > 65535u ? 65535u : sum[l]);
        }
    }
#undef SLOT
}

void aggregateCost(int width, int height, int aggregationRadius, unsigned short *cost,
                   unsigned short *aggregated) {
    stereoRequire(width > 0 && height > 0, "aggregateCost", "width and height must be positive");
    stereoRequire(aggregationRadius >= 0 && aggregationRadius <= STEREO_MAX_AGGREGATION_RADIUS, "aggregateCost",
                  "aggregationRadius must be in [0, STEREO_MAX_AGGREGATION_RADIUS]");
    const int radius = aggregationRadius;
    /* rows in place in cost (the workspace), LANES rows at a time */
    for (int y = 0; y < height; y += LANES) {
        int lanes = height - y < LANES ? height - y : LANES;
        unsigned short *rows = cost + (ptrdiff_t)y * width;
        boxSumLanes(rows, rows, width, 1, lanes, width, radius);
    }
    /* then columns from cost into aggregated, LANES adjacent columns at a time (whole cache lines) */
    for (int x = 0; x < width; x += LANES) {
        int lanes = width - x < LANES ? width - x : LANES;
        boxSumLanes(cost + x, aggregated + x, height, width, lanes, 1, radius);
    }
}

void selectDisparity(int width, int height, const unsigned char *disparity, const unsigned short *aggregated,
                     const unsigned int *previousBest, unsigned int *best) {
    stereoRequire(width > 0 && height > 0, "selectDisparity", "width and height must be positive");
    const unsigned d = *disparity;
    const int first = d == 0;
    const long size = (long)width * height;
    const unsigned int *previousLeft = previousBest;
    const unsigned int *previousRight = previousBest + size;
    unsigned int *bestLeft = best;
    unsigned int *bestRight = best + size;
    for (int y = 0; y < height; y++) {
        const unsigned short *costs = aggregated + (long)y * width;
        long row = (long)y * width;
        /* left view: left pixel x against right pixel x - d */
        for (int x = 0; x < width; x++) {
            unsigned candidate = (unsigned)costs[x] << 8 | d;
            unsigned kept = first ? candidate : previousLeft[row + x];
            bestLeft[row + x] = candidate < kept ? candidate : kept;
        }
        /* right view: right pixel x against left pixel x + d, when that one is in the image */
        for (int x = 0; x < width; x++) {
            long at = row + x;
            if ((long)x + d < width) {
                unsigned candidate = (unsigned)costs[x + d] << 8 | d;
                unsigned kept = first ? candidate : previousRight[at];
                bestRight[at] = candidate < kept ? candidate : kept;
            } else {
                bestRight[at] = previousRight[at];
            }
        }
    }
}
