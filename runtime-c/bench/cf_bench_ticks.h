/* The time-stamp counter for the channel benchmarks' one-way measures (bench_channel, bench_spsc). */
#ifndef CF_BENCH_TICKS_H
#define CF_BENCH_TICKS_H
#include <stdint.h>
#include <time.h>

static inline uint64_t cf_bench_ticks(void) {
#if defined(__x86_64__)
    /* rdtscp waits until the preceding loads (the one that saw the message) have completed. */
    uint32_t lo, hi, aux;
    __asm__ __volatile__("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux)::"memory");
    return (uint64_t)hi << 32 | lo;
#elif defined(__aarch64__)
    uint64_t value;
    __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(value)::"memory");
    return value;
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

#endif
