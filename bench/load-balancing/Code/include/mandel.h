/* Actors of the load-balancing benchmark's irregular graphs (Algo/mandel.pi, and Algo/zoom.pi whose frames are
 * steered by the frame before). */
#ifndef MANDEL_H
#define MANDEL_H

/* One job per tile: the tile's index and the frame number (jobs[t] = frame * tiles + t). */
void mandelFrame(int tiles, int *jobs);
/* A side x side tile of escape counts; its cost depends on where the tile lies in this frame's view. */
void mandelTile(int tiles, int side, const int *job, unsigned char *tile);
/* The image (the sink: --validate digests it). */
void mandelImage(int pixels, const unsigned char *image);

/* zoom: the jobs of a frame whose view is the one the previous image chose (view: 0 before the first frame). */
void zoomFrame(int tiles, const int *view, int *jobs);
/* zoom: a tile of the view; the hot tiles cost about 60x the others (mandelTile's: 28x). */
void zoomTile(int tiles, int side, const int *job, unsigned char *tile);
/* zoom: the image (the sink) chooses the next frame's view from its own pixels. */
void zoomImage(int pixels, const unsigned char *image, int *view);

#endif
