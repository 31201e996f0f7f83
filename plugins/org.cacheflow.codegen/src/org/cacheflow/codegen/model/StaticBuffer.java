package org.cacheflow.codegen.model;

/**
 * A buffer allocated once for the whole run from the runtime's hierarchical allocator by its home core (so
 * its pages are first touched there), zeroed, 64-byte aligned; a global pointer.
 *
 * @param name C identifier
 * @param bytes size of one copy
 * @param copies 1, or 2 for the state of a persistent delay (iterations alternate between the copies)
 * @param home the core that allocates it: the one that reads it
 * @param description which single-rate edges live in it
 */
public record StaticBuffer(String name, long bytes, int copies, int home, String description) {

  public long totalBytes() {
    return bytes * copies;
  }
}
