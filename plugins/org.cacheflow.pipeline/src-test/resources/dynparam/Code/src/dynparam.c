#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "dynparam.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* PREESM's API: an actor setting it ends the run (the runtime defines it). */
extern int preesmStopThreads;

/* Whether the environment variable names this actor's call-th call, "ACTOR@CALL" or "ACTOR@CALL:MS"; *ms gets MS
 * (0 without). */
static int named(const char *variable, const char *actor, long call, long *ms) {
    const char *given = getenv(variable);
    size_t length = strlen(actor);
    if (given == NULL || strncmp(given, actor, length) != 0 || given[length] != '@') {
        return 0;
    }
    char *end = NULL;
    long at = strtol(given + length + 1, &end, 10);
    *ms = *end == ':' ? strtol(end + 1, NULL, 10) : 0;
    return at == call;
}

/* The tests' switches, before the actor's work: DYNPARAM_SLEEP=ACTOR@CALL:MS sleeps MS ms in that call (after
 * saying so on stderr), so that the other cores wait for it. */
static void sleepWhenAsked(const char *actor, long call) {
    long ms;
    if (named("DYNPARAM_SLEEP", actor, call, &ms)) {
        fprintf(stderr, "dynparam: %s sleeps %ld ms in call %ld\n", actor, ms, call);
        fflush(stderr);
        struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&pause, &pause) != 0) {
        }
    }
}

/* After the actor's work: DYNPARAM_STOP=ACTOR@CALL sets preesmStopThreads in that call, as PREESM's actors stop a
 * run. */
static void stopWhenAsked(const char *actor, long call) {
    long ms;
    if (named("DYNPARAM_STOP", actor, call, &ms)) {
        preesmStopThreads = 1;
    }
}

/* The call-th value of the comma-separated list in the environment variable, repeated (else of fallback). */
static Param nextValue(const char *variable, const char *fallback, long call) {
    const char *given = getenv(variable);
    const char *sequence = given != NULL && *given != '\0' ? given : fallback;
    long count = 1;
    for (const char *c = sequence; *c != '\0'; c++) {
        count += *c == ',';
    }
    const char *at = sequence;
    for (long i = 0; i < call % count; i++) {
        at = strchr(at, ',') + 1;
    }
    return strtol(at, NULL, 10);
}

static unsigned fnv(int size, const uchar *bytes) {
    unsigned hash = 2166136261u;
    for (int i = 0; i < size; i++) {
        hash = (hash ^ bytes[i]) * 16777619u;
    }
    return hash;
}

void chooseBranch(OUT Param *branch) {
    static long call;
    sleepWhenAsked("chooseBranch", call);
    *branch = nextValue("DYNSWITCH_BRANCHES", "0,1,1", call);
    stopWhenAsked("chooseBranch", call++);
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
    sleepWhenAsked("sink", frame);
    printf("frame %d: %08x\n", frame, fnv(size, in));
    fflush(stdout);
    stopWhenAsked("sink", frame++);
}

void chooseWidth(OUT Param *width) {
    static long call;
    sleepWhenAsked("chooseWidth", call);
    *width = nextValue("DYNRES_WIDTHS", "16", call);
    stopWhenAsked("chooseWidth", call++);
}

void frameSource(int size, OUT uchar *out) {
    static int frame;
    for (int i = 0; i < size; i++) {
        out[i] = (uchar)(i * 13 + frame * 5);
    }
    frame++;
}

/* The width initFilterRow set (every firing's init call sets the same one: atomic, as the calls may run on several
 * cores at once). */
static int filter_width;

void initFilterRow(int width) {
    __atomic_store_n(&filter_width, width, __ATOMIC_RELAXED);
}

void filterRow(int width, IN uchar *in, OUT uchar *out) {
    int initialized = __atomic_load_n(&filter_width, __ATOMIC_RELAXED);
    if (initialized != width) {
        fprintf(stderr, "filterRow: fired with width %d after initFilterRow(%d)\n", width, initialized);
        exit(4);
    }
    for (int x = 0; x < width; x++) {
        int left = in[x > 0 ? x - 1 : 0];
        int right = in[x + 1 < width ? x + 1 : width - 1];
        out[x] = (uchar)((left + 2 * in[x] + right) / 4);
    }
}

void frameSink(int size, IN uchar *in) {
    static int frame;
    sleepWhenAsked("frameSink", frame);
    printf("frame %d: %d %08x\n", frame, size, fnv(size, in));
    fflush(stdout);
    stopWhenAsked("frameSink", frame++);
}

void initHistory(int history, OUT uchar *tokens) {
    for (int k = 0; k < history; k++) {
        tokens[k] = (uchar)(7 * k + 1);
    }
}

void accumulate(int size, IN uchar *in, IN uchar *previous, OUT uchar *next, OUT uchar *copy, OUT uchar *out) {
    for (int k = 0; k < 16; k++) {
        unsigned sum = 3u * previous[k] + 1u;
        for (int i = k; i < size; i += 16) {
            sum += in[i];
        }
        next[k] = (uchar)sum;
        copy[k] = (uchar)sum;
    }
    memcpy(out, in, (size_t)size);
}

void mixFrame(int size, IN uchar *in, IN uchar *previous, OUT uchar *out) {
    for (int x = 0; x < size; x++) {
        out[x] = (uchar)(in[x] ^ previous[x % 16]);
    }
}

void markPages(int n, IN uchar *in, OUT uchar *out) {
    for (int i = 0; i < n; i += 4096) {
        in[i] ^= 0xa5;
    }
    for (int i = 0; i < n; i++) {
        out[i] = (uchar)(in[i] + 1);
    }
}
