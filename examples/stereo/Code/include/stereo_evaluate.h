/* Evaluation of the stereo example against the generator's ground truth. */
#ifndef STEREO_EVALUATE_H
#define STEREO_EVALUATE_H

/* A pixel is bad when its disparity differs from the truth by more than this (Middlebury's usual 1 px). */
#define STEREO_BAD_PIXEL_THRESHOLD 1

struct stereo_disparity_error {
    long nonOccludedPixels; /* pixels visible in both views */
    long nonOccludedBad;
    double nonOccludedMeanAbsError;
    long allPixels;
    long allBad;
    double allMeanAbsError;
};

struct stereo_disparity_error stereoMeasureDisparityError(int width, int height, const unsigned char *disparity,
                                                          const unsigned char *truth);

/* Writes a binary PGM with pixel values scaled by 255/(nbDisparities-1); returns 0, or -1 on failure. */
int stereoWriteDisparityPgm(const char *path, int width, int height, int nbDisparities,
                            const unsigned char *disparity);

/* The sink: prints the bad-pixel rate and mean absolute error (non-occluded and all pixels).
 * Environment: STEREO_OUTPUT=path writes the disparity map as a PGM, STEREO_TRUTH_OUTPUT=path the true
 * one; STEREO_MAX_BAD_PERCENT=p ends the program with a failure status when more than p percent of the
 * non-occluded pixels are bad. */
void evaluateDisparity(int width, int height, int nbDisparities, const unsigned char *disparity,
                       const unsigned char *truth);

#endif
