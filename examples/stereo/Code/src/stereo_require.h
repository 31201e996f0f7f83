/* Parameter checks shared by the stereo actors' sources (private to Code/src). */
#ifndef STEREO_REQUIRE_H
#define STEREO_REQUIRE_H

#include <stdio.h>
#include <stdlib.h>

/* Actors cannot return errors, and a wrong parameter would silently corrupt the FIFOs: stop loudly. */
static inline void stereoRequire(int condition, const char *actor, const char *what) {
    if (!condition) {
        fprintf(stderr, "stereo: %s: %s\n", actor, what);
        abort();
    }
}

#endif
