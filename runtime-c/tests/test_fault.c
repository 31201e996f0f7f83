/* Generated programs that fail clearly (cacheflow/support.h): a crash names the actor, firing, iteration and core
 * that were running and the program dies with the signal; a program whose buffers' address space exceeds
 * RLIMIT_AS refuses to start. Each case runs in a child process whose stderr is read back. */
#include "helpers.h"

#include <cacheflow/support.h>

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* Runs `body` in a child with stderr to a file; returns the wait status, the child's stderr in `err`. */
static int in_child(void (*body)(void), char *err, size_t size) {
    char path[] = "/tmp/cf_test_fault_XXXXXX";
    int fd = mkstemp(path);
    CF_CHECK(fd >= 0);
    fflush(NULL);
    pid_t pid = fork();
    CF_CHECK(pid >= 0);
    if (pid == 0) {
        dup2(fd, STDERR_FILENO);
        body();
        _exit(0);
    }
    int status = 0;
    CF_CHECK(waitpid(pid, &status, 0) == pid);
    ssize_t n = pread(fd, err, size - 1, 0);
    err[n > 0 ? n : 0] = '\0';
    close(fd);
    unlink(path);
    return status;
}

static void crash_in_actor(void) {
    cf_gen_install_signals("prog", 1);
    cf_gen_core_is(3);
    cf_gen_firing_begins(3, "Filter_2 (top.pi:12)", 7, 2);
    raise(SIGFPE);
    cf_gen_firing_ends(3);
}

static void crash_between_actors(void) {
    cf_gen_install_signals("prog", 1);
    cf_gen_core_is(1);
    cf_gen_firing_begins(1, "Read_0 (top.pi:3)", 4, 0);
    cf_gen_firing_ends(1);
    raise(SIGBUS);
}

static void too_large(void) {
    struct rlimit limit = {64u << 20, 64u << 20};
    CF_CHECK(setrlimit(RLIMIT_AS, &limit) == 0);
    /* qemu-user keeps RLIMIT_AS for itself: the emulated program reads no limit */
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur != 64u << 20) _exit(CF_TEST_SKIP);
    static const char *const largest[] = {"buf3 1 GiB: A.out -> B.in", NULL};
    cf_gen_check_memory("prog", 1u << 20, 1u << 30, largest);
}

static void fits(void) {
    static const char *const largest[] = {NULL};
    cf_gen_check_memory("prog", 1u << 20, 64u << 20, largest);
}

static int sanitized(void) {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
    return 1;
#endif
#endif
    return 0;
}

int main(void) {
    char err[4096];
    int status = in_child(crash_in_actor, err, sizeof err);
    CF_CHECK(strstr(err, "prog: actor Filter_2 (top.pi:12) crashed in firing 2 of iteration 7 on core 3: SIGFPE") != NULL);
    /* a sanitizer's own handler, chained after the report, may end the program its way */
    CF_CHECK(sanitized() || (WIFSIGNALED(status) && WTERMSIG(status) == SIGFPE));

    status = in_child(crash_between_actors, err, sizeof err);
    CF_CHECK(strstr(err, "prog: core 1 crashed in the runtime, not in an actor (after actor Read_0 (top.pi:3), "
                         "iteration 4): SIGBUS") != NULL);
    CF_CHECK(sanitized() || (WIFSIGNALED(status) && WTERMSIG(status) == SIGBUS));

    if (!sanitized()) { /* sanitizers reserve terabytes of address space: no RLIMIT_AS under them */
        status = in_child(too_large, err, sizeof err);
        if (WIFEXITED(status) && WEXITSTATUS(status) == CF_TEST_SKIP) {
            printf("fault: RLIMIT_AS is not applied here (an emulator): the memory refusal is not checked\n");
        } else {
            CF_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 1);
            CF_CHECK(strstr(err, "prog: the program needs 1.0 GiB of address space for its buffers, more than the 64.0 MiB "
                             "of address space 'ulimit -v' allows; nothing was run. Largest buffers:\n"
                             "  buf3 1 GiB: A.out -> B.in\n") != NULL);
        }
    }
    status = in_child(fits, err, sizeof err);
    CF_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0 && err[0] == '\0');
    printf("fault: crash reports and the memory check: ok\n");
    return 0;
}
