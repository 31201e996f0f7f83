/* Actors of the dynswitch test graph: a configuration actor chooses the branch of every iteration. */
#ifndef DYNSWITCH_H
#define DYNSWITCH_H

#ifndef IN
#define IN
#define OUT
#endif

typedef unsigned char uchar;
/* The type of a dynamic parameter's value, as SPiDER's headers declare it. */
typedef long Param;

/* Sets branch for the next iteration: the values of DYNSWITCH_BRANCHES (comma-separated, repeated), else 0, 1, 1. */
void chooseBranch(OUT Param *branch);
void source(int size, OUT uchar *out);
void switchFrame(int size, int branch, IN uchar *in, OUT uchar *out0, OUT uchar *out1);
void invert(int n, IN uchar *in, OUT uchar *out);
void rotate(int n, IN uchar *in, OUT uchar *out);
void selectFrame(int size, int branch, IN uchar *in0, IN uchar *in1, OUT uchar *out);
/* Prints "frame K: <FNV-1a hash of the frame>". */
void sink(int size, IN uchar *in);

#endif
