/* Support of the programs cacheflow generates (not needed by other users of the runtime, so not in the
 * umbrella header): runtime calls that stop the program with a message on error, waiting loops, the command
 * line, threads, MD5 for --validate, and the building blocks of synthetic actor bodies. Nothing here depends
 * on the graph: the generated graph.h includes this header and adds what does. */
#ifndef CACHEFLOW_SUPPORT_H
#define CACHEFLOW_SUPPORT_H
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>
#include <stdint.h>
#include <cacheflow/cacheflow.h>

/* Each context on its own cache lines: different cores update different sinks' contexts. */
typedef struct cf_md5 {
    uint32_t state[4];
    uint64_t bytes;
    uint8_t block[64];
} __attribute__((aligned(64))) cf_md5;

void cf_md5_init(cf_md5 *md5);
void cf_md5_update(cf_md5 *md5, const void *data, size_t size);
void cf_md5_final(cf_md5 *md5, uint8_t digest[16]);

/* The command line: --iterations N, --validate[=cacheflow|preesm], --no-pin (or CACHEFLOW_NO_PIN=1 in the
 * environment), --time. */
/* What --validate prints: cacheflow's lines (one per sink FIFO) or PREESM's (one per sink buffer, its CI's format). */
#define CF_VALIDATE_CACHEFLOW 1
#define CF_VALIDATE_PREESM 2
typedef struct cf_gen_options {
    long iterations;
    int validate; /* 0, CF_VALIDATE_CACHEFLOW or CF_VALIDATE_PREESM */
    int pin;
    int time; /* --time: cf_gen_print_time prints the run's time and its iterations' (core 0's loop) */
} cf_gen_options;
/* 0 to run, 1 after --help, 2 on a usage error (printed). iterations: the default of --iterations. */
int cf_gen_parse_arguments(int argc, char **argv, const char *program, long iterations, cf_gen_options *out);

/* PREESM's API for actors: setting preesmStopThreads (defined in src/support.c) to non-zero ends the run. The cores
 * agree on the last iteration: the highest any core has begun when a core first sees the flag. */
extern int preesmStopThreads;
#define CF_GEN_MAX_CORES 64
/* At the start of each iteration: 0 when the core must stop before it. */
int cf_gen_keep_running(int core, long iteration);
/* At the end of each iteration: records a stop when an actor set preesmStopThreads; once it is set, returns only
 * when the last iteration is agreed on (whichever core records it). */
void cf_gen_check_stop(void);
/* The iterations run: the last agreed on plus one after a stop, else requested. */
long cf_gen_iterations_run(long requested);
/* Pipelined loops (vertices with an iteration offset, the largest being skew): at the start of each pass, records
 * the pass as begun; 0 when the core must stop before it. After a stop (last: the largest pass begun, agreed as for
 * cf_gen_keep_running) the passes up to last + skew run, so that every vertex completes the graph iterations up to
 * last. */
int cf_gen_keep_running_pipelined(int core, long pass, int skew);
/* Pipelined loops: the end of the graph iterations a vertex fires for: the last agreed on plus one after a stop
 * (at most requested), else requested. */
long cf_gen_iteration_end(long requested);

/* Failing clearly. cf_gen_install_signals (main, before the cores start): a crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
 * SIGABRT, SIGTRAP) prints the actor, firing, iteration and core that were running, then the program dies with the
 * signal (a sanitizer's handler installed before still reports after that line); the first SIGINT or SIGTERM stops
 * every core at the end of an iteration they agree on, as preesmStopThreads does, and a second one ends the program
 * at once (with stop 0, as on several nodes where mpirun handles them, SIGINT and SIGTERM are left alone). program
 * names the program in messages and must outlive it. */
void cf_gen_install_signals(const char *program, int stop);
/* After the run and its output: when SIGINT or SIGTERM stopped it, says so and ends the program with that signal
 * (the status a shell shows as 130 or 143); else returns 0, main's status. */
int cf_gen_finish(long iterations);
/* What each core runs, for the crash report: the core's own cache line, written before and after each firing (a few
 * stores; nothing shared). The compiler barriers keep an inlined actor's code between the two. */
typedef struct cf_gen_running {
    const char *actor;
    long iteration;
    long firing;
    int inside;
} __attribute__((aligned(64))) cf_gen_running;
extern cf_gen_running cf_gen_now[CF_GEN_MAX_CORES];
#ifdef CF_GEN_NO_FIRING_MARKS
/* Built with -DCF_GEN_NO_FIRING_MARKS: no marks, so a crash names the core but not the actor (what the marks cost:
 * bench/firing-marks/run.sh). */
static inline void cf_gen_firing_begins(int core, const char *actor, long iteration, long firing) {
    (void)core, (void)actor, (void)iteration, (void)firing;
}
static inline void cf_gen_firing_ends(int core) {
    (void)core;
}
#else
static inline void cf_gen_firing_begins(int core, const char *actor, long iteration, long firing) {
    volatile cf_gen_running *now = &cf_gen_now[core];
    now->actor = actor;
    now->iteration = iteration;
    now->firing = firing;
    now->inside = 1;
    __asm__ volatile("" ::: "memory");
}
static inline void cf_gen_firing_ends(int core) {
    __asm__ volatile("" ::: "memory");
    ((volatile cf_gen_running *)&cf_gen_now[core])->inside = 0;
}
#endif
/* At the start of a core's function: the graph's core number the calling thread runs, for crash reports (on several
 * nodes, threads are numbered within their node). */
