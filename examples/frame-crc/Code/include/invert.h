/* Invert actor: 255 - x for every byte of a slice. */
#ifndef INVERT_H
#define INVERT_H

#include "preesm.h"

void invertSlice(int sliceSize, IN const uchar *in, OUT uchar *out);

#endif
