/* cacheflow/profile.h: an "actor" that reads its first input, writes it too (an input declared read-only would be
 * wrong), writes only the first half of its output, and reads its second output before writing it, fired under each
 * mode in a child process of its own (the mode is read once per process); the JSON line each writes says so. The
 * pages mode runs unless a sanitizer that owns SIGSEGV (TSan) is in the build. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cacheflow/profile.h"
#include "helpers.h"

enum { PAGE = 4096, BYTES = 2 * PAGE };

static int checksum;

static void actor(unsigned char *in, unsigned char *out, unsigned char *again) {
    int sum = 0;
    for (int i = 0; i < BYTES; i++) sum += in[i];
    in[0] = (unsigned char)(in[0] + 1); /* writes its input */
    memset(out, 7, BYTES / 2);          /* half of its output */
    sum += again[100];                  /* reads before writing */
    memset(again, 1, BYTES);
    checksum += sum;
}

static void run(const char *mode, const char *path) {
    setenv("CF_PROFILE", mode, 1);
    setenv("CF_PROFILE_OUT", path, 1);
    /* page-aligned buffers of their own, as the runtime's heap gives */
    unsigned char *memory = mmap(NULL, 3 * BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CF_CHECK(memory != MAP_FAILED);
    cf_profile_port ports[] = {{"in", memory, BYTES, 1}, {"out", memory + BYTES, BYTES, 0},
                               {"again", memory + 2 * BYTES, BYTES, 0}};
    static cf_profile_site *site;
    for (int firing = 0; firing < 3; firing++) {
        cf_profile_begin(&site, 0, "Actor_0", "actor", 0, ports, 3);
        actor(memory, memory + BYTES, memory + 2 * BYTES);
        cf_profile_end(site, ports, 3);
    }
    cf_profile_write();
}

static char *read_all(const char *path) {
    static char text[8192];
    FILE *in = fopen(path, "r");
    CF_CHECK(in != NULL);
    size_t n = fread(text, 1, sizeof text - 1, in);
    text[n] = '\0';
    fclose(in);
    return text;
}

static char *profiled(const char *mode) {
    char path[] = "/tmp/cf_test_profile_XXXXXX";
    int fd = mkstemp(path);
    CF_CHECK(fd >= 0);
    close(fd);
    pid_t child = fork();
    CF_CHECK(child >= 0);
    if (child == 0) {
        run(mode, path);
        _exit(0);
    }
    int status = 0;
    CF_CHECK(waitpid(child, &status, 0) == child);
    CF_CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    char *text = read_all(path);
    unlink(path);
    return text;
}

static int tsan(void) {
#if defined(__SANITIZE_THREAD__)
    return 1;
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
    return 1;
#endif
#endif
    return 0;
}

int main(void) {
    if (sysconf(_SC_PAGESIZE) != PAGE) CF_SKIP("the test assumes 4 KiB pages");

    char *timed = profiled("time");
    CF_CHECK(strstr(timed, "\"mode\":\"time\"") != NULL);
    CF_CHECK(strstr(timed, "\"vertex\":\"Actor_0\"") != NULL);
    int commas = 0;
    for (char *ns = strstr(timed, "\"ns\":["); *ns != ']'; ns++) commas += *ns == ',';
    CF_CHECK(commas == 2); /* three firings timed */

    char *canary = profiled("canary");
    CF_CHECK(strstr(canary, "{\"name\":\"in\",\"input\":true,\"bytes\":8192,\"firings\":3,\"inplace\":false,"
                            "\"changedFirings\":3,\"changedBytes\":3}") != NULL);
    CF_CHECK(strstr(canary, "\"name\":\"out\",\"input\":false,\"bytes\":8192,\"firings\":3,\"inplace\":false,"
                            "\"writtenBytes\":12288,\"unwritten\":[[4096,8192]],\"unwrittenBytes\":4096") != NULL);
    CF_CHECK(strstr(canary, "\"unwritten\":[],\"unwrittenBytes\":0") != NULL); /* "again": all written */

    if (tsan()) {
        printf("pages mode skipped under TSan\n");
        return 0;
    }
    char *pages = profiled("pages");
    CF_CHECK(strstr(pages, "\"mode\":\"pages\"") != NULL);
    /* the input: both pages read, one stored to in each firing */
    CF_CHECK(strstr(pages, "\"changedBytes\":3,\"pageFirings\":3,\"storedFirings\":3,") != NULL);
    CF_CHECK(strstr(pages, "\"readBytes\":24576,\"touchedBytes\":24576}") != NULL);
#if defined(__x86_64__)
    /* out: written first; again: read first */
    CF_CHECK(strstr(pages, "\"unwrittenBytes\":4096,\"moreRanges\":false,\"pageFirings\":3,\"storedFirings\":0,"
                           "\"readFirstFirings\":0,\"readBytes\":0,\"touchedBytes\":12288}") != NULL);
    CF_CHECK(strstr(pages, "\"pageFirings\":3,\"storedFirings\":0,\"readFirstFirings\":3,") != NULL);
#endif
    return 0;
}
