/* Actors of the load-balancing benchmark's irregular graph (Algo/mandel.pi). */
#ifndef MANDEL_H
#define MANDEL_H

/* One job per tile: the tile's index and the frame number (jobs[t] = frame * tiles + t). */
void mandelFrame(int tiles, int *jobs);
/* A side x side tile of escape counts; its cost depends on where the tile lies in this frame's view. */
void mandelTile(int tiles, int side, const int *job, unsigned char *tile);
/* The image (the sink: --validate digests it). */
void mandelImage(int pixels, const unsigned char *image);

#endif
