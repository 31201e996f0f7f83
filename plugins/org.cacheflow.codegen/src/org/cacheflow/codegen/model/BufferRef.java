package org.cacheflow.codegen.model;

/**
 * Where a statement reads or writes: a C expression naming the start of a root buffer (a static array, or a
 * pointer a channel / copy-on-write call set) plus a byte offset into it.
 *
 * @param base the C expression of the root buffer's first byte
 * @param offset bytes from it
 */
public record BufferRef(String base, long offset) {

  public static BufferRef of(String base) {
    return new BufferRef(base, 0);
  }

  public BufferRef plus(long bytes) {
    return new BufferRef(base, offset + bytes);
  }
}
