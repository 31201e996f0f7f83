/* cf_gen_variant_check: the variant of a tuple of dynamic parameter values among the planned rows; a value no row has
 * for its parameter stops the process (exit status 1) with a message naming the actor, the parameter, the value, the
 * iteration and the planned values. */
#include "cacheflow/dynparam.h"
#include "helpers.h"

#include <string.h>
#include <sys/wait.h>

static const char *const actors[] = {"Cfg", "Res"};
static const char *const parameters[] = {"branch", "width"};
/* branch in {0, 1} x width in {8, 16, 32}, the first parameter varying slowest (as the planner orders variants) */
static const long long planned[] = {0, 8, 0, 16, 0, 32, 1, 8, 1, 16, 1, 32};

/* Runs the check in a child for values, returns its exit status and what it wrote to stderr. */
static int stopped(const long long *values, char *text, size_t capacity) {
    int pipe_ends[2];
    CF_CHECK(pipe(pipe_ends) == 0);
    pid_t child = fork();
    CF_CHECK(child >= 0);
    if (child == 0) {
        dup2(pipe_ends[1], 2);
        cf_gen_variant_check(5, 2, actors, parameters, values, 6, planned);
        _exit(0);
    }
    close(pipe_ends[1]);
    size_t got = 0;
    ssize_t n;
    while (got < capacity - 1 && (n = read(pipe_ends[0], text + got, capacity - 1 - got)) > 0) {
        got += (size_t)n;
    }
    text[got] = '\0';
    close(pipe_ends[0]);
    int status = 0;
    CF_CHECK(waitpid(child, &status, 0) == child);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int main(void) {
    for (int v = 0; v < 6; v++) {
        CF_CHECK(cf_gen_variant_check(v, 2, actors, parameters, &planned[2 * v], 6, planned) == v);
    }
    char text[1024];
    const long long width = 24;
    const long long outside_width[] = {1, width};
    CF_CHECK(stopped(outside_width, text, sizeof text) == 1);
    CF_CHECK(strstr(text, "error: iteration 5: configuration actor Res set dynamic parameter 'width' to 24, which this "
                          "program was not generated for (planned: 8, 16, 32); generate it with that value planned "
                          "too, --param width=8,16,32,24\n") != NULL);
    const long long outside_branch[] = {2, 8};
    CF_CHECK(stopped(outside_branch, text, sizeof text) == 1);
    CF_CHECK(strstr(text, "configuration actor Cfg set dynamic parameter 'branch' to 2") != NULL);
    CF_CHECK(strstr(text, "(planned: 0, 1); generate it with that value planned too, --param branch=0,1,2\n") != NULL);
    /* the one-value program's check: the index, or the stop with its own advice */
    const long long one[] = {16};
    CF_CHECK(cf_gen_param_check("Res", "width", 16, 0, one, 1) == 0);
    return 0;
}
