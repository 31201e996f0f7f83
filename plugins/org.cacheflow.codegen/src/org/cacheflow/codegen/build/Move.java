package org.cacheflow.codegen.build;

/**
 * A copy or zero-fill a special vertex (fork, join, broadcast, round buffer, a delay's init or end) makes: bytes
 * from a source buffer (an edge's or a delay's state) to a destination; no source ({@code null}) means zero-fill.
 */
record Move(BufferId source, long sourceOffset, BufferId destination, long destinationOffset, long bytes) {

  /** Whether the move writes zeros instead of copying. */
  boolean fillsZeros() {
    return source == null;
  }
}
