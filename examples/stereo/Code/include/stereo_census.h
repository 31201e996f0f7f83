/* Census transform of the stereo example (refinement of CensusLeft and CensusRight). */
#ifndef STEREO_CENSUS_H
#define STEREO_CENSUS_H

/* The census window is 5x5: 24 neighbours, one bit each. */
#define STEREO_CENSUS_RADIUS 2
#define STEREO_CENSUS_BITS 24

/* census[p] gets bit k set when the k-th neighbour of p (row-major order in the window, centre
 * skipped) is darker than p; pixels beyond the image border repeat the nearest border pixel. */
void censusTransform(int width, int height, const unsigned char *image, unsigned int *census);

#endif
