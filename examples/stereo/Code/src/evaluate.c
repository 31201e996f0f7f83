/* Evaluate: disparity error against the generator's truth, optional PGM output. */
#include "stereo_evaluate.h"

#include <stdio.h>
#include <stdlib.h>

#include "stereo_input.h"
#include "stereo_require.h"

struct stereo_disparity_error stereoMeasureDisparityError(int width, int height, const unsigned char *disparity,
                                                          const unsigned char *truth) {
    struct stereo_disparity_error e = {0, 0, 0.0, 0, 0, 0.0};
    long nonOccludedAbsSum = 0;
    long allAbsSum = 0;
    const long size = (long)width * height;
    for (long i = 0; i < size; i++) {
        int expected = (int)(truth[i] & STEREO_TRUTH_DISPARITY_MASK);
        int error = disparity[i] - expected;
        error = error < 0 ? -error : error;
        int bad = error > STEREO_BAD_PIXEL_THRESHOLD;
        e.allPixels++;
        e.allBad += bad;
        allAbsSum += error;
        if (!(truth[i] & STEREO_TRUTH_OCCLUDED)) {
            e.nonOccludedPixels++;
            e.nonOccludedBad += bad;
            nonOccludedAbsSum += error;
        }
    }
    e.allMeanAbsError = e.allPixels ? (double)allAbsSum / (double)e.allPixels : 0.0;
    e.nonOccludedMeanAbsError = e.nonOccludedPixels ? (double)nonOccludedAbsSum / (double)e.nonOccludedPixels : 0.0;
    return e;
}

int stereoWriteDisparityPgm(const char *path, int width, int height, int nbDisparities,
                            const unsigned char *disparity) {
    FILE *file = fopen(path, "wb");
    if (file == NULL) {
        return -1;
    }
    int largest = nbDisparities > 1 ? nbDisparities - 1 : 1;
    int ok = fprintf(file, "P5\n%d %d\n255\n", width, height) > 0;
    for (int y = 0; ok && y < height; y++) {
        unsigned char row[1024];
        for (int x0 = 0; ok && x0 < width; x0 += (int)sizeof row) {
            int n = width - x0 < (int)sizeof row ? width - x0 : (int)sizeof row;
            for (int x = 0; x < n; x++) {
                int value = (disparity[(long)y * width + x0 + x] & STEREO_TRUTH_DISPARITY_MASK) * 255 / largest;
                row[x] = (unsigned char)(value > 255 ? 255 : value);
            }
            ok = fwrite(row, 1, (size_t)n, file) == (size_t)n;
        }
    }
    if (fclose(file) != 0) {
        ok = 0;
    }
    return ok ? 0 : -1;
}

static void writeIfAsked(const char *variable, int width, int height, int nbDisparities,
                         const unsigned char *map) {
    const char *path = getenv(variable);
    if (path != NULL && *path != '\0' && stereoWriteDisparityPgm(path, width, height, nbDisparities, map) != 0) {
        fprintf(stderr, "stereo: cannot write %s=%s\n", variable, path);
    }
}

void evaluateDisparity(int width, int height, int nbDisparities, const unsigned char *disparity,
                       const unsigned char *truth) {
    stereoRequire(width > 0 && height > 0, "evaluateDisparity", "width and height must be positive");
    struct stereo_disparity_error e = stereoMeasureDisparityError(width, height, disparity, truth);
    double badPercent = e.nonOccludedPixels ? 100.0 * (double)e.nonOccludedBad / (double)e.nonOccludedPixels : 0.0;
    printf("stereo: %.2f%% bad pixels (error > %d px), mean absolute error %.3f px over %ld non-occluded pixels;"
           " %.2f%%, %.3f px over all %ld\n",
           badPercent, STEREO_BAD_PIXEL_THRESHOLD, e.nonOccludedMeanAbsError, e.nonOccludedPixels,
           100.0 * (double)e.allBad / (double)e.allPixels, e.allMeanAbsError, e.allPixels);
    fflush(stdout);
    writeIfAsked("STEREO_OUTPUT", width, height, nbDisparities, disparity);
    writeIfAsked("STEREO_TRUTH_OUTPUT", width, height, nbDisparities, truth);
    const char *limit = getenv("STEREO_MAX_BAD_PERCENT");
    if (limit != NULL && *limit != '\0') {
        char *end = NULL;
        double maxBad = strtod(limit, &end);
        if (end == limit || *end != '\0') {
            fprintf(stderr, "stereo: STEREO_MAX_BAD_PERCENT=%s is not a number\n", limit);
            exit(EXIT_FAILURE);
        }
        if (badPercent > maxBad) {
            fprintf(stderr, "stereo: %.2f%% bad pixels exceeds STEREO_MAX_BAD_PERCENT=%s\n", badPercent, limit);
            exit(EXIT_FAILURE);
        }
    }
}
