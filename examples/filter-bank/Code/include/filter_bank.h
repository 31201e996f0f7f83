/* Actor prototypes of the filter-bank example (the .pi files name this header as their refinement). */
#ifndef FILTER_BANK_H
#define FILTER_BANK_H

void readFrame(int size, unsigned char *frame);
void blurSlice(int width, int sliceHeight, const unsigned char *in, unsigned char *out);
void edgesRow(int rowLength, const unsigned char *in, unsigned char *edges);
void combine(int size, unsigned char *original, const unsigned char *edges, unsigned char *out);
void histogram(int size, const unsigned char *frame, const int *previous, int *counts);
void display(int size, const unsigned char *frame);

#endif
