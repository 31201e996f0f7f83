/* Shared by the correctness programs in tests/: each is a small program, one feature each.
 * Exit code 77 means "skipped" (CTest SKIP_RETURN_CODE), e.g. a CPU feature is missing. */
#ifndef CF_TEST_HELPERS_H
#define CF_TEST_HELPERS_H
#include <stdio.h>
#include <stdlib.h>

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

#endif
