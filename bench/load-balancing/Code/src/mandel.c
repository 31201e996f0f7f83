/* Actors of the load-balancing benchmark's irregular graph: Mandelbrot tiles over a view that pans with the frame,
 * so a tile's cost (escape iterations) varies with the tile and the frame, by far more than 4x. */
#include "mandel.h"

#define MAX_ITERATIONS 256

static int frame_number;

void mandelFrame(int tiles, int *jobs) {
    for (int t = 0; t < tiles; t++) jobs[t] = frame_number * tiles + t;
    frame_number++;
}

void mandelTile(int tiles, int side, const int *job, unsigned char *tile) {
    int frame = *job / tiles, index = *job % tiles, across = 1;
    while (across * across < tiles) across++;
    /* the view: 2.4 x 2.4 around a centre that pans slowly along the real axis */
    double width = 2.4, x0 = -2.0 + 0.01 * (frame % 40), y0 = -1.2;
    double step = width / (across * side);
    int tx = index % across, ty = index / across;
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            double cr = x0 + (tx * side + x) * step, ci = y0 + (ty * side + y) * step, zr = 0, zi = 0;
            int n = 0;
            while (n < MAX_ITERATIONS && zr * zr + zi * zi < 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2 * zr * zi + ci;
                zr = t;
                n++;
            }
            tile[y * side + x] = (unsigned char)n;
        }
    }
}

void mandelImage(int pixels, const unsigned char *image) {
    (void)pixels;
    (void)image;
}
