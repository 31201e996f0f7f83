/* Profiling of generated programs (`cacheflow profile`): what each firing of an actor does with its ports, and how
 * long it takes, measured around the real actor code without root or hardware counters. Not in the umbrella
 * header: only programs generated for profiling call it.
 *
 * The environment chooses what a run measures (CF_PROFILE), nothing when it is unset:
 *  - "time": the firing's time only (CLOCK_MONOTONIC around the call);
 *  - "canary": before the firing, every output is filled with the byte CF_PROFILE_CANARY (default 0xa5; its
 *    inverse in a site's odd firings) and every input copied; after it, the inputs are compared with their copies
 *    (bytes the actor changed) and the outputs' bytes still equal to the canary are the ones it did not write
 *    (byte-exact; a byte is unwritten when no firing changed it: one written with the canary's value in every
 *    firing, the canary alternating, is all that could pass for unwritten, and a second run with another canary
 *    tells that apart too);
 *  - "pages": as "canary", and the ports' pages are protected (mprotect PROT_NONE) during the firing: the first access
 *    to each page faults, the handler (SIGSEGV) notes whether it was a read or a write (x86-64: the page-fault error
 *    code) and opens the page as far as that access needs, so that an output page read before any write, an input
 *    page written, and the pages read are seen (page granularity; ports sharing a page share its first access).
 *    One thread only: the protection is the process's.
 * At exit the program writes one JSON object per call site (a statement that fires an actor) to the file
 * CF_PROFILE_OUT (stderr when unset); `cacheflow profile` reads them. */
#ifndef CACHEFLOW_PROFILE_H
#define CACHEFLOW_PROFILE_H
#include <stddef.h>

/* One data argument of an actor call: where its tokens are and how many bytes the firing reads or writes. */
typedef struct cf_profile_port {
    const char *name;
    void *data;
    size_t bytes;
    int input; /* 1: an input port, 0: an output port */
} cf_profile_port;

/* A call site's statistics; *site is NULL before its first firing (a static of the generated code). */
typedef struct cf_profile_site cf_profile_site;

/* Before the firing: core and vertex name what fires (the vertex as the plan names it), init is 1 for an init
 * prototype's call. ports live until cf_profile_end. */
void cf_profile_begin(cf_profile_site **site, int core, const char *vertex, const char *function, int init,
                      cf_profile_port *ports, int count);
/* After the firing, with the same ports. */
void cf_profile_end(cf_profile_site *site, cf_profile_port *ports, int count);
/* Writes every site's statistics (called at exit; a test may call it earlier, once). */
void cf_profile_write(void);

#endif
