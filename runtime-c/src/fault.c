/* Generated programs that fail clearly (see cacheflow/support.h): what a crash prints, how SIGINT and SIGTERM
 * stop the run, and the memory check before anything is allocated.
 *
 * A signal handler may only call async-signal-safe functions: the crash report is written with write(2) from
 * fixed strings and digits formatted here, and reads only what each core stored before its firing
 * (cf_gen_now[core], the core's own cache line) and the thread's core number (thread-local, set once at the
 * thread's start). */
#define _GNU_SOURCE
#include "cacheflow/support.h"

#include "support_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

cf_gen_running cf_gen_now[CF_GEN_MAX_CORES];

static const char *program_name = "program";
static _Thread_local int core_self = -1;
static atomic_int stop_signal; /* the first SIGINT or SIGTERM, 0 before */

/* ---- async-signal-safe output ---- */

static size_t length(const char *text) {
    size_t n = 0;
    while (text[n]) n++;
    return n;
}

static void put(const char *text) {
    size_t n = length(text);
    while (n > 0) {
        ssize_t written = write(STDERR_FILENO, text, n);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        text += written;
        n -= (size_t)written;
    }
}

static void put_number(unsigned long long value, unsigned base) {
    char digits[24];
    int i = (int)sizeof digits - 1;
    digits[i] = '\0';
    do {
        unsigned d = (unsigned)(value % base);
        digits[--i] = (char)(d < 10 ? '0' + d : 'a' + d - 10);
        value /= base;
    } while (value && i > 0);
    put(digits + i);
}

static void put_long(long value) {
    if (value < 0) {
        put("-");
        put_number((unsigned long long)(-(value + 1)) + 1, 10);
    } else {
        put_number((unsigned long long)value, 10);
    }
}

static const char *signal_name(int signal) {
    switch (signal) {
    case SIGSEGV: return "SIGSEGV (invalid memory access)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error, such as an integer division by zero)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGTRAP: return "SIGTRAP (trap)";
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
    }
}

/* The signal's default action, with its status: raised again under SIG_DFL (from a handler, it is delivered once
 * the handler returns; a fault re-executes the instruction and faults again, with the default action then). */
static void default_action(int signal) {
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal, &fallback, NULL);
    raise(signal);
}

/* ---- crashes ---- */

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
#define CRASH_SIGNALS ((int)(sizeof crash_signals / sizeof crash_signals[0]))
static struct sigaction previous[CRASH_SIGNALS]; /* what was installed before (a sanitizer's handler) */

static void report_crash(int signal, const siginfo_t *info) {
    int core = core_self;
    put(program_name);
    if (core >= 0 && core < CF_GEN_MAX_CORES) {
        const volatile cf_gen_running *now = &cf_gen_now[core];
        const char *actor = now->actor;
        if (now->inside && actor) {
            put(": actor ");
            put(actor);
            put(" crashed in firing ");
            put_long(now->firing);
            put(" of iteration ");
            put_long(now->iteration);
            put(" on core ");
            put_long(core);
        } else {
            put(": core ");
            put_long(core);
            put(" crashed in the runtime, not in an actor");
            if (actor) {
                put(" (after actor ");
                put(actor);
                put(", iteration ");
                put_long(now->iteration);
                put(")");
            }
        }
    } else {
        put(": crashed outside the cores' threads");
    }
    put(": ");
    put(signal_name(signal));
    if ((signal == SIGSEGV || signal == SIGBUS) && info) {
        put(" at address 0x");
        put_number((unsigned long long)(uintptr_t)info->si_addr, 16);
    }
    put("\n");
}

static void on_crash(int signal, siginfo_t *info, void *context) {
    report_crash(signal, info);
    int i = 0;
    while (i < CRASH_SIGNALS && crash_signals[i] != signal) i++;
    if (i < CRASH_SIGNALS) {
        /* a sanitizer's handler still reports (and ends the program) after this line */
        struct sigaction *old = &previous[i];
        if ((old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
            sigaction(signal, old, NULL);
            old->sa_sigaction(signal, info, context);
            return;
        }
        if (!(old->sa_flags & SA_SIGINFO) && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
            sigaction(signal, old, NULL);
            old->sa_handler(signal);
            return;
        }
    }
    default_action(signal);
}

/* ---- SIGINT and SIGTERM ---- */

static void on_stop(int signal) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&stop_signal, &expected, signal)) {
        /* the second: at once, as without this handler */
        default_action(signal);
        return;
    }
    put(program_name);
    put(": ");
    put(signal_name(signal));
    put(": stopping every core at the end of the iteration they agree on (again to stop at once)\n");
}

int cf_gen_stop_requested_by_signal(void) { return atomic_load_explicit(&stop_signal, memory_order_relaxed); }

