/* Dynamic parameters in generated programs: see cacheflow/dynparam.h. */
#include "cacheflow/dynparam.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Writes "v1, v2, ..." (with `separator` between values) of planned[0..count) into text, at most size bytes. */
static void list_values(char *text, size_t size, const long long *planned, int count, const char *separator) {
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < count && used < size; i++) {
        int n = snprintf(text + used, size - used, "%s%lld", i == 0 ? "" : separator, planned[i]);
        if (n < 0) {
            break;
        }
        used += (size_t)n;
    }
}

/* Stops the program: the message naming the actor, the parameter, the value, the iteration and the planned values,
 * then what to generate instead (`hint`). */
static void stop(const char *actor, const char *parameter, long long value, long iteration, const char *values,
                 const char *hint) {
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
            "generated for (planned: %s); %s\n",
            when, actor, parameter, value, values, hint);
    fflush(stderr);
    _exit(1);
}

int cf_gen_param_check(const char *actor, const char *parameter, long long value, long iteration,
                       const long long *planned, int count) {
    for (int i = 0; i < count; i++) {
        if (planned[i] == value) {
            return i;
        }
    }
    char values[256];
    list_values(values, sizeof values, planned, count, ", ");
    char hint[320];
    snprintf(hint, sizeof hint, "generate it for that value with --param %s=%lld", parameter, value);
    stop(actor, parameter, value, iteration, values, hint);
    return -1;
}

int cf_gen_variant_check(long iteration, int count, const char *const *actors, const char *const *parameters,
                         const long long *values, int variants, const long long *planned) {
    for (int p = 0; p < count; p++) {
        /* the parameter's planned values, each once, in the variants' order */
        long long column[CF_GEN_MAX_VARIANTS];
        int distinct = 0;
        int found = 0;
        for (int v = 0; v < variants && v < CF_GEN_MAX_VARIANTS; v++) {
            long long planned_value = planned[v * count + p];
            int seen = 0;
            for (int i = 0; i < distinct; i++) {
                seen |= column[i] == planned_value;
            }
            if (!seen) {
                column[distinct++] = planned_value;
            }
            found |= planned_value == values[p];
        }
        if (!found) {
            char listed[256];
            list_values(listed, sizeof listed, column, distinct, ", ");
            char given[256];
            list_values(given, sizeof given, column, distinct, ",");
            char hint[640];
            snprintf(hint, sizeof hint, "generate it with that value planned too, --param %s=%s,%lld", parameters[p],
                     given, values[p]);
            stop(actors[p], parameters[p], values[p], iteration, listed, hint);
        }
    }
    for (int v = 0; v < variants; v++) {
        int same = 1;
        for (int p = 0; p < count; p++) {
            same &= planned[v * count + p] == values[p];
        }
        if (same) {
            return v;
        }
    }
    /* every value planned, but not together (the planner plans every combination, so a program never gets here) */
    stop(actors[0], parameters[0], values[0], iteration, "not with the other parameters' values set",
         "generate it with every combination planned");
    return -1;
}
