/* Profiling of generated programs: see cacheflow/profile.h. A site's statistics are touched only by the core that
 * runs it; the list of sites is appended to under a mutex. In "pages" mode one thread runs the firings (the program
 * is generated for one core): the SIGSEGV handler reads the current firing's page table, which only that thread
 * writes outside the handler. */
#define _GNU_SOURCE
#include "cacheflow/profile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { MODE_OFF, MODE_TIME, MODE_CANARY, MODE_PAGES };

/* What a port's firings did, summed over them. */
typedef struct port_stats {
    const char *name;
    size_t bytes;
    int input;
    int inplace;               /* an output sharing bytes with an input of the same call: not filled */
    long firings;              /* firings measured (canary or pages mode) */
    long changed_firings;      /* inputs: firings after which the input differed from its copy */
    uint64_t changed_bytes;    /* inputs: bytes changed, summed */
    uint64_t written_bytes;    /* outputs: bytes no longer equal to the canary, summed */
    unsigned char *ever;       /* outputs: 1 for every byte some firing wrote */
    unsigned char *snapshot;   /* inputs: the copy taken before the firing */
    long page_firings;         /* firings measured with page protection */
    long stored_firings;       /* inputs: firings that stored to one of its pages */
    long read_first_firings;   /* outputs: firings whose first access to one of its pages was a read */
    uint64_t read_bytes;       /* bytes of the port on pages read, summed */
    uint64_t touched_bytes;    /* bytes of the port on pages accessed at all, summed */
    int f_stored, f_read_first;
    unsigned char f_canary;    /* this firing's canary: the run's, inverted in odd firings */
} port_stats;

struct cf_profile_site {
    struct cf_profile_site *next;
    int core;
    char *vertex;
    char *function;
    int init;
    long order; /* the first firing's rank among every site's first firings */
    int count;
    port_stats *ports;
    uint64_t *ns;
    long timed, capacity;
    struct timespec start;
};

static pthread_mutex_t sites_lock = PTHREAD_MUTEX_INITIALIZER;
static cf_profile_site *sites, **sites_tail = &sites;
static atomic_long next_order;
static int mode = -1;
static unsigned char canary = 0xa5;
static long page_size;
static int exact_faults; /* whether a fault tells read from write */

/* ---- pages mode: the current firing's protected pages, sorted ---- */

enum { ACC_READ = 1, ACC_WRITE = 2, ACC_FOREIGN = 4 };
typedef struct page_entry {
    uintptr_t page;
    int prot;
    int access;
} page_entry;
static page_entry *pages;
static size_t page_count, page_capacity;
static cf_profile_port *armed_ports; /* non-NULL while a firing runs with its pages protected */
static port_stats *armed_stats;
static int armed_count;
static struct sigaction previous_segv;

static void fail(const char *what) {
    fprintf(stderr, "cacheflow profile: %s: %s\n", what, strerror(errno));
    exit(3);
}

static void *allocate(size_t bytes) {
    void *p = calloc(1, bytes ? bytes : 1);
    if (!p) fail("out of memory");
    return p;
}

static page_entry *find_page(uintptr_t page) {
    size_t lo = 0, hi = page_count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pages[mid].page == page) return &pages[mid];
        if (pages[mid].page < page) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

/* 1 for a write, 0 for a read, -1 when the fault does not say. */
static int fault_is_write(void *context) {
#if defined(__x86_64__) && defined(REG_ERR)
    const ucontext_t *uc = context;
    return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
    (void)context;
    return -1;
#endif
}

