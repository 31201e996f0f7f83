#include "stats_internal.h"

#include <pthread.h>
#include <stddef.h>
#include <string.h>

_Thread_local cf_stats_slot cf_stats_tls;

/* Live threads' slots are linked here; an exiting thread folds its counts into `retired`. */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static cf_stats_slot *live_slots;
static cf_stats retired;
static int added_elsewhere; /* atomic: cf_stats_add was called (since the last reset) */
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

#define CF_STATS_FIELDS (sizeof(cf_stats) / sizeof(uint64_t))

static void load_counters(const cf_stats *src, uint64_t out[CF_STATS_FIELDS]) {
    const uint64_t *fields = (const uint64_t *)src;
    for (size_t i = 0; i < CF_STATS_FIELDS; i++) out[i] = __atomic_load_n(&fields[i], __ATOMIC_RELAXED);
}

static void add_into(cf_stats *sum, const uint64_t values[CF_STATS_FIELDS]) {
    uint64_t *fields = (uint64_t *)sum;
    for (size_t i = 0; i < CF_STATS_FIELDS; i++) fields[i] += values[i];
}

static void thread_exiting(void *slot_ptr) {
    cf_stats_slot *slot = slot_ptr;
    uint64_t values[CF_STATS_FIELDS];
    pthread_mutex_lock(&registry_lock);
    load_counters(&slot->counters, values);
    add_into(&retired, values);
    for (cf_stats_slot **p = &live_slots; *p; p = &(*p)->next) {
        if (*p == slot) {
            *p = slot->next;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
}

static void make_exit_key(void) { pthread_key_create(&exit_key, thread_exiting); }

void cf_stats_register_thread(void) {
    pthread_once(&exit_key_once, make_exit_key);
    pthread_mutex_lock(&registry_lock);
    cf_stats_tls.next = live_slots;
    live_slots = &cf_stats_tls;
    cf_stats_tls.registered = 1;
    pthread_mutex_unlock(&registry_lock);
    /* The destructor runs at thread exit only for a non-NULL value. */
    pthread_setspecific(exit_key, &cf_stats_tls);
}

void cf_stats_thread(cf_stats *out) {
    uint64_t values[CF_STATS_FIELDS];
    load_counters(&cf_stats_tls.counters, values);
    memcpy(out, values, sizeof *out);
}

void cf_stats_total(cf_stats *out) {
    uint64_t values[CF_STATS_FIELDS];
    pthread_mutex_lock(&registry_lock);
    *out = retired;
    for (cf_stats_slot *s = live_slots; s; s = s->next) {
        load_counters(&s->counters, values);
        add_into(out, values);
    }
    pthread_mutex_unlock(&registry_lock);
}

int cf_stats_added_elsewhere(void) { return __atomic_load_n(&added_elsewhere, __ATOMIC_RELAXED); }

void cf_stats_add(const cf_stats *counts) {
    if (!cf_stats_tls.registered) cf_stats_register_thread();
    __atomic_store_n(&added_elsewhere, 1, __ATOMIC_RELAXED);
    const uint64_t *values = (const uint64_t *)counts;
    uint64_t *fields = (uint64_t *)&cf_stats_tls.counters;
    for (size_t i = 0; i < CF_STATS_FIELDS; i++)
        __atomic_store_n(&fields[i], __atomic_load_n(&fields[i], __ATOMIC_RELAXED) + values[i], __ATOMIC_RELAXED);
}

void cf_stats_reset(void) {
    pthread_mutex_lock(&registry_lock);
    memset(&retired, 0, sizeof retired);
    __atomic_store_n(&added_elsewhere, 0, __ATOMIC_RELAXED);
    for (cf_stats_slot *s = live_slots; s; s = s->next) {
        uint64_t *fields = (uint64_t *)&s->counters;
        for (size_t i = 0; i < CF_STATS_FIELDS; i++) __atomic_store_n(&fields[i], 0, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&registry_lock);
}
