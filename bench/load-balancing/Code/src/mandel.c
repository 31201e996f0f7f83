/* Actors of the load-balancing benchmark's irregular graph: a frame of Mandelbrot tiles in which two tiles, chosen
 * afresh for every frame from the frame number (a hash), look into the set, where every pixel runs the whole escape
 * loop, and the other tiles look at the plane outside it, where pixels escape after a few steps. A hot tile costs
 * about 30x a cold one, and the hot ones move from frame to frame, so no fixed assignment of tiles to cores (the
 * static schedule's) is balanced in every frame: half the frames put both hot tiles on one core. */
#include "mandel.h"

#define MAX_ITERATIONS 96
#define ZOOM_ITERATIONS 384 /* a deeper zoom looks further for an escape */

static int frame_number;

void mandelFrame(int tiles, int *jobs) {
    for (int t = 0; t < tiles; t++) jobs[t] = frame_number * tiles + t;
    frame_number++;
}

static unsigned mix(unsigned x);

/* A view is a number in [0, 2^20) that places the hot tiles as a frame number does in mandel (hot() below). */
static int zoom_frames;

void zoomFrame(int tiles, const int *view, int *jobs) {
    int code = (*view + zoom_frames++) & 0xFFFFF; /* the frame count keeps the views from falling into a short cycle */
    for (int t = 0; t < tiles; t++) jobs[t] = code * tiles + t;
}

/* The next view: a hash of this image's escape counts, so that each frame's hot tiles depend on the frame before. */
void zoomImage(int pixels, const unsigned char *image, int *view) {
    unsigned h = 2166136261U;
    for (int p = 0; p < pixels; p++) h = (h ^ image[p]) * 16777619U;
    *view = (int)(mix(h) & 0xFFFFFU);
}

static unsigned mix(unsigned x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/* whether tile index of the frame is one of its two hot tiles (two distinct tiles per frame) */
static int hot(int frame, int index, int tiles) {
    int first = (int)(mix((unsigned)frame * 2U + 1U) % (unsigned)tiles);
    int second = (first + 1 + (int)(mix((unsigned)frame * 2U + 2U) % (unsigned)(tiles - 1))) % tiles;
    return index == first || index == second;
}

/* escape counts (at most most steps, kept modulo 256) of a side x side window of the plane at (x0, y0), width wide */
static void escape_tile(int side, double x0, double y0, double width, int most, unsigned char *tile) {
    double step = width / side;
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            double cr = x0 + x * step, ci = y0 + y * step, zr = 0, zi = 0;
            int n = 0;
            while (n < most && zr * zr + zi * zi < 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                n++;
            }
            tile[y * side + x] = (unsigned char)n;
        }
    }
}

void mandelTile(int tiles, int side, const int *job, unsigned char *tile) {
    int frame = *job / tiles, index = *job % tiles;
    /* a hot tile: a 0.2 x 0.2 window inside the main cardioid; a cold one: a window of the plane outside the set,
     * panning with the frame */
    int inside = hot(frame, index, tiles);
    escape_tile(side, inside ? -0.3 : 0.5 + 0.002 * (frame % 50), inside ? -0.1 : 0.25 + 0.01 * index, 0.2,
                MAX_ITERATIONS, tile);
}

void zoomTile(int tiles, int side, const int *job, unsigned char *tile) {
    int view = *job / tiles, index = *job % tiles;
    /* a hot tile: inside the main cardioid, as mandel's, with the deeper zoom's higher escape limit; a cold one: far
     * outside the set, where every pixel escapes within 2 or 3 steps */
    int inside = hot(view, index, tiles);
    escape_tile(side, inside ? -0.3 : 1.0 + 0.002 * (view % 50), inside ? -0.1 : 0.5 + 0.01 * index, 0.2,
                ZOOM_ITERATIONS, tile);
}

void mandelImage(int pixels, const unsigned char *image) {
    (void)pixels;
    (void)image;
}
