package org.cacheflow.codegen.build;

/** Bytes {@code first} up to {@code end} (exclusive) of one buffer. */
record ByteRange(long first, long end) {

  long bytes() {
    return end - first;
  }
}
