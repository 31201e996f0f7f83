/* Copy-on-write FIFO buffers (Ghasemi et al., "Cache limits for dataflow applications and efficient
 * memory management strategies": a read-mostly FIFO is shared, not copied).
 *
 * The producer's buffer lives in a memfd (shm_open as fallback) mapped MAP_SHARED. Each consumer opens
 * a view: a MAP_PRIVATE mapping of the same memory. Reading a view costs no copy; a page is copied -
 * by the kernel, at page granularity - only when that consumer writes it. Views persist across graph
 * iterations: at cf_cow_release the pages the consumer wrote are dropped (re-shared), so the next
 * iteration sees the producer's data again. That costs in proportion to the pages written, not to the
 * buffer size.
 *
 * Modes:
 *   CF_COW_EAGER  the view is writable; the kernel copies a page on its first write. At release the
 *                 written pages are found in the page table (/proc/self/pagemap: 8 bytes read per
 *                 page of the view, no data touched) and dropped with madvise(MADV_DONTNEED). If
 *                 pagemap cannot be read, release drops the whole view (correct, but then re-reading
 *                 costs page faults in proportion to the size).
 *   CF_COW_LAZY   the view is read-only; the first write to a page raises SIGSEGV, which the runtime
 *                 handles by making that page writable (the kernel then copies it) and recording it.
 *                 Release drops exactly the recorded pages and write-protects them again. The handler
 *                 passes faults outside lazy views on to the SIGSEGV handler installed before it
 *                 (install yours first, or chain to the previous one yourself).
 *   CF_COW_COPY   no sharing: acquire copies the buffer into the view's private memory (memcpy).
 *                 Buffers smaller than the configured threshold always use this mode, because below
 *                 a few pages a memcpy is cheaper than the page-table work of sharing.
 *
 * THE RELEASE RULE. A private view is not a snapshot: a page the consumer has only read still shows
 * whatever the producer writes into it later. So each iteration is bracketed:
 *   producer:  cf_cow_write_begin() -> write -> cf_cow_publish()
 *   consumer:  cf_cow_acquire() -> read (and possibly write) -> cf_cow_release()
 * cf_cow_write_begin fails with -EBUSY until every view open at the last publish has released it
 * (or been closed). A consumer must not touch its view between release and the next acquire.
 *
 * PARTS (several producer threads). A buffer created with config->writers = n > 1 is written by n
 * threads each iteration, one per part: part p's thread brackets its iteration with
 * cf_cow_write_begin_part(buf, p) and cf_cow_publish_part(buf, p) and writes the bytes it owns (the
 * runtime does not check which: parts that write the same bytes race). The iteration is complete when
 * the last of its n parts is published, and only that publish makes it visible:
 *   - views see an iteration once every part is published (cf_cow_acquire returns -EAGAIN until
 *     then);
 *   - a part may not begin the next iteration until the iteration is complete and every view released
 *     it (cf_cow_write_begin_part returns -EBUSY meanwhile).
 * Views are unchanged: every view covers every part (a view of a range covers the parts' bytes in that
 * range). A part that does not complete the iteration publishes without a system call or a lock; the
 * completing part does what cf_cow_publish does. cf_cow_write_begin / cf_cow_publish are part 0, so a
 * buffer of one writer (the default) behaves as it always did.
 *
 * Counters (stats.h): cow_pages_shared, the pages of a view at each acquire (handed over without a
 * copy); cow_pages_faulted, those the consumer wrote (copied by the kernel); cow_pages_reshared, those
 * dropped at release so the next iteration sees the producer's data again.
 *
 * Threads: one producer thread per part (one in all unless config->writers > 1: a part's calls are
 * made by one thread at a time) and one thread per view; the parts and the views of one buffer may be
 * used from different threads concurrently. Error codes are negative errno values. */
#ifndef CACHEFLOW_COW_H
#define CACHEFLOW_COW_H
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct cf_cow_buffer cf_cow_buffer;
typedef struct cf_cow_view cf_cow_view;
typedef struct cf_cow_file cf_cow_file;

typedef enum cf_cow_mode { CF_COW_EAGER = 0, CF_COW_LAZY = 1, CF_COW_COPY = 2 } cf_cow_mode;

/* Below this size buffers are copied (CF_COW_COPY): on the reference machine a persistent view
 * costs a few microseconds per iteration (page-table scan, syscalls), what memcpy needs for ~64 KiB. */
#define CF_COW_DEFAULT_COPY_THRESHOLD ((size_t)64 * 1024)

typedef struct cf_cow_config {
    cf_cow_mode mode;      /* requested mode for buffers at or above the threshold */
    size_t copy_threshold; /* 0 = CF_COW_DEFAULT_COPY_THRESHOLD; 1 = never copy */
    unsigned writers; /* parts written by different threads each iteration; 0 = 1, at most 64 */
    cf_cow_file *file;  /* NULL: a memory file of the buffer's own (private memory in copy mode); else the
                           buffer is the whole pages at file_offset in this shared file, in copy mode too
                           (its views' copies are then private memory of their own) */
    size_t file_offset; /* a multiple of the page size; file_offset + the buffer's whole pages <= the file */
} cf_cow_config;

