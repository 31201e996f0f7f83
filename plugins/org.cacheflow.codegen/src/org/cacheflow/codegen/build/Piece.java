package org.cacheflow.codegen.build;

/**
 * A part of an edge that lies in pieces of its merge root's memory: its bytes {@code first} to
 * {@code first + bytes} are at byte {@code inRoot} of the root's memory.
 */
record Piece(long first, long inRoot, long bytes) {

  boolean holds(long offset) {
    return offset >= first && offset < first + bytes;
  }
}