void cf_gen_core_is(int core);
/* Before anything is allocated: refuses to run (a message naming the figures and the largest buffers, exit status 1)
 * when the program cannot fit: `needed` bytes it touches against this machine's physical memory and its control
 * group's limit (cgroup memory.max), `reserved` bytes of address space against RLIMIT_AS and RLIMIT_DATA (ulimit -v,
 * -d). largest: the largest buffers in words, NULL-terminated. */
void cf_gen_check_memory(const char *program, uint64_t needed, uint64_t reserved, const char *const largest[]);
/* Stops the program with a message naming the call when rc is a negative errno value. */
void cf_gen_check(int rc, const char *what);

/* A zeroed block of the core's local heap, touched by the calling core. */
uint8_t *cf_gen_alloc(cf_heap_local *heap, size_t bytes, const char *what);

/* The slot memory of channels that share it, one after the other (cf_channel_create_in): `bytes` of fresh
 * anonymous pages (zero, untouched until the receiving core's cf_channel_home_here). NULL for 0 bytes; stops the
 * program with a message naming `what` when it cannot be mapped. */
uint8_t *cf_gen_channel_region(size_t bytes, const char *what);
void cf_gen_channel_region_free(uint8_t *region, size_t bytes);

uint8_t *cf_gen_reserve(cf_channel *channel, const char *what);
void cf_gen_commit(cf_channel *channel, size_t bytes, const char *what);
uint8_t *cf_gen_acquire(cf_channel *channel, const char *what);
void cf_gen_release(cf_channel *channel, const char *what);
/* Sends one message of zeros before the cores start: a persistent delay's first initial tokens. */
void cf_gen_prime(cf_channel *channel, size_t bytes, const char *what);

uint8_t *cf_gen_cow_write_begin(cf_cow_buffer *buffer, const char *what);
void cf_gen_cow_publish(cf_cow_buffer *buffer, const char *what);
/* A buffer written by several cores (cf_cow_config.writers): part `part` of the iteration, from its own core. */
uint8_t *cf_gen_cow_write_begin_part(cf_cow_buffer *buffer, unsigned part, const char *what);
void cf_gen_cow_publish_part(cf_cow_buffer *buffer, unsigned part, const char *what);
uint8_t *cf_gen_cow_acquire(cf_cow_view *view, const char *what);
void cf_gen_cow_release(cf_cow_view *view, const char *what);

void cf_gen_sem_wait(sem_t *semaphore);
void cf_gen_sem_post(sem_t *semaphore);
void cf_gen_barrier_wait(pthread_barrier_t *barrier);

/* Runs each core's function on its own thread (pinned to CPU i modulo the CPUs available unless pin is 0),
 * waits for all of them, and returns the wall time in seconds. Each thread records its counters (stats.h) when
 * its function returns, for cf_gen_print_stats. */
double cf_gen_run_cores(void *(*const cores[])(void *), int count, int pin);

/* Prints "<label> : <md5>": of the data when there is one part, else of the parts' digests in order. */
void cf_gen_print_digest(const char *label, cf_md5 *parts, int count);
/* Prints PREESM's line for one sink buffer, as its generated code prints it and its CI compares it with a project's
 * .validation.hash: "preesm_md5_<buffer> : <md5>", the digest's 16 bytes from the last to the first. */
void cf_gen_print_preesm_digest(const char *buffer, cf_md5 *part);
/* Prints "stats: ..." (the counters of all threads, cf_stats_total) and "time: <seconds> s for <iterations>
 * iterations". Between the two, when copy-on-write views handed out pages on some core thread of the last
 * cf_gen_run_cores, one line per core thread in cores[] order, over its whole run:
 *   stats core 0: cow pages shared 123, faulted 4, re-shared 4
 * None without cf_gen_run_cores, nor once cf_stats_add has added other processes' counts (MPI rank 0): those
 * would cover only this node's cores. */
void cf_gen_print_stats(long iterations, double seconds);
/* After the run, when --time was given (else nothing): the run's time (unless --validate printed it) and the times
 * of core 0's iterations, start to start (pipelined loops: passes): median, quartiles, min-max. Core 0 stamps each
 * iteration it begins (cf_gen_keep_running or cf_gen_iteration_begins, at most 2^20); with no barrier its loop runs
 * at the graph's period, so the median is the program's time per iteration with the run's outliers (a descheduled
 * core) left aside. */
void cf_gen_print_time(long iterations, double seconds);
/* What cf_gen_keep_running records for --time, for loops that do not call it (no actor can stop them). */
void cf_gen_iteration_begins(int core, long iteration);

/* Synthetic actor bodies: a seed from the actor, iteration and firing, mixed with every value and input
 * read; outputs are a pseudo-random stream from that seed; inputs the actor may modify are overwritten. */
uint64_t cf_synth_seed(uint64_t actor, long iteration, long firing);
uint64_t cf_synth_mix(uint64_t seed, uint64_t value);
uint64_t cf_synth_absorb(uint64_t seed, const void *data, size_t size);
void cf_synth_fill(void *data, size_t size, uint64_t seed, uint64_t port);
void cf_synth_scribble(void *data, size_t size, uint64_t seed);

#endif
