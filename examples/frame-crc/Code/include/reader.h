/* Read actor: one frame of the data file per firing. */
#ifndef READER_H
#define READER_H

#include "preesm.h"

void readFrame(int size, OUT uchar *frame);

#endif