/* A memory file holding several buffers at offsets of their own (cf_cow_config.file), for buffers that are
 * never used at the same time -- e.g. the variants of a program, of which one runs at a time -- and so may
 * overlap: a file page is allocated once, when first written, however many buffers cover it. What such
 * buffers require of their users: when one of them is written (cf_cow_write_begin), no view of another
 * buffer covering the same pages may be held (between acquire and release) -- a held view shows the file's
 * pages it has not written, and so the other buffer's bytes. Released views drop their written pages, and
 * their next acquire sees their own buffer's newest publish, which its producer wrote after the other's.
 * cf_cow_file_span gives the bytes a buffer of `size` takes in a file (whole pages; copy-mode sizes too).
 * Errors: -EINVAL (out NULL, bytes 0), or the errno of memfd_create/shm_open or ftruncate. The file's pages
 * are not touched here. Destroy it after every buffer in it (-EINVAL for NULL). */
int cf_cow_file_create(cf_cow_file **out, size_t bytes);
int cf_cow_file_destroy(cf_cow_file *file);
size_t cf_cow_file_span(size_t size);


#define CF_COW_MAX_WRITERS 64u

/* config may be NULL (eager, default threshold, one writer). size is rounded up to whole pages
 * internally. Errors: -EINVAL (size 0, unknown mode, writers > CF_COW_MAX_WRITERS, out NULL; with a file:
 * file_offset not a multiple of the page size, or the buffer's pages beyond the file's end), -ENOMEM,
 * or the errno of memfd_create/shm_open,
 * ftruncate or mmap. On error nothing is left allocated or open. */
int cf_cow_create(cf_cow_buffer **out, size_t size, const cf_cow_config *config);
/* -EBUSY while views are open (the buffer is then left intact). */
int cf_cow_destroy(cf_cow_buffer *buf);
cf_cow_mode cf_cow_buffer_mode(const cf_cow_buffer *buf); /* effective mode after the threshold */
size_t cf_cow_size(const cf_cow_buffer *buf);
unsigned cf_cow_writers(const cf_cow_buffer *buf); /* parts per iteration: config->writers, 0 counted as 1 */

/* Producer (part 0; the only one unless config->writers > 1). write_begin returns the writable buffer;
 * -EBUSY if a consumer still holds (or has not yet acquired and released) the last published
 * iteration, -EALREADY if already writing. */
int cf_cow_write_begin(cf_cow_buffer *buf, void **data);
/* Makes the written data the next iteration for every open view. -EINVAL without write_begin. */
int cf_cow_publish(cf_cow_buffer *buf);
/* Views that still owe a release of the last published iteration. */
size_t cf_cow_pending(const cf_cow_buffer *buf);

/* Producer of one part, part in [0, writers), each part from its own thread. write_begin_part returns
 * the writable buffer (all of it: the part's thread writes the bytes it owns). Errors: -EINVAL (bad
 * part, data NULL); -EALREADY if this part is between begin and publish; -EBUSY if this part already
 * published the current iteration and the other parts have not all published it yet, or if a view
 * still owes a release of the last completed iteration. cf_cow_write_begin(buf, data) is
 * cf_cow_write_begin_part(buf, 0, data). */
int cf_cow_write_begin_part(cf_cow_buffer *buf, unsigned part, void **data);
/* Counts the part as published. The last of the `writers` parts to publish completes the iteration: it
 * becomes the next iteration of every open view, exactly as at cf_cow_publish. -EINVAL (bad part, or
 * without write_begin_part). cf_cow_publish(buf) is cf_cow_publish_part(buf, 0). */
int cf_cow_publish_part(cf_cow_buffer *buf, unsigned part);

/* Consumer. A new view sees iterations published after it was opened. Errors from open: -ENOMEM,
 * -ENOSPC (too many lazy views in the process), or the errno of mmap. */
int cf_cow_view_open(cf_cow_buffer *buf, cf_cow_view **out);
/* A view of the bytes [offset, offset + length) of the buffer: it maps only the whole pages covering
 * them, and cf_cow_acquire returns the address of byte `offset` (which need not start a page: the
 * bytes that share its first and last page with the rest of the buffer are shown too, and what the
 * consumer writes there stays private like any other write). Copy mode copies just the range.
 * Re-sharing and the page counters then cost in proportion to the range, not to the buffer.
 * -EINVAL for an empty range or one beyond the buffer. cf_cow_view_open is the whole buffer. */
int cf_cow_view_open_range(cf_cow_buffer *buf, size_t offset, size_t length, cf_cow_view **out);
/* Releases the view first if it is held. */
int cf_cow_view_close(cf_cow_view *view);
/* Returns the view's data for the newest published (with parts: completed) iteration, writable in
 * every mode.
 * -EAGAIN: nothing new was published since this view's last acquire; -EBUSY: already held. */
int cf_cow_acquire(cf_cow_view *view, void **data);
/* Ends this consumer's use of the iteration and re-shares the pages it wrote. -EINVAL if not held;
 * other negative values if re-sharing failed (the view is then unusable; close it). */
int cf_cow_release(cf_cow_view *view);

#ifdef __cplusplus
}
#endif
#endif
