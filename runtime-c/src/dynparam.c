/* Dynamic parameters in generated programs: see cacheflow/dynparam.h. */
#include "cacheflow/dynparam.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int cf_gen_param_check(const char *actor, const char *parameter, long long value, long iteration,
                       const long long *planned, int count) {
    for (int i = 0; i < count; i++) {
        if (planned[i] == value) {
            return i;
        }
    }
    char values[256];
    size_t used = 0;
    values[0] = '\0';
    for (int i = 0; i < count && used < sizeof values; i++) {
        int n = snprintf(values + used, sizeof values - used, "%s%lld", i == 0 ? "" : ", ", planned[i]);
        if (n < 0) {
            break;
        }
        used += (size_t)n;
    }
    char when[48];
    if (iteration < 0) {
        snprintf(when, sizeof when, "before the first iteration");
    } else {
        snprintf(when, sizeof when, "iteration %ld", iteration);
    }
    /* Other cores may be printing: hold stdout's lock, so that no line is left half-written, write out what they
     * printed, then end without exit()'s flush of every stream (it takes no lock and could cut another core's line). */
    flockfile(stdout);
    fflush(stdout);
    fprintf(stderr,
            "error: %s: configuration actor %s set dynamic parameter '%s' to %lld, which this program was not "
            "generated for (planned: %s); generate it for that value with --param %s=%lld\n",
            when, actor, parameter, value, values, parameter, value);
    fflush(stderr);
    _exit(1);
}
