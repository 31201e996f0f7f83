/* Actor prototypes of the delay setter / getter test graph delayends.pi. */
#ifndef DELAYENDS_H
#define DELAYENDS_H

void source(int count, int base, int *out);
void seedTokens(int half, int first, int *tokens);
void mix(const int *in, int *out);
void record(int count, const int *in);
void last(int half, const int *in, int *out);
void tail(int half, const int *in);

#endif