static void on_fault(int signal, siginfo_t *info, void *context) {
    (void)signal;
    uintptr_t address = (uintptr_t)info->si_addr;
    page_entry *entry = armed_ports ? find_page(address & ~(uintptr_t)(page_size - 1)) : NULL;
    if (!entry || entry->prot == (PROT_READ | PROT_WRITE)) {
        /* not ours: the handler installed before reports it when the access faults again */
        sigaction(SIGSEGV, &previous_segv, NULL);
        return;
    }
    int write = entry->prot == PROT_READ ? 1 : fault_is_write(context);
    int owner = 0;
    for (int i = 0; i < armed_count; i++) {
        uintptr_t start = (uintptr_t)armed_ports[i].data;
        if (!armed_ports[i].data || address < start || address >= start + armed_ports[i].bytes) continue;
        owner = 1;
        if (write == 1 && armed_ports[i].input) armed_stats[i].f_stored = 1;
        if (write == 0 && !armed_ports[i].input && !(entry->access & ACC_WRITE)) armed_stats[i].f_read_first = 1;
    }
    int prot;
    if (!owner) {
        entry->access |= ACC_FOREIGN;
        prot = PROT_READ | PROT_WRITE;
    } else if (write == 1) {
        entry->access |= ACC_WRITE;
        prot = PROT_READ | PROT_WRITE;
    } else {
        entry->access |= ACC_READ;
        prot = PROT_READ; /* a write faults again */
    }
    entry->prot = prot;
    mprotect((void *)entry->page, (size_t)page_size, prot);
}

static int compare_pages(const void *a, const void *b) {
    uintptr_t x = ((const page_entry *)a)->page, y = ((const page_entry *)b)->page;
    return x < y ? -1 : x > y;
}

static void protect(port_stats *stats, cf_profile_port *ports, int count) {
    page_count = 0;
    for (int i = 0; i < count; i++) {
        if (!ports[i].data || !ports[i].bytes) continue;
        uintptr_t first = (uintptr_t)ports[i].data & ~(uintptr_t)(page_size - 1);
        uintptr_t end = (uintptr_t)ports[i].data + ports[i].bytes;
        for (uintptr_t p = first; p < end; p += (uintptr_t)page_size) {
            if (page_count == page_capacity) {
                page_capacity = page_capacity ? 2 * page_capacity : 256;
                pages = realloc(pages, page_capacity * sizeof *pages);
                if (!pages) fail("out of memory");
            }
            pages[page_count++] = (page_entry){p, PROT_NONE, 0};
        }
    }
    qsort(pages, page_count, sizeof *pages, compare_pages);
    size_t unique = 0;
    for (size_t i = 0; i < page_count; i++) {
        if (unique == 0 || pages[unique - 1].page != pages[i].page) pages[unique++] = pages[i];
    }
    page_count = unique;
    for (int i = 0; i < count; i++) stats[i].f_stored = stats[i].f_read_first = 0;
    armed_ports = ports;
    armed_stats = stats;
    armed_count = count;
    for (size_t i = 0; i < page_count; i++) {
        if (mprotect((void *)pages[i].page, (size_t)page_size, PROT_NONE) != 0) fail("mprotect");
    }
}

static uint64_t overlap(uintptr_t page, const cf_profile_port *port) {
    uintptr_t start = (uintptr_t)port->data, end = start + port->bytes;
    uintptr_t from = page > start ? page : start, to = page + (uintptr_t)page_size < end ? page + (uintptr_t)page_size : end;
    return to > from ? to - from : 0;
}

static void unprotect(port_stats *stats, cf_profile_port *ports, int count) {
    for (size_t i = 0; i < page_count; i++) {
        if (pages[i].prot != (PROT_READ | PROT_WRITE) &&
            mprotect((void *)pages[i].page, (size_t)page_size, PROT_READ | PROT_WRITE) != 0) {
            fail("mprotect");
        }
    }
    armed_ports = NULL;
    for (int i = 0; i < count; i++) {
        if (!ports[i].data) continue;
        port_stats *s = &stats[i];
        s->page_firings++;
        s->stored_firings += s->f_stored;
        if (exact_faults) s->read_first_firings += s->f_read_first;
        uintptr_t first = (uintptr_t)ports[i].data & ~(uintptr_t)(page_size - 1);
        for (uintptr_t p = first; p < (uintptr_t)ports[i].data + ports[i].bytes; p += (uintptr_t)page_size) {
            page_entry *entry = find_page(p);
            if (!entry || !entry->access) continue;
            s->touched_bytes += overlap(p, &ports[i]);
            if (entry->access & (ACC_READ | ACC_FOREIGN)) s->read_bytes += overlap(p, &ports[i]);
        }
    }
}

/* ---- set-up and output ---- */

static void write_at_exit(void) {
    cf_profile_write();
}

