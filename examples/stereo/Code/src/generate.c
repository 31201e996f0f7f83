/* Generate: a random-dot stereogram of fronto-parallel layers with its true disparity map. */
#include "stereo_input.h"

#include <stdint.h>

#include "stereo_require.h"

/* Scene description, in per-mille of the image so that any size shows the same scene. Layers are in
 * increasing disparity order: a later layer is nearer and hides the earlier ones. */
enum shape { EVERYWHERE, RECTANGLE, DISC };

struct layer_spec {
    enum shape shape;
    int x0, y0, x1, y1;   /* rectangle corners (per mille of width, height) */
    int cx, cy, radius;   /* disc centre (per mille of width, height) and radius (per mille of height) */
    int disparity;        /* per mille of the largest disparity, nbDisparities - 1 */
    int contrast;         /* half range of the dot intensities around mid grey */
};

static const struct layer_spec SCENE[] = {
    {EVERYWHERE, 0, 0, 0, 0, 0, 0, 0, 150, 100},
    {RECTANGLE, 100, 150, 450, 550, 0, 0, 0, 450, 90},
    {RECTANGLE, 550, 200, 900, 700, 0, 0, 0, 650, 100},
    {DISC, 0, 0, 0, 0, 330, 720, 180, 800, 70},
    {RECTANGLE, 620, 350, 780, 560, 0, 0, 0, 950, 100},
};
enum { NB_LAYERS = sizeof SCENE / sizeof SCENE[0] };

struct layer {
    enum shape shape;
    int x0, y0, x1, y1;
    int cx, cy;
    long radiusSquared;
    int disparity;
    int contrast;
};

static uint64_t mix64(uint64_t z) {
    /* splitmix64's finaliser: a counter-based generator, so any pixel's value is computed on its own */
    z += 0x9E3779B97F4A7C15u;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static unsigned hash(uint64_t seed, uint64_t a, int64_t x, int64_t y) {
    return (unsigned)(mix64(mix64(mix64(mix64(seed) ^ a) ^ (uint64_t)x) ^ (uint64_t)y) >> 32);
}

static int covers(const struct layer *layer, int x, int y) {
    switch (layer->shape) {
    case RECTANGLE:
        return x >= layer->x0 && x < layer->x1 && y >= layer->y0 && y < layer->y1;
    case DISC: {
        long dx = x - layer->cx;
        long dy = y - layer->cy;
        return dx * dx + dy * dy <= layer->radiusSquared;
    }
    case EVERYWHERE:
    default:
        return 1;
    }
}

/* The nearest layer seen at scene column sceneX (the left view's column) and row y. */
static int visibleInLeft(const struct layer *layers, int sceneX, int y) {
    int k = NB_LAYERS - 1;
    while (k > 0 && !covers(&layers[k], sceneX, y)) {
        k--;
    }
    return k;
}

/* The nearest layer seen at right-view column rightX: layer k shows its scene column rightX + d_k there. */
static int visibleInRight(const struct layer *layers, int rightX, int y) {
    int k = NB_LAYERS - 1;
    while (k > 0 && !covers(&layers[k], rightX + layers[k].disparity, y)) {
        k--;
    }
    return k;
}

/* A layer's dots are fixed to its surface: the same scene point gives the same dot in both views. */
static int dot(uint64_t seed, const struct layer *layers, int k, int sceneX, int y) {
    int contrast = layers[k].contrast;
    return 128 - contrast + (int)(hash(seed, (uint64_t)k + 1, sceneX, y) % (unsigned)(2 * contrast + 1));
}

static int noise(uint64_t seed, uint64_t view, int x, int y) {
    return (int)(hash(seed ^ 0x6E6F697365u, view, x, y) % (2 * STEREO_SENSOR_NOISE + 1)) - STEREO_SENSOR_NOISE;
}

static unsigned char clampGrey(int value) {
    return (unsigned char)(value < 0 ? 0 : value > 255 ? 255 : value);
}

void generateStereoPair(int width, int height, int nbDisparities, int seed, unsigned char *left,
                        unsigned char *right, unsigned char *truth) {
    stereoRequire(width > 0 && height > 0, "generateStereoPair", "width and height must be positive");
    stereoRequire(nbDisparities >= 1 && nbDisparities <= STEREO_MAX_DISPARITIES, "generateStereoPair",
                  "nbDisparities must be in [1, 128] (the truth byte keeps 7 bits of disparity)");
    struct layer layers[NB_LAYERS];
    int largest = nbDisparities - 1;
    for (int k = 0; k < NB_LAYERS; k++) {
        const struct layer_spec *spec = &SCENE[k];
        long r = (long)spec->radius * height / 1000;
        layers[k] = (struct layer){
            .shape = spec->shape,
            .x0 = (int)((long)spec->x0 * width / 1000),
            .y0 = (int)((long)spec->y0 * height / 1000),
            .x1 = (int)((long)spec->x1 * width / 1000),
            .y1 = (int)((long)spec->y1 * height / 1000),
            .cx = (int)((long)spec->cx * width / 1000),
            .cy = (int)((long)spec->cy * height / 1000),
            .radiusSquared = r * r,
            .disparity = (int)(((long)spec->disparity * largest + 500) / 1000),
            .contrast = spec->contrast,
        };
    }
    uint64_t seed64 = (uint64_t)(uint32_t)seed;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            long i = (long)y * width + x;
            int k = visibleInLeft(layers, x, y);
            int d = layers[k].disparity;
            left[i] = clampGrey(dot(seed64, layers, k, x, y) + noise(seed64, 1, x, y));
            int kr = visibleInRight(layers, x, y);
            right[i] = clampGrey(dot(seed64, layers, kr, x + layers[kr].disparity, y) + STEREO_RIGHT_BRIGHTNESS_OFFSET
                                 + noise(seed64, 2, x, y));
            /* the left pixel's surface point is at right column x - d: matched only if visible there */
            int matched = x - d >= 0 && visibleInRight(layers, x - d, y) == k;
            truth[i] = (unsigned char)((unsigned)d | (matched ? 0u : STEREO_TRUTH_OCCLUDED));
        }
    }
}
