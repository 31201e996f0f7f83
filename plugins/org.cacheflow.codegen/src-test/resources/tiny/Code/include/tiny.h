/* Actor prototypes of the code generation test graph tiny.pi. */
#ifndef TINY_H
#define TINY_H

void genInit(int size);
void genFrame(int size, unsigned char *frame);
void scale(int slice, const unsigned char *in, unsigned char *out);
void accumulate(int size, unsigned char *frame, const int *previous, int *state, int *total);
void collect(int size, const unsigned char *scaled, const int *total);

#endif