static void configure(void) {
    const char *what = getenv("CF_PROFILE");
    mode = !what || !*what ? MODE_OFF
         : strcmp(what, "time") == 0   ? MODE_TIME
         : strcmp(what, "canary") == 0 ? MODE_CANARY
         : strcmp(what, "pages") == 0  ? MODE_PAGES
                                       : MODE_OFF;
    if (what && *what && mode == MODE_OFF) {
        fprintf(stderr, "cacheflow profile: CF_PROFILE=%s: expected time, canary or pages\n", what);
        exit(2);
    }
    const char *value = getenv("CF_PROFILE_CANARY");
    if (value && *value) canary = (unsigned char)strtoul(value, NULL, 0);
    page_size = sysconf(_SC_PAGESIZE);
#if defined(__x86_64__) && defined(REG_ERR)
    exact_faults = 1;
#else
    exact_faults = 0;
#endif
    if (mode == MODE_PAGES) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = on_fault;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        if (sigaction(SIGSEGV, &action, &previous_segv) != 0) fail("sigaction");
    }
    if (mode != MODE_OFF) atexit(write_at_exit);
}

static cf_profile_site *create(int core, const char *vertex, const char *function, int init, cf_profile_port *ports,
                               int count) {
    cf_profile_site *site = allocate(sizeof *site);
    site->core = core;
    site->vertex = strdup(vertex);
    site->function = strdup(function);
    site->init = init;
    site->count = count;
    site->ports = allocate((size_t)count * sizeof *site->ports);
    for (int i = 0; i < count; i++) {
        port_stats *s = &site->ports[i];
        s->name = ports[i].name;
        s->bytes = ports[i].bytes;
        s->input = ports[i].input;
        if (mode >= MODE_CANARY && ports[i].data) {
            if (s->input) s->snapshot = allocate(s->bytes);
            else s->ever = allocate(s->bytes);
            for (int j = 0; j < count && !s->input; j++) {
                uintptr_t a = (uintptr_t)ports[i].data, b = (uintptr_t)ports[j].data;
                if (ports[j].input && ports[j].data && a < b + ports[j].bytes && b < a + ports[i].bytes) s->inplace = 1;
            }
        }
    }
    site->order = atomic_fetch_add(&next_order, 1);
    pthread_mutex_lock(&sites_lock);
    *sites_tail = site;
    sites_tail = &site->next;
    pthread_mutex_unlock(&sites_lock);
    return site;
}

void cf_profile_begin(cf_profile_site **slot, int core, const char *vertex, const char *function, int init,
                      cf_profile_port *ports, int count) {
    if (mode < 0) {
        pthread_mutex_lock(&sites_lock);
        if (mode < 0) configure();
        pthread_mutex_unlock(&sites_lock);
    }
    if (mode == MODE_OFF) return;
    if (!*slot) *slot = create(core, vertex, function, init, ports, count);
    cf_profile_site *site = *slot;
    if (mode >= MODE_CANARY) {
        for (int i = 0; i < count; i++) {
            port_stats *s = &site->ports[i];
            if (!ports[i].data) continue;
            s->f_canary = (s->firings & 1) ? (unsigned char)~canary : canary;
            if (s->input) memcpy(s->snapshot, ports[i].data, s->bytes);
            else if (!s->inplace) memset(ports[i].data, s->f_canary, s->bytes);
        }
        if (mode == MODE_PAGES) protect(site->ports, ports, count);
    }
    clock_gettime(CLOCK_MONOTONIC, &site->start);
}

void cf_profile_end(cf_profile_site *site, cf_profile_port *ports, int count) {
    if (!site) return;
    struct timespec end;
    clock_gettime(CLOCK_MONOTONIC, &end);
    if (mode == MODE_PAGES) unprotect(site->ports, ports, count);
    if (site->timed == site->capacity) {
        site->capacity = site->capacity ? 2 * site->capacity : 64;
        site->ns = realloc(site->ns, (size_t)site->capacity * sizeof *site->ns);
        if (!site->ns) fail("out of memory");
    }
    site->ns[site->timed++] = (uint64_t)((end.tv_sec - site->start.tv_sec) * 1000000000LL +
                                         (end.tv_nsec - site->start.tv_nsec));
    if (mode < MODE_CANARY) return;
    for (int i = 0; i < count; i++) {
        port_stats *s = &site->ports[i];
        if (!ports[i].data) continue;
        const unsigned char *data = ports[i].data;
        s->firings++;
        if (s->input) {
            uint64_t changed = 0;
            for (size_t b = 0; b < s->bytes; b++) changed += data[b] != s->snapshot[b];
            if (changed) s->changed_firings++;
            s->changed_bytes += changed;
        } else if (!s->inplace) {
            uint64_t written = 0;
            for (size_t b = 0; b < s->bytes; b++) {
                if (data[b] != s->f_canary) {
                    written++;
                    s->ever[b] = 1;
                }
            }
            s->written_bytes += written;
        }
    }
}

