/* Reads the frames of FRAMES_FILE one by one, as PREESM's file readers do; after the last one it asks the
 * program to stop through PREESM's preesmStopThreads (defined by the generated main), and starts over should it
 * be fired again. */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "reader.h"

extern int preesmStopThreads;

static gzFile file;

void readFrame(int size, OUT uchar *frame) {
    if (file == NULL) {
        file = gzopen(FRAMES_FILE, "rb");
        if (file == NULL) {
            fprintf(stderr, "readFrame: cannot open %s\n", FRAMES_FILE);
            exit(1);
        }
    }
    int got = gzread(file, frame, (unsigned)size);
    if (got == 0 && gzeof(file)) {
        gzrewind(file);
        got = gzread(file, frame, (unsigned)size);
    }
    if (got != size) {
        fprintf(stderr, "readFrame: %s holds no whole frame of %d bytes\n", FRAMES_FILE, size);
        exit(1);
    }
    /* the last frame? then this is the last iteration */
    if (gzgetc(file) < 0) {
        preesmStopThreads = 1;
    } else {
        gzseek(file, -1, SEEK_CUR);
    }
}
