/* The actors of the crc test project. */
#ifndef ACTORS_H
#define ACTORS_H

#define IN
#define OUT

typedef unsigned char uchar;

/* frame[i] = 31 * k + 7 * i (mod 256) in its k-th firing */
void generate(int size, OUT uchar *frame);
/* out[i] = 255 - in[i] */
void invert(int slice, IN const uchar *in, OUT uchar *out);
/* reads the frame */
void consume(int size, IN const uchar *frame);
/* prints "frame K: crc32 XXXXXXXX" (zlib's CRC-32) in its k-th firing */
void check(int size, IN const uchar *frame);

#endif
