/* Refinement of the stereo example: left-right check, occlusion filling and a sliced median filter. */
#ifndef STEREO_REFINE_H
#define STEREO_REFINE_H

/* Left-right consistency: a left disparity is kept when the right view's best match at the pixel it
 * points to agrees within one pixel; others (occlusions, mismatches) take the smaller of the nearest
 * kept disparities on their row (occluded surfaces are background). The result goes to rows
 * 1..height of paddedDisparity ((height+2)*width bytes); rows 0 and height+1 repeat the first and last
 * row so that slices with one row of overlap need no border case. */
void refineDisparity(int width, int height, const unsigned int *bestMatches, unsigned char *paddedDisparity);

/* Cuts the padded frame into nbSlices slices of sliceHeight+2 rows (one overlapping row above and below).
 * Does nothing when slices is NULL: with Code/Scripts/split.bsh applied the slices are ranges of the frame. */
void splitRows(int width, int sliceHeight, int nbSlices, const unsigned char *paddedFrame, unsigned char *slices);

/* 3x3 median of the sliceHeight inner rows of a slice of sliceHeight+2 rows (columns repeat at the borders). */
void medianFilterSlice(int width, int sliceHeight, const unsigned char *paddedSlice, unsigned char *slice);

#endif
