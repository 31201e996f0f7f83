#include <stdio.h>
#include <zlib.h>

#include "actors.h"

void generate(int size, OUT uchar *frame) {
    static unsigned firing;
    for (int i = 0; i < size; i++) {
        frame[i] = (uchar)(31u * firing + 7u * (unsigned)i);
    }
    firing++;
}

void invert(int slice, IN const uchar *in, OUT uchar *out) {
    for (int i = 0; i < slice; i++) {
        out[i] = (uchar)(255 - in[i]);
    }
}

void consume(int size, IN const uchar *frame) {
    volatile uchar sum = 0;
    for (int i = 0; i < size; i++) {
        sum = (uchar)(sum + frame[i]);
    }
    (void)sum;
}

void check(int size, IN const uchar *frame) {
    static unsigned firing;
    printf("frame %u: crc32 %08lx\n", firing++, crc32(0L, frame, (uInt)size));
}
