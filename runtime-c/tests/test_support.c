/* The support of generated programs (cacheflow/support.h): MD5 against RFC 1321's test suite (whole and in
 * pieces across block boundaries), the combined digest of several parts, the command line, the agreement on
 * preesmStopThreads, the checked channel and copy-on-write-free helpers, semaphores and barriers, threads, and
 * the synthetic bodies' building blocks (deterministic, sensitive to every input). */
#include "cacheflow/support.h"
#include "support_internal.h"
#include "helpers.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void hex(const uint8_t digest[16], char out[33]) {
    for (int i = 0; i < 16; i++) snprintf(out + 2 * i, 3, "%02x", digest[i]);
}

static void md5_of(const char *text, size_t piece, char out[33]) {
    cf_md5 md5;
    cf_md5_init(&md5);
    size_t n = strlen(text);
    for (size_t at = 0; at < n; at += piece) cf_md5_update(&md5, text + at, n - at < piece ? n - at : piece);
    uint8_t digest[16];
    cf_md5_final(&md5, digest);
    hex(digest, out);
}

/* RFC 1321, appendix A.5. */
static void md5_test_suite(void) {
    static const char *const cases[][2] = {
        {"", "d41d8cd98f00b204e9800998ecf8427e"},
        {"a", "0cc175b9c0f1b6a831c399e269772661"},
        {"abc", "900150983cd24fb0d6963f7d28e17f72"},
        {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
        {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
        {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
        {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
         "57edf4a22be3c955ac49da2e2107b67a"},
    };
    static const size_t pieces[] = {1, 3, 7, 63, 64, 65, 1000};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
            char got[33];
            md5_of(cases[c][0], pieces[p], got);
            if (strcmp(got, cases[c][1]) != 0) {
                fprintf(stderr, "MD5(\"%s\") in pieces of %zu: %s, expected %s\n", cases[c][0], pieces[p], got,
                        cases[c][1]);
                exit(1);
            }
        }
    }
}

/* What cf_gen_print_digest prints, captured from stdout. */
static void printed_digest(const char *label, cf_md5 *parts, int count, char *out, size_t size) {
    fflush(stdout);
    FILE *capture = tmpfile();
    CF_CHECK(capture != NULL);
    int saved = dup(fileno(stdout));
    CF_CHECK(saved >= 0 && dup2(fileno(capture), fileno(stdout)) >= 0);
    cf_gen_print_digest(label, parts, count);
    fflush(stdout);
    CF_CHECK(dup2(saved, fileno(stdout)) >= 0);
    close(saved);
    rewind(capture);
    size_t n = fread(out, 1, size - 1, capture);
    out[n] = '\0';
    fclose(capture);
}

static void digest_of_parts(void) {
    char text[128];
    cf_md5 one;
    cf_md5_init(&one);
    cf_md5_update(&one, "abc", 3);
    printed_digest("sink", &one, 1, text, sizeof text);
    CF_CHECK(strcmp(text, "sink : 900150983cd24fb0d6963f7d28e17f72\n") == 0);
    /* two parts: the MD5 of the parts' digests in order (here MD5("a") then MD5("")) */
    cf_md5 parts[2];
    cf_md5_init(&parts[0]);
    cf_md5_update(&parts[0], "a", 1);
    cf_md5_init(&parts[1]);
    printed_digest("two", parts, 2, text, sizeof text);
    static const uint8_t digests[32] = {0x0c, 0xc1, 0x75, 0xb9, 0xc0, 0xf1, 0xb6, 0xa8, 0x31, 0xc3, 0x99,
                                        0xe2, 0x69, 0x77, 0x26, 0x61, 0xd4, 0x1d, 0x8c, 0xd9, 0x8f, 0x00,
                                        0xb2, 0x04, 0xe9, 0x80, 0x09, 0x98, 0xec, 0xf8, 0x42, 0x7e};
    cf_md5 outer;
    cf_md5_init(&outer);
    cf_md5_update(&outer, digests, sizeof digests);
    uint8_t digest[16];
    cf_md5_final(&outer, digest);
    char expected[64] = "two : ";
    hex(digest, expected + strlen(expected));
    strcat(expected, "\n");
    CF_CHECK(strcmp(text, expected) == 0);
}

static int parse(long iterations, cf_gen_options *options, const char *a, const char *b) {
    char *argv[] = {"prog", (char *)a, (char *)b, NULL};
    int argc = 1 + (a != NULL) + (b != NULL);
    /* usage and help are printed: keep the test's output short */
    fflush(stdout);
    fflush(stderr);
    int out = dup(1), err = dup(2), null = open("/dev/null", O_WRONLY);
    CF_CHECK(out >= 0 && err >= 0 && null >= 0 && dup2(null, 1) >= 0 && dup2(null, 2) >= 0);
    int rc = cf_gen_parse_arguments(argc, argv, "prog", iterations, options);
    fflush(stdout);
    fflush(stderr);
    CF_CHECK(dup2(out, 1) >= 0 && dup2(err, 2) >= 0);
    close(out);
    close(err);
    close(null);
    return rc;
}

static void command_line(void) {
    cf_gen_options o;
    unsetenv("CACHEFLOW_NO_PIN");
    CF_CHECK(parse(7, &o, NULL, NULL) == 0 && o.iterations == 7 && !o.validate && o.pin);
    CF_CHECK(parse(7, &o, "--iterations", "12") == 0 && o.iterations == 12);
    CF_CHECK(parse(7, &o, "--validate", "--no-pin") == 0 && o.validate && !o.pin && o.iterations == 7);
    CF_CHECK(parse(7, &o, "--iterations", "-1") == 2);
    CF_CHECK(parse(7, &o, "--iterations", "3x") == 2);
    CF_CHECK(parse(7, &o, "--bogus", NULL) == 2);
    CF_CHECK(parse(7, &o, "--help", NULL) == 1);
    setenv("CACHEFLOW_NO_PIN", "1", 1);
    CF_CHECK(parse(7, &o, NULL, NULL) == 0 && !o.pin);
    setenv("CACHEFLOW_NO_PIN", "0", 1);
    CF_CHECK(parse(7, &o, NULL, NULL) == 0 && o.pin);
    unsetenv("CACHEFLOW_NO_PIN");
}

/* Two cores at iterations 4 and 5 when core 0's actor sets the flag: both stop after iteration 5. */
static void stop_agreement(void) {
    CF_CHECK(cf_gen_iterations_run(10) == 10);
    CF_CHECK(cf_gen_keep_running(0, 4) && cf_gen_keep_running(1, 5));
    cf_gen_check_stop();
    CF_CHECK(cf_gen_iterations_run(10) == 10);
    preesmStopThreads = 1;
    cf_gen_check_stop();
    CF_CHECK(cf_gen_keep_running(0, 5) && !cf_gen_keep_running(0, 6) && !cf_gen_keep_running(1, 6));
    CF_CHECK(cf_gen_iterations_run(10) == 6 && cf_gen_iterations_run(3) == 3);
}

/* Pipelined loops: before a stop every pass runs and a vertex's iterations end where asked; after the stop agreed in
 * stop_agreement (last 5), a loop with skew 2 drains up to pass 7 and its vertices fire for iterations up to 5. */
static void pipelined_before_stop(void) {
    CF_CHECK(cf_gen_iteration_end(10) == 10);
    CF_CHECK(cf_gen_keep_running_pipelined(0, 3, 2) && cf_gen_keep_running_pipelined(1, 0, 1));
    CF_CHECK(cf_gen_iteration_end(10) == 10);
}

static void pipelined_after_stop(void) {
    CF_CHECK(cf_gen_keep_running_pipelined(0, 6, 2) && cf_gen_keep_running_pipelined(1, 7, 2));
    CF_CHECK(!cf_gen_keep_running_pipelined(0, 8, 2) && !cf_gen_keep_running_pipelined(1, 8, 2));
    CF_CHECK(cf_gen_keep_running_pipelined(0, 5, 0) && !cf_gen_keep_running_pipelined(0, 6, 0));
    CF_CHECK(cf_gen_iteration_end(10) == 6 && cf_gen_iteration_end(4) == 4);
    CF_CHECK(cf_gen_iterations_run(10) == 6);
}

static void channel_and_heap(void) {
    cf_channel *channel;
    cf_channel_options options = {.slots = 2, .max_message = 16};
    cf_gen_check(cf_channel_create(&channel, &options), "cf_channel_create");
    cf_gen_check(cf_channel_home_here(channel), "cf_channel_home_here");
    cf_gen_prime(channel, 16, "prime");
    uint8_t *slot = cf_gen_reserve(channel, "reserve");
    memset(slot, 0xab, 16);
    cf_gen_commit(channel, 16, "commit");
    uint8_t *message = cf_gen_acquire(channel, "acquire");
    for (int i = 0; i < 16; i++) CF_CHECK(message[i] == 0);
    cf_gen_release(channel, "release");
    message = cf_gen_acquire(channel, "acquire");
    for (int i = 0; i < 16; i++) CF_CHECK(message[i] == 0xab);
    cf_gen_release(channel, "release");
    cf_channel_destroy(channel);

    cf_heap *heap;
    cf_heap_local *local;
    cf_gen_check(cf_heap_create(&heap, 1 << 22, 1 << 16), "cf_heap_create");
    cf_gen_check(cf_heap_attach(heap, &local), "cf_heap_attach");
    uint8_t *block = cf_gen_alloc(local, 1000, "alloc");
    for (int i = 0; i < 1000; i++) CF_CHECK(block[i] == 0);
    cf_gen_check(cf_heap_free(heap, local, block), "cf_heap_free");
    cf_gen_check(cf_heap_detach(local), "cf_heap_detach");
    cf_gen_check(cf_heap_destroy(heap), "cf_heap_destroy");
    cf_gen_check(0, "nothing"); /* not negative: returns */
}

static sem_t ready;
static pthread_barrier_t barrier;
static int seen[3];

static void *core0(void *argument) {
    (void)argument;
    seen[0] = 1;
    cf_gen_sem_post(&ready);
    cf_gen_barrier_wait(&barrier);
    return NULL;
}

static void *core1(void *argument) {
    (void)argument;
    cf_gen_sem_wait(&ready);
    seen[1] = seen[0] + 1;
    cf_gen_barrier_wait(&barrier);
    return NULL;
}

static void *core2(void *argument) {
    (void)argument;
    cf_gen_barrier_wait(&barrier);
    seen[2] = 1;
    return NULL;
}

static void threads(void) {
    CF_CHECK(sem_init(&ready, 0, 0) == 0);
    CF_CHECK(pthread_barrier_init(&barrier, NULL, 3) == 0);
    void *(*const cores[])(void *) = {core0, core1, core2};
    for (int pin = 0; pin <= 1; pin++) {
        memset(seen, 0, sizeof seen);
        double seconds = cf_gen_run_cores(cores, 3, pin);
        CF_CHECK(seconds >= 0 && seen[0] == 1 && seen[1] == 2 && seen[2] == 1);
    }
    pthread_barrier_destroy(&barrier);
    sem_destroy(&ready);
}

/* CF_SEM_SPIN: cf_gen_sem_wait spins (trying the semaphore) before sleeping; the threads above still meet. */
static void semaphore_spin(void) {
    CF_CHECK(setenv("CF_SEM_SPIN", "not a number", 1) == 0);
    cf_gen_sem_spin_reload();
    CF_CHECK(cf_gen_sem_spin() == 0);
    CF_CHECK(setenv("CF_SEM_SPIN", "1000000000", 1) == 0); /* below LONG_MAX / 2 with a 32-bit long too */
    cf_gen_sem_spin_reload();
    CF_CHECK(cf_gen_sem_spin() == 1000000000L);
    threads(); /* core 1 spins in cf_gen_sem_wait until core 0 posts */
    sem_t posted;
    CF_CHECK(sem_init(&posted, 0, 2) == 0);
    cf_gen_sem_wait(&posted); /* taken by the first try */
    cf_gen_sem_wait(&posted);
    CF_CHECK(sem_trywait(&posted) != 0);
    sem_destroy(&posted);
    CF_CHECK(unsetenv("CF_SEM_SPIN") == 0);
    cf_gen_sem_spin_reload();
    CF_CHECK(cf_gen_sem_spin() == 0);
}

static void synthetic_bodies(void) {
    uint64_t seed = cf_synth_seed(3, 10, 2);
    CF_CHECK(seed == cf_synth_seed(3, 10, 2));
    CF_CHECK(seed != cf_synth_seed(4, 10, 2) && seed != cf_synth_seed(3, 11, 2) && seed != cf_synth_seed(3, 10, 1));
    CF_CHECK(cf_synth_mix(seed, 1) != cf_synth_mix(seed, 2) && cf_synth_mix(seed, 1) == cf_synth_mix(seed, 1));
    uint8_t data[37];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (uint8_t)i;
    uint64_t absorbed = cf_synth_absorb(seed, data, sizeof data);
    CF_CHECK(absorbed == cf_synth_absorb(seed, data, sizeof data) && absorbed != seed);
    for (size_t i = 0; i < sizeof data; i++) { /* every byte, the last partial word's too, counts */
        data[i] ^= 1;
        CF_CHECK(cf_synth_absorb(seed, data, sizeof data) != absorbed);
        data[i] ^= 1;
    }
    uint8_t a[37], b[37], c[37];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    memset(c, 0, sizeof c);
    cf_synth_fill(a, sizeof a, seed, 0);
    cf_synth_fill(b, sizeof b, seed, 0);
    cf_synth_fill(c, sizeof c, seed, 1);
    CF_CHECK(memcmp(a, b, sizeof a) == 0 && memcmp(a, c, sizeof a) != 0);
    int nonzero = 0;
    for (size_t i = 0; i < sizeof a; i++) nonzero += a[i] != 0;
    CF_CHECK(nonzero > (int)sizeof a / 2);
    memcpy(c, a, sizeof a);
    cf_synth_scribble(c, sizeof c, seed);
    CF_CHECK(memcmp(a, c, sizeof a) != 0);
    uint8_t guard[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    cf_synth_fill(guard, 3, seed, 0); /* writes only the bytes asked for */
    CF_CHECK(guard[3] == 4 && guard[7] == 8);
}

int main(void) {
    md5_test_suite();
    digest_of_parts();
    command_line();
    pipelined_before_stop();
    stop_agreement();
    pipelined_after_stop();
    channel_and_heap();
    threads();
    semaphore_spin();
    synthetic_bodies();
    return 0;
}
