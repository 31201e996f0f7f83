/* Shared by the correctness programs in tests/: each is a small program, one feature each.
 * Exit code 77 means "skipped" (CTest SKIP_RETURN_CODE), e.g. a CPU feature is missing. */
#ifndef CF_TEST_HELPERS_H
#define CF_TEST_HELPERS_H
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CF_TEST_SKIP 77

#define CF_CHECK(cond)                                                              \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            exit(1);                                                                \
        }                                                                           \
    } while (0)

#define CF_SKIP(why)                                   \
    do {                                               \
        fprintf(stderr, "skipped: %s\n", (why));       \
        exit(CF_TEST_SKIP);                            \
    } while (0)

/* A stress program's scale: CF_TEST_SCALE=<percent> (default 100), a tenth of it under sanitizers. */
static inline double cf_test_scale(void) {
    double percent = 100;
    const char *env = getenv("CF_TEST_SCALE");
    if (env && atof(env) > 0) percent = atof(env);
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    percent /= 10;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
    percent /= 10;
#endif
#endif
    return percent / 100;
}

/* What `print(argument)` writes to stdout, read back from a temporary file standing in for it (NUL-terminated,
 * at most capacity - 1 bytes). */
static inline void cf_test_stdout_of(void (*print)(void *), void *argument, char *text, size_t capacity) {
    fflush(stdout);
    FILE *file = tmpfile();
    CF_CHECK(file != NULL);
    int out = dup(1);
    CF_CHECK(out >= 0 && dup2(fileno(file), 1) >= 0);
    print(argument);
    fflush(stdout);
    CF_CHECK(dup2(out, 1) >= 0);
    close(out);
    rewind(file);
    size_t got = fread(text, 1, capacity - 1, file);
    text[got] = '\0';
    fclose(file);
}

#endif
