/* Leak checks for tests: open descriptors and memory mappings of this process. */
#ifndef CF_TEST_FD_COUNT_H
#define CF_TEST_FD_COUNT_H
#include <dirent.h>
#include <stdio.h>

static int count_open_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) return -1;
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

#include <string.h>

/* Mappings of the runtime's shared-memory objects (memfd "cacheflow-cow", shm "/cacheflow-..."):
 * counting only these keeps the check exact under sanitizers, whose allocators map memory at will. */
static int count_mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f) return -1;
    static char line[4096];
    int n = 0;
    while (fgets(line, sizeof line, f)) n += strstr(line, "cacheflow") != NULL;
    fclose(f);
    return n;
}

#endif
