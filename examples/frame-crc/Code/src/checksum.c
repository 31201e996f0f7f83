#include <stdio.h>
#include <zlib.h>

#include "checksum.h"

void checksumFrame(int size, IN const uchar *frame) {
    static int index;
    unsigned long crc = crc32(crc32(0L, Z_NULL, 0), frame, (uInt)size);
    printf("frame %d: crc32 %08lx\n", index++, crc);
}