static void json_string(FILE *out, const char *text) {
    fputc('"', out);
    for (const char *c = text; *c; c++) {
        if (*c == '"' || *c == '\\') fprintf(out, "\\%c", *c);
        else if ((unsigned char)*c < 0x20) fprintf(out, "\\u%04x", *c);
        else fputc(*c, out);
    }
    fputc('"', out);
}

/* The byte ranges [from, to) of an output no firing wrote, at most 64 of them (then "more": true). */
static void unwritten(FILE *out, const port_stats *s) {
    uint64_t total = 0;
    int ranges = 0, more = 0;
    fprintf(out, ",\"unwritten\":[");
    for (size_t b = 0; b < s->bytes;) {
        if (s->ever[b]) {
            b++;
            continue;
        }
        size_t from = b;
        while (b < s->bytes && !s->ever[b]) b++;
        total += b - from;
        if (ranges < 64) fprintf(out, "%s[%zu,%zu]", ranges++ ? "," : "", from, b);
        else more = 1;
    }
    fprintf(out, "],\"unwrittenBytes\":%llu,\"moreRanges\":%s", (unsigned long long)total, more ? "true" : "false");
}

void cf_profile_write(void) {
    if (mode <= MODE_OFF) return;
    const char *path = getenv("CF_PROFILE_OUT");
    FILE *out = path && *path ? fopen(path, "w") : stderr;
    if (!out) fail(path);
    pthread_mutex_lock(&sites_lock);
    for (cf_profile_site *site = sites; site; site = site->next) {
        fprintf(out, "{\"mode\":\"%s\",\"canary\":%u,\"pageBytes\":%ld,\"exactFaults\":%s,\"core\":%d,\"order\":%ld,"
                     "\"vertex\":",
                mode == MODE_TIME ? "time" : mode == MODE_CANARY ? "canary" : "pages", canary, page_size,
                exact_faults ? "true" : "false", site->core, site->order);
        json_string(out, site->vertex);
        fprintf(out, ",\"function\":");
        json_string(out, site->function);
        fprintf(out, ",\"init\":%s,\"ns\":[", site->init ? "true" : "false");
        for (long i = 0; i < site->timed; i++) fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)site->ns[i]);
        fprintf(out, "],\"ports\":[");
        for (int i = 0; i < site->count; i++) {
            const port_stats *s = &site->ports[i];
            fprintf(out, "%s{\"name\":", i ? "," : "");
            json_string(out, s->name);
            fprintf(out, ",\"input\":%s,\"bytes\":%zu", s->input ? "true" : "false", s->bytes);
            if (mode >= MODE_CANARY) {
                fprintf(out, ",\"firings\":%ld,\"inplace\":%s", s->firings, s->inplace ? "true" : "false");
                if (s->input) {
                    fprintf(out, ",\"changedFirings\":%ld,\"changedBytes\":%llu", s->changed_firings,
                            (unsigned long long)s->changed_bytes);
                } else if (s->ever) {
                    fprintf(out, ",\"writtenBytes\":%llu", (unsigned long long)s->written_bytes);
                    unwritten(out, s);
                }
            }
            if (mode == MODE_PAGES) {
                fprintf(out, ",\"pageFirings\":%ld,\"storedFirings\":%ld,\"readFirstFirings\":%ld,\"readBytes\":%llu,"
                             "\"touchedBytes\":%llu",
                        s->page_firings, s->stored_firings, s->read_first_firings, (unsigned long long)s->read_bytes,
                        (unsigned long long)s->touched_bytes);
            }
            fputc('}', out);
        }
        fprintf(out, "]}\n");
    }
    pthread_mutex_unlock(&sites_lock);
    if (out != stderr) fclose(out);
    mode = MODE_OFF; /* once */
}
