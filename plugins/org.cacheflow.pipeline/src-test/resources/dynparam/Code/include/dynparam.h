/* Actors of the dynamic-parameter test graphs: configuration actors choose a switch's branch (dynswitch.pi) and a
 * frame's width (dynres.pi, dynacc.pi) for every iteration. For the tests of a stop, the configuration actors and the
 * sinks sleep in one call (DYNPARAM_SLEEP=ACTOR@CALL:MS, saying so on stderr) or set preesmStopThreads in one call
 * (DYNPARAM_STOP=ACTOR@CALL), ACTOR the function's name, CALL counted from 0. */
#ifndef DYNPARAM_H
#define DYNPARAM_H

#ifndef IN
#define IN
#define OUT
#endif

typedef unsigned char uchar;
/* The type of a dynamic parameter's value, as SPiDER's headers declare it. */
typedef long Param;

/* dynswitch.pi. chooseBranch sets branch for the next iteration: the values of DYNSWITCH_BRANCHES (comma-separated,
 * repeated), else 0, 1, 1. */
void chooseBranch(OUT Param *branch);
void source(int size, OUT uchar *out);
void switchFrame(int size, int branch, IN uchar *in, OUT uchar *out0, OUT uchar *out1);
void invert(int n, IN uchar *in, OUT uchar *out);
void rotate(int n, IN uchar *in, OUT uchar *out);
void selectFrame(int size, int branch, IN uchar *in0, IN uchar *in1, OUT uchar *out);
/* Prints "frame K: <FNV-1a hash of the frame>". */
void sink(int size, IN uchar *in);

/* dynres.pi. chooseWidth sets width for the next iteration: the values of DYNRES_WIDTHS, else 16. */
void chooseWidth(OUT Param *width);
void frameSource(int size, OUT uchar *out);
/* Row's init prototype: the width of the rows filterRow filters from now on (it stops the program when fired with
 * another). */
void initFilterRow(int width);
/* A 3-tap horizontal filter of one row, edges clamped. */
void filterRow(int width, IN uchar *in, OUT uchar *out);
/* Prints "frame K: <size> <FNV-1a hash of the frame>". */
void frameSink(int size, IN uchar *in);

/* dynacc.pi (widths as dynres). The history's first tokens: history[k] = 7 * k + 1. */
void initHistory(int history, OUT uchar *tokens);
/* next[k] = 3 * previous[k] + the sum of the frame's bytes at positions k modulo 16 + 1 (bytes wrap); copy = next;
 * out = the frame. */
void accumulate(int size, IN uchar *in, IN uchar *previous, OUT uchar *next, OUT uchar *copy, OUT uchar *out);
/* out[x] = in[x] ^ previous[x % 16]. */
void mixFrame(int size, IN uchar *in, IN uchar *previous, OUT uchar *out);

/* dyncow.pi (widths as dynres). Writes into its input, as an actor may whose input is not declared read-only: byte
 * 0 of every 4096 xor 0xa5; then out[i] = in[i] + 1 (bytes wrap), its own writes included. */
void markPages(int n, IN uchar *in, OUT uchar *out);

#endif
