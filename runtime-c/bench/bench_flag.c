/* Hand-off cost of the rdy-ack flags (cacheflow/flag.h) against what they replace in generated code, two
 * threads pinned to CPU 0 and 1, one-way time = round trip / 2 of a ping-pong:
 *   line       one cache line written alternately by the two threads (the floor of any hand-off)
 *   flag       a rdy flag homed at B and an ack flag homed at A, default spin budget (the waiter spins)
 *   flag-sleep the same with a spin budget of 1: every wait sleeps on the futex and every raise wakes
 *   semaphore  two POSIX semaphores (sem_post / sem_wait: the baseline's signalling)
 * Trials of the kinds are interleaved, each preceded by a line trial, so that a change of vCPU placement
 * (this VM's two vCPUs flip between "near" and "far") shows in the floor measured next to it; the table
 * gives the median of the trials (min-max) and each kind's median ratio to the floor of its own trial.
 * The flag's one-way figure is the hand-off cost the planner uses (MeasuredCosts.handoffNanos).
 *   bench_flag [--quick] [--csv FILE] */
#include "cf_bench_util.h"

#include <pthread.h>
#include <semaphore.h>

#include "arch/arch.h"
#include "cacheflow/flag.h"

enum kind { LINE, FLAG, FLAG_SLEEP, SEMAPHORE, KINDS };
static const char *const kind_names[KINDS] = {"line", "flag", "flag-sleep", "semaphore"};

typedef struct shared {
    cf_flag rdy; /* A -> B, homed at B */
    cf_flag ack; /* B -> A, homed at A */
    __attribute__((aligned(128))) uint64_t line;
    __attribute__((aligned(128))) sem_t ping, pong;
    enum kind kind;
    long rounds;
    pthread_barrier_t ready;
} shared;

static void *echo(void *arg) {
    shared *s = arg;
    bench_pin(1);
    if (s->kind == FLAG || s->kind == FLAG_SLEEP) cf_flag_init(&s->rdy, s->kind == FLAG_SLEEP ? 1 : 0, 0);
    pthread_barrier_wait(&s->ready);
    for (long i = 1; i <= s->rounds; i++) {
        switch (s->kind) {
        case LINE:
            while (__atomic_load_n(&s->line, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i - 1)) cf_arch_cpu_relax();
            __atomic_store_n(&s->line, (uint64_t)(2 * i), __ATOMIC_RELEASE);
            break;
        case FLAG:
        case FLAG_SLEEP:
            cf_flag_wait(&s->rdy, i);
            cf_flag_raise(&s->ack, i);
            break;
        default:
            while (sem_wait(&s->ping) != 0) {}
            sem_post(&s->pong);
        }
    }
    return NULL;
}

/* One trial: ns one-way. */
static double trial(enum kind kind, long rounds) {
    static shared s;
    memset(&s, 0, sizeof s);
    s.kind = kind;
    s.rounds = rounds;
    sem_init(&s.ping, 0, 0);
    sem_init(&s.pong, 0, 0);
    pthread_barrier_init(&s.ready, NULL, 2);
    if (kind == FLAG || kind == FLAG_SLEEP) cf_flag_init(&s.ack, kind == FLAG_SLEEP ? 1 : 0, 0);
    pthread_t thread;
    bench_spawn(&thread, echo, &s);
    pthread_barrier_wait(&s.ready);
    uint64_t start = bench_now_ns();
    for (long i = 1; i <= rounds; i++) {
        switch (kind) {
        case LINE:
            __atomic_store_n(&s.line, (uint64_t)(2 * i - 1), __ATOMIC_RELEASE);
            while (__atomic_load_n(&s.line, __ATOMIC_ACQUIRE) != (uint64_t)(2 * i)) cf_arch_cpu_relax();
            break;
        case FLAG:
        case FLAG_SLEEP:
            cf_flag_raise(&s.rdy, i);
            cf_flag_wait(&s.ack, i);
            break;
        default:
            sem_post(&s.ping);
            while (sem_wait(&s.pong) != 0) {}
        }
    }
    double ns = (double)(bench_now_ns() - start) / (2.0 * (double)rounds);
    pthread_join(thread, NULL);
    sem_destroy(&s.ping);
    sem_destroy(&s.pong);
    pthread_barrier_destroy(&s.ready);
    return ns;
}

static double trial_of(int kind, int quick) {
    long rounds = kind == LINE || kind == FLAG ? (quick ? 20000 : 100000) : (quick ? 500 : 2000);
    return trial((enum kind)kind, rounds);
}

int main(int argc, char **argv) {
    bench_opts o = bench_parse(argc, argv, "hand-off cost: line ping-pong floor, rdy-ack flags, semaphores",
                               "kind,metric,median,min,max,unit,trials");
    bench_pin(0);
    bench_floor_table(&o, KINDS, kind_names, "one-way ns", "one_way", trial_of);
    if (o.csv) fclose(o.csv);
    return 0;
}
