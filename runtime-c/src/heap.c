#include "cacheflow/heap.h"

#include "stats_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LINE 64

/* Every block starts with one cache line of header, so the payload is line-aligned and a remote free
 * (which writes only the header) never touches a line of anyone's data. */
typedef struct block {
    size_t size;                /* whole block, header included, multiple of LINE */
    struct cf_heap_local *owner;
    struct block *next;         /* free list (owner) or garbage list (remote pushers) */
    unsigned state;             /* atomic: BLOCK_USED / BLOCK_FREE / BLOCK_GARBAGE */
} block;
#define HEADER LINE
_Static_assert(sizeof(block) <= HEADER, "block header must fit one cache line");
#define MIN_SPLIT (HEADER + LINE) /* never leave a remainder too small to hold a payload line */

enum { BLOCK_FREE = 0x46524545u, BLOCK_USED = 0x55534544u, BLOCK_GARBAGE = 0x47415242u };

typedef struct chunk_run {
    size_t first, count;
} chunk_run;

struct cf_heap {
    char *region;
    size_t region_bytes, chunk_bytes, nchunks;
    pthread_mutex_t lock; /* the global allocator: taken only when a local heap needs chunks */
    uint64_t *chunk_used; /* bitmap */
    size_t chunks_in_use, locals;
};

struct cf_heap_local {
    /* Line 1: written by other cores (garbage pushes). */
    _Alignas(LINE) block *garbage;
    /* Line 2+: owner-only state, never written remotely. */
    _Alignas(LINE) cf_heap *heap;
    block *free_list; /* address-ordered, neighbours coalesced */
    size_t in_use;    /* atomic: remote frees do not change it, reclaim does */
    chunk_run *runs;
    size_t nruns, cap_runs;
};

/* ---- global allocator: first fit over a chunk bitmap ------------------------------------------- */

static int chunk_is_used(const cf_heap *h, size_t i) { return (h->chunk_used[i / 64] >> (i % 64)) & 1; }
static void chunk_mark(cf_heap *h, size_t i, int used) {
    if (used)
        h->chunk_used[i / 64] |= (uint64_t)1 << (i % 64);
    else
        h->chunk_used[i / 64] &= ~((uint64_t)1 << (i % 64));
}

static long global_take(cf_heap *h, size_t count) {
    long found = -1;
    pthread_mutex_lock(&h->lock);
    for (size_t start = 0, run = 0; start + count <= h->nchunks; ) {
        if (chunk_is_used(h, start + run)) {
            start += run + 1;
            run = 0;
        } else if (++run == count) {
            for (size_t i = 0; i < count; i++) chunk_mark(h, start + i, 1);
            h->chunks_in_use += count;
            found = (long)start;
            break;
        }
    }
    pthread_mutex_unlock(&h->lock);
    return found;
}

static void global_give_back(cf_heap *h, size_t first, size_t count) {
    pthread_mutex_lock(&h->lock);
    for (size_t i = 0; i < count; i++) chunk_mark(h, first + i, 0);
    h->chunks_in_use -= count;
    pthread_mutex_unlock(&h->lock);
}

int cf_heap_create(cf_heap **out, size_t region_bytes, size_t chunk_bytes) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (!out) return -EINVAL;
    *out = NULL;
    if (!chunk_bytes) chunk_bytes = CF_HEAP_DEFAULT_CHUNK;
    if (!region_bytes || chunk_bytes % page) return -EINVAL;
    size_t nchunks = region_bytes / chunk_bytes + (region_bytes % chunk_bytes != 0);
    if (nchunks > SIZE_MAX / chunk_bytes) return -ENOMEM;
    cf_heap *h = calloc(1, sizeof *h);
    if (!h) return -ENOMEM;
    /* NORESERVE: reserving address space costs nothing; pages are backed on first touch. The region
     * is reserved first so an impossible size fails before any metadata is sized from it. */
    h->region = mmap(NULL, nchunks * chunk_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
    h->chunk_used = h->region != MAP_FAILED ? calloc((nchunks + 63) / 64, sizeof *h->chunk_used) : NULL;
    if (!h->chunk_used || pthread_mutex_init(&h->lock, NULL) != 0) {
        if (h->region != MAP_FAILED) munmap(h->region, nchunks * chunk_bytes);
        free(h->chunk_used);
        free(h);
        return -ENOMEM;
    }
    h->region_bytes = nchunks * chunk_bytes;
    h->chunk_bytes = chunk_bytes;
    h->nchunks = nchunks;
    *out = h;
    return 0;
}

