#include "invert.h"

void invertSlice(int sliceSize, IN const uchar *in, OUT uchar *out) {
    for (int i = 0; i < sliceSize; i++) {
        out[i] = (uchar)(255 - in[i]);
    }
}
