package org.cacheflow.codegen.build;

/**
 * A copy or zero-fill a special vertex (fork, join, broadcast, round buffer, a delay's init or end) makes: bytes
 * from a source edge (or delay state, numbered after the edges) to a destination; source == -1 means zero-fill.
 */
record Move(int source, long sourceOffset, int destination, long destinationOffset, long bytes) {
}
