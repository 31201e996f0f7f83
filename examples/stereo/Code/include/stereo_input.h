/* Input of the stereo example: a synthetic random-dot stereogram whose true disparity is known.
 * The .pi graphs name this header as the refinement of the Generate actor. */
#ifndef STEREO_INPUT_H
#define STEREO_INPUT_H

/* A truth byte holds the disparity of the surface seen at a left-image pixel in its low 7 bits, and this
 * flag when that surface point is hidden in the right image or falls outside it (so it has no match). */
#define STEREO_TRUTH_OCCLUDED 0x80u
#define STEREO_TRUTH_DISPARITY_MASK 0x7Fu
/* Disparities must fit the truth byte's 7 bits. */
#define STEREO_MAX_DISPARITIES 128

/* Sensor differences between the two views: independent noise of +-STEREO_SENSOR_NOISE grey levels on
 * each, and a brighter right view (which the census part of the matching cost does not see). Dots stay
 * within [28, 228] before both, so no value is clipped. */
#define STEREO_SENSOR_NOISE 4
#define STEREO_RIGHT_BRIGHTNESS_OFFSET 6

/* Renders the left and right views of a scene of fronto-parallel random-dot layers (a background and a
 * few nearer shapes) with disparities in [0, nbDisparities), the same scene for the same seed.
 * A left pixel (x, y) with disparity d shows the same surface point as the right pixel (x - d, y).
 * Each output holds width*height bytes, row-major. */
void generateStereoPair(int width, int height, int nbDisparities, int seed, unsigned char *left,
                        unsigned char *right, unsigned char *truth);

#endif
