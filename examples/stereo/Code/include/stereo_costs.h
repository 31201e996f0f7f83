/* Per-disparity cost computation of the stereo example: the actors of Algo/disparity_costs.pi. */
#ifndef STEREO_COSTS_H
#define STEREO_COSTS_H

/* Matching cost = STEREO_CENSUS_WEIGHT * Hamming distance of the census codes
 *               + min(|left - right|, truncation). */
#define STEREO_CENSUS_WEIGHT 4
/* Aggregated costs are 16-bit sums that saturate at 65535: a cost is at most 4*24 + truncation <= 351,
 * so radii up to 6 (169 * 351 < 65536) never saturate. */
#define STEREO_MAX_AGGREGATION_RADIUS 10

/* A best match packs the aggregated cost above the disparity (cost << 8 | disparity), so the smallest
 * packed value is the cheapest match, ties going to the smaller disparity. */
#define STEREO_BEST_DISPARITY(packed) ((unsigned)(packed) & 0xFFu)
#define STEREO_BEST_COST(packed) ((unsigned)(packed) >> 8)

/* disparities[k] = k for k in [0, nbDisparities): one token per cost worker. */
void generateDisparities(int nbDisparities, unsigned char *disparities);

/* cost[y][x] = matching cost of left pixel (x, y) against right pixel (x - d, y), d = *disparity;
 * pixels whose match falls left of the right image get the largest possible cost. */
void matchingCost(int width, int height, int truncation, const unsigned char *disparity,
                  const unsigned char *left, const unsigned char *right, const unsigned int *censusLeft,
                  const unsigned int *censusRight, unsigned short *cost);

/* aggregated = box sum of cost over a (2*aggregationRadius+1)^2 window (borders repeated). Uses cost as its
 * workspace (its content is destroyed) and works as well when aggregated == cost (in place). */
void aggregateCost(int width, int height, int aggregationRadius, unsigned short *cost,
                   unsigned short *aggregated);

/* Winner-takes-all over the disparities, one disparity per firing, disparities in increasing order from 0.
 * best and previousBest hold 2*width*height packed matches: the best left-view match of every left
 * pixel, then the best right-view match of every right pixel (left pixel x+d against right pixel x).
 * The firing for disparity 0 ignores previousBest; later ones keep the better of previousBest and the
 * candidates of this disparity. best may be previousBest (in place). */
void selectDisparity(int width, int height, const unsigned char *disparity, const unsigned short *aggregated,
                     const unsigned int *previousBest, unsigned int *best);

#endif