void cf_gen_install_signals(const char *program, int stop_on_interrupt) {
    program_name = program;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigemptyset(&action.sa_mask);
    action.sa_sigaction = on_crash;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    for (int i = 0; i < CRASH_SIGNALS; i++) sigaction(crash_signals[i], &action, &previous[i]);
    if (!stop_on_interrupt) return;
    struct sigaction stop;
    memset(&stop, 0, sizeof stop);
    sigemptyset(&stop.sa_mask);
    stop.sa_handler = on_stop;
    stop.sa_flags = SA_RESTART;
    /* a signal the caller ignores (nohup) stays ignored */
    struct sigaction old;
    if (sigaction(SIGINT, NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(SIGINT, &stop, NULL);
    if (sigaction(SIGTERM, NULL, &old) == 0 && old.sa_handler != SIG_IGN) sigaction(SIGTERM, &stop, NULL);
}

int cf_gen_finish(long iterations) {
    int signal = atomic_load(&stop_signal);
    if (!signal) return 0;
    fflush(NULL); /* what was printed reaches its file before the signal ends the program */
    fprintf(stderr, "%s: stopped by %s after %ld iterations\n", program_name, signal == SIGINT ? "SIGINT" : "SIGTERM",
            iterations);
    fflush(stderr);
    default_action(signal);
    return 128 + signal; /* where the default action does not end the program */
}

/* ---- core threads ---- */

void cf_gen_core_is(int core) { core_self = core; }

/* An alternate stack, so that a crash by stack overflow can still be reported. */
#define ALTERNATE_STACK_BYTES (64u << 10)

void *cf_gen_core_thread_begin(int core) {
    core_self = core;
    void *memory = malloc(ALTERNATE_STACK_BYTES);
    if (!memory) return NULL;
    stack_t stack = {.ss_sp = memory, .ss_size = ALTERNATE_STACK_BYTES, .ss_flags = 0};
    if (sigaltstack(&stack, NULL) != 0) {
        free(memory);
        return NULL;
    }
    return memory;
}

void cf_gen_core_thread_end(void *stack) {
    if (!stack) return;
    stack_t off = {.ss_sp = NULL, .ss_size = 0, .ss_flags = SS_DISABLE};
    sigaltstack(&off, NULL);
    free(stack);
}

/* ---- memory ---- */

static void print_size(FILE *out, uint64_t bytes) {
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double value = (double)bytes;
    int unit = 0;
    while (value >= 1024 && unit < 6) {
        value /= 1024;
        unit++;
    }
    if (unit == 0)
        fprintf(out, "%" PRIu64 " B", bytes);
    else
        fprintf(out, "%.1f %s", value, units[unit]);
}

/* The limit of a cgroup file (v2 memory.max, v1 memory.limit_in_bytes): 0 when absent or unlimited. */
static uint64_t cgroup_limit(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    char text[64] = {0};
    uint64_t limit = 0;
    if (fgets(text, sizeof text, file) && strncmp(text, "max", 3) != 0) {
        char *end;
        unsigned long long value = strtoull(text, &end, 10);
        if (end != text && value < (1ull << 62)) limit = value;
    }
    fclose(file);
    return limit;
}

/* This process's cgroup v2 memory.max, from /proc/self/cgroup's "0::/path" line. */
static uint64_t own_cgroup_limit(void) {
    FILE *file = fopen("/proc/self/cgroup", "r");
    if (!file) return 0;
    char line[512];
    uint64_t limit = 0;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "0::", 3) != 0) continue;
        line[strcspn(line, "\n")] = '\0';
        char path[640];
        snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.max", strcmp(line + 3, "/") == 0 ? "" : line + 3);
        limit = cgroup_limit(path);
    }
    fclose(file);
    if (!limit) limit = cgroup_limit("/sys/fs/cgroup/memory.max");
    if (!limit) limit = cgroup_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    return limit;
}

static void refuse(const char *program, const char *what, uint64_t needed, const char *limit_name, uint64_t limit,
                   const char *const largest[]) {
    fprintf(stderr, "%s: the program needs ", program);
    print_size(stderr, needed);
    fprintf(stderr, " of %s, more than the ", what);
    print_size(stderr, limit);
    fprintf(stderr, " of %s; nothing was run. Largest buffers:\n", limit_name);
    for (int i = 0; largest && largest[i]; i++) fprintf(stderr, "  %s\n", largest[i]);
    exit(1);
}

void cf_gen_check_memory(const char *program, uint64_t needed, uint64_t reserved, const char *const largest[]) {
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGE_SIZE);
    if (pages > 0 && page > 0 && needed > (uint64_t)pages * (uint64_t)page)
        refuse(program, "memory", needed, "this machine's physical memory", (uint64_t)pages * (uint64_t)page,
               largest);
    uint64_t cgroup = own_cgroup_limit();
    if (cgroup && needed > cgroup) refuse(program, "memory", needed, "memory its control group allows", cgroup, largest);
    static const struct {
        int resource;
        const char *name;
    } limits[] = {{RLIMIT_AS, "address space 'ulimit -v' allows"}, {RLIMIT_DATA, "data 'ulimit -d' allows"}};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        struct rlimit limit;
        if (getrlimit(limits[i].resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY &&
            reserved > (uint64_t)limit.rlim_cur)
            refuse(program, "address space for its buffers", reserved, limits[i].name, (uint64_t)limit.rlim_cur,
                   largest);
    }
}
