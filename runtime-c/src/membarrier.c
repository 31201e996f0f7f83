/* See membarrier_internal.h. */
#define _GNU_SOURCE
#include "membarrier_internal.h"

#include <linux/membarrier.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

static int usable;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void registration(void) {
    long commands = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (commands < 0 || !(commands & MEMBARRIER_CMD_PRIVATE_EXPEDITED)) return;
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    /* One trial call: a filter could allow registration but not the command itself. */
    if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) != 0) return;
    usable = 1;
}

int cf_membarrier_usable(void) {
    pthread_once(&once, registration);
    return usable;
}
