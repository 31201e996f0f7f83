#define _GNU_SOURCE
#include "cacheflow/cow.h"

#include "cacheflow/copy.h"
#include "cow_internal.h"
#include "stats_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* One part's producer state. Only that part's thread reads or writes it (the other parts learn what
 * they need from `parts_published` and `seq`), so plain accesses suffice; each part has a cache line
 * of its own so that the writers of different parts never write one line. */
typedef struct cow_part {
    int writing;        /* between write_begin_part and publish_part */
    uint64_t published; /* iterations this part has published: `seq`, or `seq` + 1 while the others
                           have not all published the current one */
} __attribute__((aligned(64))) cow_part;

struct cf_cow_buffer {
    size_t size;     /* as requested */
    size_t map_size; /* whole pages */
    cf_cow_mode mode;
    int fd;          /* memfd / shm object, or the cf_cow_file's; -1 with heap data */
    int own_fd;      /* 1: the buffer's own file, which destroy closes; 0: a cf_cow_file's, or none */
    int heap_data;   /* 1: data is heap memory (copy mode without a file); 0: a MAP_SHARED mapping of fd */
    size_t file_offset; /* where the buffer starts in the file (page multiple; 0 in a file of its own) */
    void *data;      /* producer's MAP_SHARED mapping, or heap memory in copy mode */
    unsigned writers; /* parts per iteration, >= 1 */
    cow_part *parts; /* [writers], 64-byte aligned */
    unsigned parts_published; /* parts published in the current, incomplete iteration (atomic) */
    uint64_t seq;    /* completed (published) iterations (atomic) */
    size_t pending;  /* views that owe a release of `seq` (atomic) */
    pthread_mutex_t lock; /* guards `views` and the completing publish against open/close */
    cf_cow_view *views;
    size_t nviews;
};

struct cf_cow_view {
    cf_cow_buffer *buf;
    cf_cow_view *next;
    void *data;      /* MAP_PRIVATE view of whole pages, or private heap copy in copy mode */
    size_t offset;   /* first byte of the buffer the view shows */
    size_t length;   /* bytes the view shows */
    size_t map_offset; /* first mapped byte of the buffer: offset rounded down to a page */
    size_t map_size; /* mapped bytes: whole pages covering [offset, offset + length) */
    uint64_t seen;   /* last iteration acquired (consumer thread only) */
    int held;        /* between acquire and release (consumer thread only) */
    int owes;        /* counted in buf->pending (atomic: set by publish, cleared by release/close) */
    int lazy_slot;   /* index into lazy_slots, or -1 */
    int broken;      /* re-sharing failed: the mapping no longer matches the buffer */
};

/* ---- platform helpers ---------------------------------------------------------------------- */

static unsigned injected_failures;
static int last_backing;

void cf_cow_inject_failures(unsigned failures) { __atomic_store_n(&injected_failures, failures, __ATOMIC_RELAXED); }
int cf_cow_last_backing(void) { return __atomic_load_n(&last_backing, __ATOMIC_RELAXED); }
static int injected(unsigned which) { return (__atomic_load_n(&injected_failures, __ATOMIC_RELAXED) & which) != 0; }

static size_t page_size(void) {
    static size_t cached;
    size_t p = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (!p) {
        p = (size_t)sysconf(_SC_PAGESIZE);
        __atomic_store_n(&cached, p, __ATOMIC_RELAXED);
    }
    return p;
}

static int open_memfd(void) {
    if (injected(CF_COW_FAIL_MEMFD)) {
        errno = ENOSYS;
        return -1;
    }
    return memfd_create("cacheflow-cow", MFD_CLOEXEC);
}

/* Fallback for kernels without memfd: a POSIX shared memory object, unlinked at once so it vanishes
 * with its last mapping and descriptor, exactly like a memfd. */
