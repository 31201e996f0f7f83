#include "dynswitch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void chooseBranch(OUT Param *branch) {
    static long call;
    const char *given = getenv("DYNSWITCH_BRANCHES");
    const char *sequence = given != NULL && *given != '\0' ? given : "0,1,1";
    long count = 1;
    for (const char *c = sequence; *c != '\0'; c++) {
        count += *c == ',';
    }
    long wanted = call++ % count;
    const char *at = sequence;
    for (long i = 0; i < wanted; i++) {
        at = strchr(at, ',') + 1;
    }
    *branch = strtol(at, NULL, 10);
}

void source(int size, OUT uchar *out) {
    static int frame;
    for (int i = 0; i < size; i++) {
        out[i] = (uchar)(i * 31 + frame * 7);
    }
    frame++;
}

void switchFrame(int size, int branch, IN uchar *in, OUT uchar *out0, OUT uchar *out1) {
    memcpy(branch == 0 ? out0 : out1, in, (size_t)size);
}

void invert(int n, IN uchar *in, OUT uchar *out) {
    for (int i = 0; i < n; i++) {
        out[i] = (uchar)(255 - in[i]);
    }
}

void rotate(int n, IN uchar *in, OUT uchar *out) {
    for (int i = 0; i < n; i++) {
        out[i] = (uchar)(in[(i + 1) % n] ^ 0x5a);
    }
}

void selectFrame(int size, int branch, IN uchar *in0, IN uchar *in1, OUT uchar *out) {
    memcpy(out, branch == 0 ? in0 : in1, (size_t)size);
}

void sink(int size, IN uchar *in) {
    static int frame;
    unsigned hash = 2166136261u;
    for (int i = 0; i < size; i++) {
        hash = (hash ^ in[i]) * 16777619u;
    }
    printf("frame %d: %08x\n", frame++, hash);
    fflush(stdout);
}
