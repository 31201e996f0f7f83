/* Hierarchical shared-memory allocator (after the LPEL/SCC allocator of Prescher et al.): a global
 * allocator hands out large chunks of one reserved region; each core (worker thread) manages its
 * chunks with a local first-fit free list and no lock. A block freed by another core is pushed onto
 * its owner's garbage list (lock-free) and reclaimed by the owner, so only the owner ever touches its
 * free list.
 *
 * Intended for FIFO buffers: the core that *reads* a FIFO allocates its buffer from its own local heap
 * with CF_HEAP_TOUCH, so the pages are first touched - and on NUMA machines homed - by that core.
 *
 * Threads: a cf_heap_local is used by one thread at a time (its owner) for alloc, reclaim and detach;
 * cf_heap_free may be called from any thread. Blocks are 64-byte aligned and never share a cache
 * line with another block or with allocator metadata. Errors are negative errno values. */
#ifndef CACHEFLOW_HEAP_H
#define CACHEFLOW_HEAP_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cf_heap cf_heap;
typedef struct cf_heap_local cf_heap_local;

#define CF_HEAP_DEFAULT_CHUNK ((size_t)1 << 20)

enum cf_heap_alloc_flags {
    CF_HEAP_TOUCH = 1u << 0, /* write every page of the block now, from the calling (owner) core */
    CF_HEAP_ZERO = 1u << 1   /* zero the whole block (implies touching it) */
};

typedef struct cf_heap_usage {
    size_t region_bytes;  /* reserved address space */
    size_t chunk_bytes;
    size_t chunks_total;
    size_t chunks_in_use; /* handed to local heaps */
    size_t locals;        /* attached local heaps */
} cf_heap_usage;

/* Reserves region_bytes (rounded up to whole chunks) of address space; pages are only backed when
 * first touched. chunk_bytes 0 means CF_HEAP_DEFAULT_CHUNK; otherwise a multiple of the page size.
 * Errors: -EINVAL, -ENOMEM (no address space or memory for metadata). */
int cf_heap_create(cf_heap **out, size_t region_bytes, size_t chunk_bytes);
/* -EBUSY while local heaps are attached. */
int cf_heap_destroy(cf_heap *heap);
void cf_heap_get_usage(const cf_heap *heap, cf_heap_usage *out);

/* One local heap per core / worker thread. -ENOMEM if its metadata cannot be allocated. */
int cf_heap_attach(cf_heap *heap, cf_heap_local **out);
/* Returns the local heap's chunks to the global allocator. -EBUSY (nothing changed) while blocks it
 * owns are still allocated anywhere. */
int cf_heap_detach(cf_heap_local *local);

/* First fit in the local free list; then reclaims the garbage list; then takes chunks from the global
 * allocator (several contiguous ones for a large block). -EINVAL for size 0 or unknown flags,
 * -ENOMEM when the region is exhausted (*out is then NULL and nothing changed). */
int cf_heap_alloc(cf_heap_local *local, size_t size, unsigned flags, void **out);
/* Frees a block from any thread. self is the caller's local heap, or NULL for a thread without one:
 * a block owned by self goes straight back to its free list, any other onto its owner's garbage list.
 * -EINVAL if p is not an allocated block of this heap (including a second free of the same block). */
int cf_heap_free(cf_heap *heap, cf_heap_local *self, void *p);
/* Moves blocks other cores freed back into the free list. Returns how many. */
size_t cf_heap_reclaim(cf_heap_local *local);
/* Bytes of blocks this local heap owns that are allocated (headers included). */
size_t cf_heap_local_in_use(const cf_heap_local *local);

#ifdef __cplusplus
}
#endif
#endif