int cf_heap_destroy(cf_heap *h) {
    if (!h) return -EINVAL;
    pthread_mutex_lock(&h->lock);
    size_t locals = h->locals;
    pthread_mutex_unlock(&h->lock);
    if (locals) return -EBUSY;
    munmap(h->region, h->region_bytes);
    pthread_mutex_destroy(&h->lock);
    free(h->chunk_used);
    free(h);
    return 0;
}

void cf_heap_get_usage(const cf_heap *h, cf_heap_usage *out) {
    pthread_mutex_lock((pthread_mutex_t *)&h->lock);
    out->region_bytes = h->region_bytes;
    out->chunk_bytes = h->chunk_bytes;
    out->chunks_total = h->nchunks;
    out->chunks_in_use = h->chunks_in_use;
    out->locals = h->locals;
    pthread_mutex_unlock((pthread_mutex_t *)&h->lock);
}

/* ---- local heaps --------------------------------------------------------------------------------- */

int cf_heap_attach(cf_heap *h, cf_heap_local **out) {
    if (!h || !out) return -EINVAL;
    *out = NULL;
    cf_heap_local *l;
    if (posix_memalign((void **)&l, LINE, sizeof *l) != 0) return -ENOMEM;
    memset(l, 0, sizeof *l);
    l->heap = h;
    pthread_mutex_lock(&h->lock);
    h->locals++;
    pthread_mutex_unlock(&h->lock);
    *out = l;
    return 0;
}

/* Inserts b into the address-ordered free list, merging with physically adjacent free neighbours
 * (adjacent blocks of one owner may come from different chunks; merging them is still correct). */
static void free_list_insert(cf_heap_local *l, block *b) {
    __atomic_store_n(&b->state, BLOCK_FREE, __ATOMIC_RELAXED);
    block *prev = NULL, *cur = l->free_list;
    while (cur && cur < b) {
        prev = cur;
        cur = cur->next;
    }
    if (cur && (char *)b + b->size == (char *)cur) {
        b->size += cur->size;
        b->next = cur->next;
    } else {
        b->next = cur;
    }
    if (prev && (char *)prev + prev->size == (char *)b) {
        prev->size += b->size;
        prev->next = b->next;
    } else if (prev) {
        prev->next = b;
    } else {
        l->free_list = b;
    }
}

static block *first_fit(cf_heap_local *l, size_t need) {
    for (block **p = &l->free_list; *p; p = &(*p)->next) {
        block *b = *p;
        if (b->size < need) continue;
        if (b->size - need >= MIN_SPLIT) {
            block *rest = (block *)((char *)b + need);
            rest->size = b->size - need;
            rest->owner = l;
            rest->next = b->next;
            __atomic_store_n(&rest->state, BLOCK_FREE, __ATOMIC_RELAXED);
            b->size = need;
            *p = rest;
        } else {
            *p = b->next;
        }
        return b;
    }
    return NULL;
}

size_t cf_heap_reclaim(cf_heap_local *l) {
    if (!l) return 0;
    /* Taking the whole list at once avoids ABA: pushers only ever see an empty or a foreign head. */
    block *b = __atomic_exchange_n(&l->garbage, NULL, __ATOMIC_ACQUIRE);
    size_t n = 0;
    while (b) {
        block *next = b->next;
        __atomic_fetch_sub(&l->in_use, b->size, __ATOMIC_RELAXED);
        free_list_insert(l, b);
        b = next;
        n++;
    }
    return n;
}

