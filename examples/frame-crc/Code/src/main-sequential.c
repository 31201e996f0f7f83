/* The sequential reference a PREESM application often keeps beside its actors: the actors called in the graph's
 * order, one iteration at a time, until the reader sets preesmStopThreads. It defines its own main and
 * preesmStopThreads, so the generated project leaves this file out. Build it alone with
 *   cc -DPROJECT_ROOT_PATH='"'$PWD/..'"' -I../include *.c -lz */
#include "checksum.h"
#include "invert.h"
#include "reader.h"

#define WIDTH 32
#define HEIGHT 16
#define SLICES 4

int preesmStopThreads = 0;

int main(void) {
    static uchar frame[WIDTH * HEIGHT];
    static uchar inverted[WIDTH * HEIGHT];
    while (!preesmStopThreads) {
        readFrame(WIDTH * HEIGHT, frame);
        for (int slice = 0; slice < SLICES; slice++) {
            int size = WIDTH * HEIGHT / SLICES;
            invertSlice(size, frame + slice * size, inverted + slice * size);
        }
        checksumFrame(WIDTH * HEIGHT, inverted);
    }
    return 0;
}