static int open_shm(void) {
    static unsigned counter;
    if (injected(CF_COW_FAIL_SHM_OPEN)) {
        errno = EACCES;
        return -1;
    }
    for (int attempt = 0; attempt < 16; attempt++) {
        char name[64];
        snprintf(name, sizeof name, "/cacheflow-%ld-%u", (long)getpid(), __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
        int fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd >= 0) {
            shm_unlink(name);
            return fd;
        }
        if (errno != EEXIST) return -1;
    }
    errno = EEXIST;
    return -1;
}

static void *map_or_fail(size_t len, int prot, int flags, int fd, off_t offset, unsigned failure) {
    if (injected(failure)) {
        errno = ENOMEM;
        return MAP_FAILED;
    }
    return mmap(NULL, len, prot, flags, fd, offset);
}

/* ---- lazy mode: write faults recorded by a SIGSEGV handler --------------------------------- */

/* The handler may run in any thread at any moment, so it reads only this static table, through
 * atomics, and calls only mprotect (async-signal-safe). A slot is published by storing `base` last. */
#define LAZY_SLOTS 256
static struct lazy_slot {
    uintptr_t base; /* 0 = free; atomic */
    size_t size;
    size_t *pages;   /* indices of pages made writable since the last release */
    size_t capacity;
    size_t count;    /* atomic; may exceed capacity, which means "re-share everything" */
    int claimed;     /* under lazy_lock */
} lazy_slots[LAZY_SLOTS];
static int lazy_slots_high; /* slots [0, high) may be in use; atomic */
static pthread_mutex_t lazy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous_segv;
static int handler_installed;

static void chain_to_previous(int sig, siginfo_t *info, void *context) {
    if (previous_segv.sa_flags & SA_SIGINFO) {
        previous_segv.sa_sigaction(sig, info, context);
    } else if (previous_segv.sa_handler == SIG_DFL || previous_segv.sa_handler == SIG_IGN) {
        /* Restore the default action; returning re-executes the faulting access, which now kills
         * the process the way it would have without us (core dump included). */
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGSEGV, &dfl, NULL);
    } else {
        previous_segv.sa_handler(sig);
    }
}

static void lazy_segv_handler(int sig, siginfo_t *info, void *context) {
    int saved_errno = errno;
    uintptr_t addr = (uintptr_t)info->si_addr;
    if (info->si_code == SEGV_ACCERR) {
        int high = __atomic_load_n(&lazy_slots_high, __ATOMIC_ACQUIRE);
        for (int i = 0; i < high; i++) {
            struct lazy_slot *s = &lazy_slots[i];
            uintptr_t base = __atomic_load_n(&s->base, __ATOMIC_ACQUIRE);
            if (!base || addr - base >= s->size) continue;
            uintptr_t page = addr & ~(uintptr_t)(page_size() - 1);
            if (mprotect((void *)page, page_size(), PROT_READ | PROT_WRITE) != 0) break;
            size_t n = __atomic_fetch_add(&s->count, 1, __ATOMIC_RELAXED);
            if (n < s->capacity) s->pages[n] = (page - base) / page_size();
            errno = saved_errno;
            return; /* the write is retried; the kernel now copies the page */
        }
    }
    errno = saved_errno;
    chain_to_previous(sig, info, context);
}

static int install_handler_locked(void) {
    if (handler_installed) return 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = lazy_segv_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGSEGV, &sa, &previous_segv) != 0) return -errno;
    handler_installed = 1;
    return 0;
}

static int lazy_slot_claim(void *base, size_t size, size_t npages) {
    size_t capacity = npages + 64; /* slack for threads racing on one page (duplicates) */
    size_t *pages = malloc(capacity * sizeof *pages);
    if (!pages) return -ENOMEM;
    pthread_mutex_lock(&lazy_lock);
    int rc = install_handler_locked();
    int slot = -ENOSPC;
    for (int i = 0; rc == 0 && i < LAZY_SLOTS; i++) {
        if (lazy_slots[i].claimed) continue;
        struct lazy_slot *s = &lazy_slots[i];
        s->claimed = 1;
        s->size = size;
        s->pages = pages;
        s->capacity = capacity;
        __atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&s->base, (uintptr_t)base, __ATOMIC_RELEASE);
        if (i >= __atomic_load_n(&lazy_slots_high, __ATOMIC_RELAXED))
            __atomic_store_n(&lazy_slots_high, i + 1, __ATOMIC_RELEASE);
        slot = i;
        break;
    }
    pthread_mutex_unlock(&lazy_lock);
    if (rc) slot = rc;
    if (slot < 0) free(pages);
    return slot;
}

