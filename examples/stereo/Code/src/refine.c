/* Refinement: left-right consistency check and occlusion filling, then a 3x3 median in row slices. */
#include "stereo_refine.h"

#include <string.h>

#include "stereo_costs.h"
#include "stereo_require.h"

/* Marks a rejected disparity while a row is filled; real disparities stay below 128. */
enum { REJECTED = 0xFF };

/* Replaces each run of rejected pixels by the smaller of the kept disparities on either side of it. */
static void fillRejected(unsigned char *row, int width) {
    int x = 0;
    while (x < width) {
        if (row[x] != REJECTED) {
            x++;
            continue;
        }
        int start = x;
        while (x < width && row[x] == REJECTED) {
            x++;
        }
        int before = start > 0 ? row[start - 1] : -1;
        int after = x < width ? row[x] : -1;
        int fill = before < 0 ? after : after < 0 ? before : before < after ? before : after;
        memset(row + start, fill < 0 ? 0 : fill, (size_t)(x - start));
    }
}

void refineDisparity(int width, int height, const unsigned int *bestMatches, unsigned char *paddedDisparity) {
    stereoRequire(width > 0 && height > 0, "refineDisparity", "width and height must be positive");
    const long size = (long)width * height;
    const unsigned int *bestLeft = bestMatches;
    const unsigned int *bestRight = bestMatches + size;
    for (int y = 0; y < height; y++) {
        long row = (long)y * width;
        unsigned char *out = paddedDisparity + row + width;
        for (int x = 0; x < width; x++) {
            int d = (int)STEREO_BEST_DISPARITY(bestLeft[row + x]);
            int kept = 0;
            if (x - d >= 0 && d < REJECTED) {
                int back = (int)STEREO_BEST_DISPARITY(bestRight[row + x - d]);
                kept = back - d <= 1 && d - back <= 1;
            }
            out[x] = (unsigned char)(kept ? d : REJECTED);
        }
        fillRejected(out, width);
    }
    memcpy(paddedDisparity, paddedDisparity + width, (size_t)width);
    memcpy(paddedDisparity + size + width, paddedDisparity + size, (size_t)width);
}

void splitRows(int width, int sliceHeight, int nbSlices, const unsigned char *paddedFrame, unsigned char *slices) {
    stereoRequire(width > 0 && sliceHeight > 0 && nbSlices > 0, "splitRows",
                  "width, sliceHeight and nbSlices must be positive");
    if (slices == NULL) {
        /* the memory script's matches were applied and the slices are pieces of the frame: PREESM's code
         * generation passes NULL for such a divided output, and there is nothing to copy */
        return;
    }
    const size_t sliceBytes = (size_t)(sliceHeight + 2) * (size_t)width;
    for (int i = 0; i < nbSlices; i++) {
        unsigned char *slice = slices + (size_t)i * sliceBytes;
        const unsigned char *from = paddedFrame + (size_t)i * (size_t)sliceHeight * (size_t)width;
        /* a slice placed at its own range of the frame needs no copy either */
        if (slice != from) {
            memmove(slice, from, sliceBytes);
        }
    }
}

static unsigned char medianOfNine(unsigned char v[9]) {
    /* insertion sort: nine values, no branches worth optimising for a demo */
    for (int i = 1; i < 9; i++) {
        unsigned char value = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > value) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = value;
    }
    return v[4];
}

void medianFilterSlice(int width, int sliceHeight, const unsigned char *paddedSlice, unsigned char *slice) {
    stereoRequire(width > 0 && sliceHeight > 0, "medianFilterSlice", "width and sliceHeight must be positive");
    for (int y = 0; y < sliceHeight; y++) {
        /* output row y is the slice's row y+1 */
        const unsigned char *above = paddedSlice + (long)y * width;
        const unsigned char *rows[3] = {above, above + width, above + 2L * width};
        for (int x = 0; x < width; x++) {
            int xl = x > 0 ? x - 1 : 0;
            int xr = x < width - 1 ? x + 1 : width - 1;
            unsigned char window[9];
            for (int r = 0; r < 3; r++) {
                window[3 * r] = rows[r][xl];
                window[3 * r + 1] = rows[r][x];
                window[3 * r + 2] = rows[r][xr];
            }
            slice[(long)y * width + x] = medianOfNine(window);
        }
    }
}
