/* Checksum actor: prints the CRC-32 of each frame. */
#ifndef CHECKSUM_H
#define CHECKSUM_H

#include "preesm.h"

void checksumFrame(int size, IN const uchar *frame);

#endif
