package org.cacheflow.codegen.model;

/**
 * A buffer allocated once for the whole run from the runtime's hierarchical allocator by its home core (so
 * its pages are first touched there), zeroed, 64-byte aligned; a global pointer. A buffer in a pool has no
 * allocation of its own: it points at {@code offset} bytes into the pool, a buffer of the same core that holds
 * every buffer whose lifetimes within an iteration do not overlap.
 *
 * @param name C identifier
 * @param bytes size of one copy
 * @param copies 1, or 2 for the state of a persistent delay (iterations alternate between the copies)
 * @param home the core that allocates it: the one that reads it
 * @param description which single-rate edges live in it
 * @param pool the name of the pool it lives in, or null when it is allocated on its own
 * @param offset its first byte's offset in the pool (0 without a pool)
 */
public record StaticBuffer(String name, long bytes, int copies, int home, String description, String pool,
    long offset) {

  /** A buffer with an allocation of its own. */
  public StaticBuffer(String name, long bytes, int copies, int home, String description) {
    this(name, bytes, copies, home, description, null, 0);
  }

  public long totalBytes() {
    return bytes * copies;
  }

  /** Whether it has an allocation of its own (a pool, or a buffer outside pools). */
  public boolean allocated() {
    return pool == null;
  }
}