static void lazy_slot_free(int slot) {
    struct lazy_slot *s = &lazy_slots[slot];
    __atomic_store_n(&s->base, 0, __ATOMIC_RELEASE);
    pthread_mutex_lock(&lazy_lock);
    free(s->pages);
    s->pages = NULL;
    s->claimed = 0;
    pthread_mutex_unlock(&lazy_lock);
}

static int cmp_size(const void *a, const void *b) {
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Drops the private copies of pages [first, first+count) of a view and gives them the protection
 * `prot` again. MADV_DONTNEED on a private file mapping discards the copied pages; the next access
 * maps the shared page again. Neither call can leave a hole in the mapping, unlike a MAP_FIXED
 * re-map that fails half-way. */
static int drop_pages(cf_cow_view *v, size_t first, size_t count, int reprotect) {
    char *start = (char *)v->data + first * page_size();
    size_t len = count * page_size();
    if (madvise(start, len, MADV_DONTNEED) != 0) return -errno;
    if (reprotect && mprotect(start, len, PROT_READ) != 0) return -errno;
    return 0;
}

static int reshare_lazy(cf_cow_view *v) {
    struct lazy_slot *s = &lazy_slots[v->lazy_slot];
    size_t npages = v->map_size / page_size();
    size_t count = __atomic_load_n(&s->count, __ATOMIC_RELAXED);
    if (!count) return 0;
    int rc = 0;
    size_t distinct = 0;
    if (count > s->capacity) {
        rc = drop_pages(v, 0, npages, 1);
        distinct = npages;
    } else {
        /* Sort so neighbouring written pages become one madvise/mprotect pair: the cost is in
         * proportion to the written pages (k log k), never to the buffer size. */
        qsort(s->pages, count, sizeof *s->pages, cmp_size);
        for (size_t i = 0; i < count && rc == 0;) {
            size_t first = s->pages[i], last = first;
            for (i++; i < count && s->pages[i] <= last + 1; i++) last = s->pages[i];
            distinct += last - first + 1;
            rc = drop_pages(v, first, last - first + 1, 1);
        }
    }
    __atomic_store_n(&s->count, 0, __ATOMIC_RELAXED);
    CF_STAT_ADD(cow_pages_faulted, distinct);
    CF_STAT_ADD(cow_pages_reshared, distinct);
    return rc;
}

/* ---- eager mode: written pages found in the page table ------------------------------------- */

#define PM_PRESENT (1ull << 63)
#define PM_FILE_OR_SHARED (1ull << 61)

static int pagemap_fd = -1;
static pthread_once_t pagemap_once = PTHREAD_ONCE_INIT;

/* pagemap's entry for the page at `addr`, or 0 when it cannot be read. */
static uint64_t pagemap_entry(const void *addr) {
    uint64_t entry = 0;
    off_t at = (off_t)((uintptr_t)addr / page_size() * sizeof entry);
    if (pread(pagemap_fd, &entry, sizeof entry, at) != (ssize_t)sizeof entry) return 0;
    return entry;
}

/* Opens pagemap if it describes this process's address space: a written anonymous page must read as
 * present and private, an untouched one as absent. A user-mode emulator running a 32-bit program on a
 * 64-bit host (qemu-arm) places the program's memory at an offset pagemap knows nothing of; there the
 * check fails and every page is re-shared, as when pagemap cannot be opened. */
static void open_pagemap(void) {
    pagemap_fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (pagemap_fd < 0) return;
    unsigned char *probe = mmap(NULL, 2 * page_size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int sane = 0;
    if (probe != MAP_FAILED) {
        probe[0] = 1;
        uint64_t written = pagemap_entry(probe), untouched = pagemap_entry(probe + page_size());
        sane = (written & PM_PRESENT) && !(written & PM_FILE_OR_SHARED) && !(untouched & PM_PRESENT);
        munmap(probe, 2 * page_size());
    }
    if (!sane) {
        close(pagemap_fd);
        pagemap_fd = -1;
    }
}

int cf_cow_pagemap_usable(void) {
    pthread_once(&pagemap_once, open_pagemap);
    return pagemap_fd >= 0;
}

/* A page the consumer wrote is the kernel's private anonymous copy: present, but no longer the
 * file's page. Reading pagemap costs 8 bytes per page of the view and touches no data. */
static int reshare_eager(cf_cow_view *v) {
    size_t npages = v->map_size / page_size();
    pthread_once(&pagemap_once, open_pagemap);
    if (pagemap_fd < 0 || injected(CF_COW_FAIL_PAGEMAP)) {
        int rc = drop_pages(v, 0, npages, 0);
        CF_STAT_ADD(cow_pages_reshared, npages);
        return rc;
    }
    uint64_t entries[512];
    size_t first_vpage = (uintptr_t)v->data / page_size();
    size_t run_start = 0, run_len = 0, written = 0;
    int rc = 0;
    for (size_t done = 0; done < npages && rc == 0;) {
        size_t batch = npages - done < 512 ? npages - done : 512;
        ssize_t got = pread(pagemap_fd, entries, batch * sizeof entries[0], (off_t)((first_vpage + done) * sizeof entries[0]));
        if (got != (ssize_t)(batch * sizeof entries[0])) {
            rc = drop_pages(v, 0, npages, 0); /* cannot tell: re-share everything */
            CF_STAT_ADD(cow_pages_reshared, npages);
            return rc;
        }
        for (size_t i = 0; i < batch; i++) {
            int private_copy = (entries[i] & PM_PRESENT) && !(entries[i] & PM_FILE_OR_SHARED);
            if (private_copy && run_len && run_start + run_len == done + i) {
                run_len++;
            } else if (private_copy) {
                if (run_len) rc = rc ? rc : drop_pages(v, run_start, run_len, 0);
                run_start = done + i;
                run_len = 1;
            }
            written += (size_t)private_copy;
        }
        done += batch;
    }
    if (run_len && rc == 0) rc = drop_pages(v, run_start, run_len, 0);
    CF_STAT_ADD(cow_pages_faulted, written);
    CF_STAT_ADD(cow_pages_reshared, written);
    return rc;
}

/* ---- shared files -------------------------------------------------------------------------- */

struct cf_cow_file {
    int fd;
    size_t size; /* whole pages */
};

/* A memfd, or a shm object where memfd is missing; -1 with errno set when neither can be opened. */
static int open_file(int *backing) {
    int fd = open_memfd();
    *backing = 1;
    if (fd < 0) {
        fd = open_shm();
        *backing = 2;
    }
    return fd;
}

size_t cf_cow_file_span(size_t size) { return (size + page_size() - 1) & ~(page_size() - 1); }

int cf_cow_file_create(cf_cow_file **out, size_t bytes) {
    if (!out) return -EINVAL;
    *out = NULL;
    size_t size = cf_cow_file_span(bytes);
    if (!bytes || size < bytes) return -EINVAL;
    cf_cow_file *f = calloc(1, sizeof *f);
    if (!f) return -ENOMEM;
    int backing;
    f->fd = open_file(&backing);
    f->size = size;
    if (f->fd < 0 || ftruncate(f->fd, (off_t)size) != 0) {
        int rc = -errno;
        if (f->fd >= 0) close(f->fd);
        free(f);
        return rc;
    }
    *out = f;
    return 0;
}

int cf_cow_file_destroy(cf_cow_file *f) {
    if (!f) return -EINVAL;
    close(f->fd);
    free(f);
    return 0;
}

/* ---- buffers ------------------------------------------------------------------------------- */

int cf_cow_create(cf_cow_buffer **out, size_t size, const cf_cow_config *config) {
    if (!out || !size) return -EINVAL;
    *out = NULL;
    cf_cow_mode mode = config ? config->mode : CF_COW_EAGER;
    size_t threshold = config && config->copy_threshold ? config->copy_threshold : CF_COW_DEFAULT_COPY_THRESHOLD;
    unsigned writers = config && config->writers ? config->writers : 1;
    if (mode != CF_COW_EAGER && mode != CF_COW_LAZY && mode != CF_COW_COPY) return -EINVAL;
    if (writers > CF_COW_MAX_WRITERS) return -EINVAL;
    if (size < threshold) mode = CF_COW_COPY;
    size_t map_size = cf_cow_file_span(size);
    if (map_size < size) return -EINVAL; /* overflow */
    cf_cow_file *file = config ? config->file : NULL;
    size_t file_offset = file ? config->file_offset : 0;
    if (file && (file_offset % page_size() != 0 || file_offset > file->size || map_size > file->size - file_offset))
        return -EINVAL;

    cf_cow_buffer *b = calloc(1, sizeof *b);
    if (!b) return -ENOMEM;
    b->size = size;
    b->map_size = map_size;
    b->mode = mode;
    b->fd = -1;
    b->writers = writers;
    void *parts = NULL;
    if (posix_memalign(&parts, 64, writers * sizeof *b->parts) != 0) {
        free(b);
        return -ENOMEM;
    }
    memset(parts, 0, writers * sizeof *b->parts);
    b->parts = parts;
    int rc = 0, backing = 0;
    /* copy mode keeps the bytes in heap memory, or in the file's pages when given one (its views' copies stay
     * private either way); sharing modes map a file, the buffer's own or the given one */
    b->heap_data = mode == CF_COW_COPY && !file;
    b->own_fd = !file && !b->heap_data;
    b->file_offset = file_offset;
    if (b->heap_data) {
        if (posix_memalign(&b->data, 64, map_size) != 0) rc = -ENOMEM;
    } else {
        b->fd = file ? file->fd : open_file(&backing);
        if (b->fd < 0) {
            rc = -errno;
        } else if (b->own_fd && ftruncate(b->fd, (off_t)map_size) != 0) {
            rc = -errno;
        } else {
            b->data = map_or_fail(map_size, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, (off_t)file_offset,
                                  CF_COW_FAIL_MAP_PRODUCER);
            if (b->data == MAP_FAILED) {
                b->data = NULL;
                rc = -errno;
            }
        }
    }
    if (rc == 0) rc = -pthread_mutex_init(&b->lock, NULL);
    if (rc) {
        if (b->heap_data) free(b->data);
        else if (b->data) munmap(b->data, map_size);
        if (b->own_fd && b->fd >= 0) close(b->fd);
        free(b->parts);
        free(b);
        return rc;
    }
    __atomic_store_n(&last_backing, backing, __ATOMIC_RELAXED);
    *out = b;
    return 0;
}

int cf_cow_destroy(cf_cow_buffer *b) {
    if (!b) return -EINVAL;
    pthread_mutex_lock(&b->lock);
    size_t nviews = b->nviews;
    pthread_mutex_unlock(&b->lock);
    if (nviews) return -EBUSY;
    pthread_mutex_destroy(&b->lock);
    if (b->heap_data) {
        free(b->data);
    } else {
        munmap(b->data, b->map_size);
        if (b->own_fd) close(b->fd);
    }
    free(b->parts);
    free(b);
    return 0;
}

cf_cow_mode cf_cow_buffer_mode(const cf_cow_buffer *b) { return b->mode; }
size_t cf_cow_size(const cf_cow_buffer *b) { return b->size; }
unsigned cf_cow_writers(const cf_cow_buffer *b) { return b->writers; }
size_t cf_cow_pending(const cf_cow_buffer *b) { return __atomic_load_n(&b->pending, __ATOMIC_ACQUIRE); }

/* ---- producers: one thread per part -------------------------------------------------------- */

/* An iteration is complete once all `writers` parts have published it; `seq` counts the complete ones,
 * so a part's `published` is `seq` (it may begin the next iteration) or `seq` + 1 (it published the
 * current one, which others are still writing). With one writer the part completes every iteration it
 * publishes, `published` always equals `seq`, and this is the single-producer protocol unchanged. */
int cf_cow_write_begin_part(cf_cow_buffer *b, unsigned part, void **data) {
    if (!b || !data || part >= b->writers) return -EINVAL;
    cow_part *p = &b->parts[part];
    if (p->writing) return -EALREADY;
    /* Acquire pairs with the release store of `seq` by the part that completed this part's last
     * iteration: every part's writes of that iteration, and what the completing part stored before
     * `seq` (`pending`, the reset of `parts_published`), are visible from here on. Hence the order of
     * the two checks: `pending` read before `seq` could be the previous iteration's 0 although the
     * completing publish had already set it to the views that now owe a release. */
    if (p->published != __atomic_load_n(&b->seq, __ATOMIC_ACQUIRE)) return -EBUSY;
    /* Acquire pairs with the consumers' release decrements: their reads happen before our writes. */
    if (__atomic_load_n(&b->pending, __ATOMIC_ACQUIRE) != 0) return -EBUSY;
    p->writing = 1;
    *data = b->data;
    return 0;
}

int cf_cow_publish_part(cf_cow_buffer *b, unsigned part) {
    if (!b || part >= b->writers || !b->parts[part].writing) return -EINVAL;
    cow_part *p = &b->parts[part];
    p->writing = 0;
    p->published++;
    /* acq_rel, and this RMW is the only thing every part does on shared memory: its release half
     * makes the part's writes of the iteration visible to whichever part completes the iteration, and
     * that part's acquire half takes them all, because each earlier part's increment heads a release
     * sequence that the later increments (RMWs) continue up to the completing one. The completing
     * part's release store of `seq` below then carries every part's writes to the views that load the
     * new `seq` with acquire, though no view synchronises with the other parts directly. A part that
     * does not complete the iteration is done: no lock, no system call. */
    unsigned done = __atomic_add_fetch(&b->parts_published, 1, __ATOMIC_ACQ_REL);
    if (done < b->writers) return 0;
    pthread_mutex_lock(&b->lock);
    for (cf_cow_view *v = b->views; v; v = v->next) __atomic_store_n(&v->owes, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&b->pending, b->nviews, __ATOMIC_RELAXED);
    /* No part can count into the next iteration yet: each must first see this one complete (the
     * acquire load of `seq` in write_begin_part), which the release store below orders after this
     * reset, so the next iteration's increments start from 0. */
    __atomic_store_n(&b->parts_published, 0, __ATOMIC_RELAXED);
    /* Release: the parts' writes and `pending` are visible to whoever sees the new seq. Only completing
     * publishes store `seq`, under the lock, so the relaxed load reads the last of them. */
    __atomic_store_n(&b->seq, __atomic_load_n(&b->seq, __ATOMIC_RELAXED) + 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&b->lock);
    return 0;
}

int cf_cow_write_begin(cf_cow_buffer *b, void **data) { return cf_cow_write_begin_part(b, 0, data); }

int cf_cow_publish(cf_cow_buffer *b) { return cf_cow_publish_part(b, 0); }

/* ---- views --------------------------------------------------------------------------------- */

int cf_cow_view_open(cf_cow_buffer *b, cf_cow_view **out) {
    if (!b) return -EINVAL;
    return cf_cow_view_open_range(b, 0, b->size, out);
}

int cf_cow_view_open_range(cf_cow_buffer *b, size_t offset, size_t length, cf_cow_view **out) {
    if (!b || !out) return -EINVAL;
    *out = NULL;
    if (!length || offset > b->size || length > b->size - offset) return -EINVAL;
    cf_cow_view *v = calloc(1, sizeof *v);
    if (!v) return -ENOMEM;
    v->buf = b;
    v->lazy_slot = -1;
    v->offset = offset;
    v->length = length;
    v->map_offset = offset & ~(page_size() - 1);
    v->map_size = ((offset + length + page_size() - 1) & ~(page_size() - 1)) - v->map_offset;
    if (b->mode == CF_COW_COPY) {
        if (posix_memalign(&v->data, 64, v->map_size) != 0) {
            free(v);
            return -ENOMEM;
        }
    } else {
        int prot = b->mode == CF_COW_LAZY ? PROT_READ : PROT_READ | PROT_WRITE;
        v->data = map_or_fail(v->map_size, prot, MAP_PRIVATE, b->fd, (off_t)(b->file_offset + v->map_offset),
                              CF_COW_FAIL_MAP_VIEW);
        if (v->data == MAP_FAILED) {
            int rc = -errno;
            free(v);
            return rc;
        }
        if (b->mode == CF_COW_LAZY) {
            v->lazy_slot = lazy_slot_claim(v->data, v->map_size, v->map_size / page_size());
            if (v->lazy_slot < 0) {
                int rc = v->lazy_slot;
                munmap(v->data, v->map_size);
                free(v);
                return rc;
            }
        }
    }
    pthread_mutex_lock(&b->lock);
    v->seen = __atomic_load_n(&b->seq, __ATOMIC_RELAXED); /* starts with the next publish */
    v->next = b->views;
    b->views = v;
    b->nviews++;
    pthread_mutex_unlock(&b->lock);
    *out = v;
    return 0;
}

static void settle_owed(cf_cow_view *v) {
    if (__atomic_exchange_n(&v->owes, 0, __ATOMIC_RELAXED))
        __atomic_fetch_sub(&v->buf->pending, 1, __ATOMIC_RELEASE);
}

int cf_cow_view_close(cf_cow_view *v) {
    if (!v) return -EINVAL;
    int rc = v->held ? cf_cow_release(v) : 0;
    cf_cow_buffer *b = v->buf;
    pthread_mutex_lock(&b->lock);
    for (cf_cow_view **p = &b->views; *p; p = &(*p)->next) {
        if (*p == v) {
            *p = v->next;
            break;
        }
    }
    b->nviews--;
    settle_owed(v); /* a view closed before acquiring the last iteration no longer blocks the producer */
    pthread_mutex_unlock(&b->lock);
    if (v->lazy_slot >= 0) lazy_slot_free(v->lazy_slot);
    if (b->mode == CF_COW_COPY)
        free(v->data);
    else
        munmap(v->data, v->map_size);
    free(v);
    return rc;
}

int cf_cow_acquire(cf_cow_view *v, void **data) {
    if (!v || !data) return -EINVAL;
    if (v->broken) return -EIO;
    if (v->held) return -EBUSY;
    uint64_t seq = __atomic_load_n(&v->buf->seq, __ATOMIC_ACQUIRE);
    if (seq == v->seen) return -EAGAIN;
    v->seen = seq;
    v->held = 1;
    size_t head = v->offset - v->map_offset;
    if (v->buf->mode == CF_COW_COPY)
        cf_copy((char *)v->data + head, (char *)v->buf->data + v->offset, v->length);
    else
        CF_STAT_ADD(cow_pages_shared, v->map_size / page_size());
    *data = (char *)v->data + head;
    return 0;
}

int cf_cow_release(cf_cow_view *v) {
    if (!v || !v->held) return -EINVAL;
    int rc = 0;
    if (v->buf->mode == CF_COW_LAZY)
        rc = reshare_lazy(v);
    else if (v->buf->mode == CF_COW_EAGER)
        rc = reshare_eager(v);
    if (rc) v->broken = 1;
    v->held = 0;
    settle_owed(v);
    return rc;
}