static int grow(cf_heap_local *l, size_t need) {
    cf_heap *h = l->heap;
    size_t count = need / h->chunk_bytes + (need % h->chunk_bytes != 0);
    if (l->nruns == l->cap_runs) {
        size_t cap = l->cap_runs ? 2 * l->cap_runs : 8;
        chunk_run *runs = realloc(l->runs, cap * sizeof *runs);
        if (!runs) return -ENOMEM;
        l->runs = runs;
        l->cap_runs = cap;
    }
    long first = global_take(h, count);
    if (first < 0) return -ENOMEM;
    l->runs[l->nruns++] = (chunk_run){(size_t)first, count};
    block *b = (block *)(h->region + (size_t)first * h->chunk_bytes);
    b->size = count * h->chunk_bytes;
    b->owner = l;
    free_list_insert(l, b);
    return 0;
}

int cf_heap_alloc(cf_heap_local *l, size_t size, unsigned flags, void **out) {
    if (!l || !out) return -EINVAL;
    *out = NULL;
    if (!size || (flags & ~(unsigned)(CF_HEAP_TOUCH | CF_HEAP_ZERO))) return -EINVAL;
    if (size > l->heap->region_bytes) return -ENOMEM;
    size_t need = (size + HEADER + LINE - 1) & ~(size_t)(LINE - 1);
    block *b = first_fit(l, need);
    if (!b && cf_heap_reclaim(l)) b = first_fit(l, need);
    if (!b) {
        int rc = grow(l, need);
        if (rc) return rc;
        b = first_fit(l, need);
    }
    b->owner = l;
    b->next = NULL;
    __atomic_store_n(&b->state, BLOCK_USED, __ATOMIC_RELAXED);
    __atomic_fetch_add(&l->in_use, b->size, __ATOMIC_RELAXED);
    char *payload = (char *)b + HEADER;
    if (flags & CF_HEAP_ZERO) {
        memset(payload, 0, size);
    } else if (flags & CF_HEAP_TOUCH) {
        /* One store per page is enough for the kernel to back the page on this core's node. */
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        for (size_t off = 0; off < size; off += page) ((volatile char *)payload)[off] = 0;
        ((volatile char *)payload)[size - 1] = 0;
    }
    *out = payload;
    return 0;
}

int cf_heap_free(cf_heap *h, cf_heap_local *self, void *p) {
    if (!h || !p) return -EINVAL;
    char *c = p;
    if (c < h->region + HEADER || c >= h->region + h->region_bytes || ((uintptr_t)c & (LINE - 1))) return -EINVAL;
    block *b = (block *)(c - HEADER);
    unsigned expected = BLOCK_USED;
    cf_heap_local *owner = b->owner;
    if (owner == self) {
        if (__atomic_load_n(&b->state, __ATOMIC_RELAXED) != BLOCK_USED) return -EINVAL;
        __atomic_fetch_sub(&self->in_use, b->size, __ATOMIC_RELAXED);
        free_list_insert(self, b);
        return 0;
    }
    /* Remote free: claim the block first so a concurrent double free is refused, then push. */
    if (!__atomic_compare_exchange_n(&b->state, &expected, BLOCK_GARBAGE, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        return -EINVAL;
    block *head = __atomic_load_n(&owner->garbage, __ATOMIC_RELAXED);
    do {
        b->next = head;
    } while (!__atomic_compare_exchange_n(&owner->garbage, &head, b, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
    CF_STAT_ADD(heap_remote_frees, 1);
    return 0;
}

size_t cf_heap_local_in_use(const cf_heap_local *l) { return __atomic_load_n(&l->in_use, __ATOMIC_RELAXED); }

int cf_heap_detach(cf_heap_local *l) {
    if (!l) return -EINVAL;
    cf_heap_reclaim(l);
    if (__atomic_load_n(&l->in_use, __ATOMIC_RELAXED)) return -EBUSY;
    cf_heap *h = l->heap;
    for (size_t i = 0; i < l->nruns; i++) global_give_back(h, l->runs[i].first, l->runs[i].count);
    /* Give the memory back too: a later owner first-touches it afresh on its own core. */
    for (size_t i = 0; i < l->nruns; i++)
        madvise(h->region + l->runs[i].first * h->chunk_bytes, l->runs[i].count * h->chunk_bytes, MADV_DONTNEED);
    pthread_mutex_lock(&h->lock);
    h->locals--;
    pthread_mutex_unlock(&h->lock);
    free(l->runs);
    free(l);
    return 0;
}
