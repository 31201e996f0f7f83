/* Declarations every actor of frame-crc shares, as a PREESM application's preesm.h: the token type, the
 * direction markers, and the data file found from PROJECT_ROOT_PATH (the project's Code/ folder, which PREESM's
 * CMakeLists defines, and cacheflow's generated CMake project too). */
#ifndef PREESM_H
#define PREESM_H

#define IN
#define OUT

typedef unsigned char uchar;

#ifndef PROJECT_ROOT_PATH
#error "PROJECT_ROOT_PATH must name the project's Code/ folder (the build defines it)"
#endif

/* the frames, compressed with gzip */
#define FRAMES_FILE PROJECT_ROOT_PATH "/dat/frames.gz"

#endif
