/* An idle channel endpoint sleeps in the kernel instead of spinning, is woken by the other side, and is
 * woken by cf_channel_close at tear-down:
 *   - a receiver blocked 200 ms on an empty channel uses little CPU time and counts a sleep;
 *   - a sender blocked 200 ms on a full channel, likewise;
 *   - a blocked receiver and a blocked sender return -EPIPE when the channel is closed. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "cacheflow/channel.h"
#include "cacheflow/stats.h"
#include "helpers.h"

#define IDLE_MS 200

typedef struct blocked_side {
    cf_channel *ch;
    int is_receiver;
    int rc;
    uint64_t value;
    double cpu_ms;   /* CPU time this thread used while blocked */
    double wall_ms;  /* time it was blocked */
    cf_stats stats;  /* its own counters */
    int started;
} blocked_side;

static double clock_ms(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

static void sleep_ms(int ms) {
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static void *blocked_main(void *arg) {
    blocked_side *side = arg;
    __atomic_store_n(&side->started, 1, __ATOMIC_RELEASE);
    double cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID), wall = clock_ms(CLOCK_MONOTONIC);
    if (side->is_receiver) {
        size_t len;
        side->rc = cf_channel_receive(side->ch, &side->value, sizeof side->value, &len);
    } else {
        side->rc = cf_channel_send(side->ch, &side->value, sizeof side->value);
    }
    side->cpu_ms = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu;
    side->wall_ms = clock_ms(CLOCK_MONOTONIC) - wall;
    cf_stats_thread(&side->stats);
    return NULL;
}

static cf_channel *make_channel(size_t slots) {
    cf_channel_options options = {.slots = slots, .max_message = 8};
    cf_channel *ch;
    CF_CHECK(cf_channel_create(&ch, &options) == 0);
    CF_CHECK(cf_channel_home_here(ch) == 0);
    return ch;
}

static void start(blocked_side *side, pthread_t *thread) {
    CF_CHECK(pthread_create(thread, NULL, blocked_main, side) == 0);
    while (!__atomic_load_n(&side->started, __ATOMIC_ACQUIRE)) sleep_ms(1);
}

/* The blocked thread must have slept: at most a quarter of the idle time on the CPU (the spin phase is
 * well under a millisecond natively; sanitizers and emulators inflate it, hence the generous bound). */
static void check_slept(const blocked_side *side, const char *what) {
    printf("%s: blocked %.1f ms, CPU %.2f ms, waits %llu, sleeps %llu\n", what, side->wall_ms, side->cpu_ms,
           (unsigned long long)side->stats.channel_waits, (unsigned long long)side->stats.channel_sleeps);
    CF_CHECK(side->wall_ms >= IDLE_MS * 0.9);
    CF_CHECK(side->stats.channel_waits >= 1);
    CF_CHECK(side->stats.channel_sleeps >= 1);
    CF_CHECK(side->cpu_ms < IDLE_MS / 4.0);
}

static void test_idle_receiver_sleeps(void) {
    cf_channel *ch = make_channel(4);
    blocked_side receiver = {.ch = ch, .is_receiver = 1};
    pthread_t thread;
    start(&receiver, &thread);
    sleep_ms(IDLE_MS);
    uint64_t value = 7;
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    CF_CHECK(pthread_join(thread, NULL) == 0);
    CF_CHECK(receiver.rc == 0 && receiver.value == 7);
    check_slept(&receiver, "idle receiver");
    cf_channel_destroy(ch);
}

static void test_blocked_sender_sleeps(void) {
    cf_channel *ch = make_channel(2);
    uint64_t value = 1;
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0);
    blocked_side sender = {.ch = ch, .is_receiver = 0, .value = 3};
    pthread_t thread;
    start(&sender, &thread);
    sleep_ms(IDLE_MS);
    size_t len;
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && value == 1); /* frees a slot */
    CF_CHECK(pthread_join(thread, NULL) == 0);
    CF_CHECK(sender.rc == 0);
    check_slept(&sender, "blocked sender");
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && value == 1);
    CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && value == 3);
    cf_channel_destroy(ch);
}

static void test_close_wakes(int receiver_side) {
    cf_channel *ch = make_channel(1);
    uint64_t value = 5;
    if (!receiver_side) CF_CHECK(cf_channel_send(ch, &value, sizeof value) == 0); /* now full */
    blocked_side side = {.ch = ch, .is_receiver = receiver_side};
    pthread_t thread;
    start(&side, &thread);
    sleep_ms(IDLE_MS / 2);
    cf_channel_close(ch);
    CF_CHECK(pthread_join(thread, NULL) == 0);
    printf("close woke the blocked %s after %.1f ms\n", receiver_side ? "receiver" : "sender", side.wall_ms);
    CF_CHECK(side.rc == -EPIPE);
    if (!receiver_side) {
        size_t len;
        CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == 0 && value == 5); /* still drained */
        CF_CHECK(cf_channel_receive(ch, &value, sizeof value, &len) == -EPIPE);
    }
    cf_channel_destroy(ch);
}

int main(void) {
    test_idle_receiver_sleeps();
    test_blocked_sender_sleeps();
    test_close_wakes(1);
    test_close_wakes(0);
    printf("channel sleep: ok\n");
    return 0;
}
