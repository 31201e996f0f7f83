/* The lazy mode's SIGSEGV handler handles write faults in lazy views only and passes every other
 * fault to the handler that was installed before it - whether that is a SA_SIGINFO handler (which
 * here repairs the fault) or the default action (which must still kill the process). */
#include "cacheflow/cow.h"
#include "helpers.h"

#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define SIZE (128 * 1024)

static char *trap_page;
static size_t page;
static volatile sig_atomic_t app_handler_calls;

/* The application's own handler: makes its trap page writable, refuses anything else. */
static void app_handler(int sig, siginfo_t *info, void *ctx) {
    (void)sig, (void)ctx;
    char *addr = info->si_addr;
    if (addr >= trap_page && addr < trap_page + page) {
        app_handler_calls++;
        mprotect(trap_page, page, PROT_READ | PROT_WRITE);
        return;
    }
    _exit(3);
}

static cf_cow_view *open_lazy_view(cf_cow_buffer **b, unsigned char **data) {
    cf_cow_config lazy = {CF_COW_LAZY, 1};
    cf_cow_view *v;
    void *prod;
    CF_CHECK(cf_cow_create(b, SIZE, &lazy) == 0);
    CF_CHECK(cf_cow_view_open(*b, &v) == 0);
    CF_CHECK(cf_cow_write_begin(*b, &prod) == 0);
    memset(prod, 7, SIZE);
    CF_CHECK(cf_cow_publish(*b) == 0);
    CF_CHECK(cf_cow_acquire(v, (void **)data) == 0);
    return v;
}

int main(void) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    trap_page = mmap(NULL, page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CF_CHECK(trap_page != MAP_FAILED);

    /* Default action: in a child with no handler of its own, a stray write must still crash. */
    pid_t child = fork();
    CF_CHECK(child >= 0);
    if (child == 0) {
        cf_cow_buffer *b;
        unsigned char *data;
        open_lazy_view(&b, &data);
        data[5] = 1;             /* handled by the runtime */
        *(volatile char *)trap_page = 1; /* not ours: default action */
        _exit(0);                /* reached only if the fault was swallowed */
    }
    int status;
    CF_CHECK(waitpid(child, &status, 0) == child);
    /* Killed by SIGSEGV; under a sanitizer its own handler reports and exits non-zero instead. */
    CF_CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV) || (WIFEXITED(status) && WEXITSTATUS(status) != 0));
    CF_CHECK(!(WIFEXITED(status) && WEXITSTATUS(status) == 3));

    /* The application's handler installed first. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = app_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    CF_CHECK(sigaction(SIGSEGV, &sa, NULL) == 0);

    cf_cow_buffer *b;
    unsigned char *data;
    cf_cow_view *v = open_lazy_view(&b, &data);
    void *prod;
    data[3 * page] = 42; /* the runtime's fault: the application's handler never sees it */
    CF_CHECK(app_handler_calls == 0);
    CF_CHECK(data[3 * page] == 42 && data[3 * page + 1] == 7);
    *(volatile char *)trap_page = 9; /* not a view: chained to the application's handler */
    CF_CHECK(app_handler_calls == 1 && trap_page[0] == 9);
    data[4 * page] = 43;
    CF_CHECK(app_handler_calls == 1);
    CF_CHECK(cf_cow_release(v) == 0);
    CF_CHECK(cf_cow_write_begin(b, &prod) == 0 && cf_cow_publish(b) == 0);
    CF_CHECK(cf_cow_acquire(v, (void **)&data) == 0);
    CF_CHECK(data[3 * page] == 7 && data[4 * page] == 7); /* re-shared */
    data[3 * page] = 44;                                   /* write-protected again: faults again */
    CF_CHECK(data[3 * page] == 44 && app_handler_calls == 1);
    CF_CHECK(cf_cow_view_close(v) == 0);
    CF_CHECK(cf_cow_destroy(b) == 0);
    printf("lazy handler chaining: ok\n");
    return 0;
}
