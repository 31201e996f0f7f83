#include "weights.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static uint32_t hash(uint32_t x, uint32_t y) {
    uint32_t h = x * 0x9e3779b1u ^ (y + 0x7f4a7c15u) * 0x85ebca6bu;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h;
}

void readPair(int width, int height, unsigned char *left, unsigned char *right) {
    for (int y = 0; y < height; y++) {
        int shift = 2 + 20 * y / height; /* the scene's disparity: bands nearer towards the bottom */
        for (int x = 0; x < width; x++) {
            unsigned char dot = (unsigned char)(hash((uint32_t)x / 2, (uint32_t)y / 2) >> 24);
            left[y * width + x] = dot;
            int from = x + shift < width ? x + shift : width - 1;
            unsigned char shifted = (unsigned char)(hash((uint32_t)from / 2, (uint32_t)y / 2) >> 24);
            int noisy = shifted + (int)(hash((uint32_t)x, (uint32_t)y + 7777u) % 7) - 3;
            right[y * width + x] = (unsigned char)(noisy < 0 ? 0 : noisy > 255 ? 255 : noisy);
        }
    }
}

void disparities(int nbDisparities, unsigned char *disparity) {
    for (int d = 0; d < nbDisparities; d++) disparity[d] = (unsigned char)d;
}

void computeWeights(int width, int sliceRows, const unsigned char *rows, float *weights) {
    float table[256];
    for (int k = 0; k < 256; k++) table[k] = expf(-(float)k / 12.0f);
    for (int y = 0; y < sliceRows; y++) {
        for (int x = 0; x < width; x++) {
            int p = y * width + x;
            int centre = rows[p];
            float *w = weights + 4 * (size_t)p;
            w[0] = y > 0 ? table[abs(centre - rows[p - width])] : 0.0f;
            w[1] = y + 1 < sliceRows ? table[abs(centre - rows[p + width])] : 0.0f;
            w[2] = x > 0 ? table[abs(centre - rows[p - 1])] : 0.0f;
            w[3] = x + 1 < width ? table[abs(centre - rows[p + 1])] : 0.0f;
        }
    }
}

void aggregateCost(int width, int height, const unsigned char *disparity, const unsigned char *left,
    const unsigned char *right, const float *weights, unsigned short *cost) {
    int d = disparity[0];
    size_t pixels = (size_t)width * (size_t)height;
    /* scratch of the calling core's thread, kept across firings (no allocation per firing) */
    static _Thread_local float *scratch;
    static _Thread_local size_t capacity;
    if (capacity < 2 * pixels) {
        free(scratch);
        scratch = malloc(2 * pixels * sizeof *scratch);
        if (!scratch) abort();
        capacity = 2 * pixels;
    }
    float *raw = scratch, *next = scratch + pixels;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            int r = x - d >= 0 ? right[y * width + x - d] : 255;
            raw[y * width + x] = (float)abs(left[y * width + x] - r);
        }
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                size_t p = (size_t)y * width + x;
                const float *w = weights + 4 * p;
                float sum = raw[p], norm = 1.0f;
                if (w[0] > 0) { sum += w[0] * raw[p - width]; norm += w[0]; }
                if (w[1] > 0) { sum += w[1] * raw[p + width]; norm += w[1]; }
                if (w[2] > 0) { sum += w[2] * raw[p - 1]; norm += w[2]; }
                if (w[3] > 0) { sum += w[3] * raw[p + 1]; norm += w[3]; }
                next[p] = sum / norm;
            }
        }
        float *swap = raw;
        raw = next;
        next = swap;
    }
    for (size_t p = 0; p < pixels; p++) cost[p] = (unsigned short)(raw[p] * 256.0f);
}

void selectDisparity(int width, int height, int nbDisparities, const unsigned short *costs, unsigned char *depth) {
    size_t pixels = (size_t)width * (size_t)height;
    for (size_t p = 0; p < pixels; p++) {
        unsigned short best = costs[p];
        unsigned char at = 0;
        for (int d = 1; d < nbDisparities; d++) {
            if (costs[(size_t)d * pixels + p] < best) {
                best = costs[(size_t)d * pixels + p];
                at = (unsigned char)d;
            }
        }
        depth[p] = at;
    }
}

void writeDepth(int width, int height, const unsigned char *depth) {
    static volatile unsigned sink;
    unsigned sum = 0;
    for (int p = 0; p < width * height; p++) sum = sum * 31u + depth[p];
    sink = sum;
}
