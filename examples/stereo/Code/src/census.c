/* CensusLeft / CensusRight: 5x5 census transform. */
#include "stereo_census.h"

#include "stereo_require.h"

_Static_assert(sizeof(unsigned int) * 8 >= STEREO_CENSUS_BITS, "a census code must fit an unsigned int");

static int clampIndex(int i, int n) {
    return i < 0 ? 0 : i >= n ? n - 1 : i;
}

void censusTransform(int width, int height, const unsigned char *image, unsigned int *census) {
    stereoRequire(width > 0 && height > 0, "censusTransform", "width and height must be positive");
    enum { SIDE = 2 * STEREO_CENSUS_RADIUS + 1 };
    for (int y = 0; y < height; y++) {
        const unsigned char *rows[SIDE];
        for (int dy = -STEREO_CENSUS_RADIUS; dy <= STEREO_CENSUS_RADIUS; dy++) {
            rows[dy + STEREO_CENSUS_RADIUS] = image + (long)clampIndex(y + dy, height) * width;
        }
        for (int x = 0; x < width; x++) {
            /* columns clamp only near the left and right borders */
            int interior = x >= STEREO_CENSUS_RADIUS && x < width - STEREO_CENSUS_RADIUS;
            unsigned centre = rows[STEREO_CENSUS_RADIUS][x];
            unsigned code = 0;
            for (int r = 0; r < SIDE; r++) {
                for (int dx = -STEREO_CENSUS_RADIUS; dx <= STEREO_CENSUS_RADIUS; dx++) {
                    if (dx == 0 && r == STEREO_CENSUS_RADIUS) {
                        continue;
                    }
                    int column = interior ? x + dx : clampIndex(x + dx, width);
                    code = (code << 1) | (rows[r][column] < centre ? 1u : 0u);
                }
            }
            census[(long)y * width + x] = code;
        }
    }
}
