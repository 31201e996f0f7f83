package org.cacheflow.codegen.build;

import java.util.Map;

/**
 * How each root is kept ({@link StorageChoice}, then {@link Pipelining}), and which cores write and read it.
 *
 * @param kinds per buffer index, the root's storage; null for an edge living in another's memory
 * @param writers per buffer index, the cores that write it, one bit per core
 * @param readers per buffer index, the cores that read it, one bit per core
 * @param skipWritten per buffer index, whether a copy into it is made without keeping its lines (SKIP)
 * @param pipelinedCopies per {@link StorageKind#PIPELINED} root, its copies (one per iteration it holds at once)
 */
record Storage(StorageKind[] kinds, long[] writers, long[] readers, boolean[] skipWritten,
    Map<BufferId, Integer> pipelinedCopies) {

  StorageKind kind(BufferId root) {
    return kinds[root.index()];
  }

  long writers(BufferId root) {
    return writers[root.index()];
  }

  long readers(BufferId root) {
    return readers[root.index()];
  }

  /** The cores that write or read a root. */
  long users(BufferId root) {
    return writers[root.index()] | readers[root.index()];
  }

  /** The first core that writes a root, -1 when none does. */
  int writerCore(BufferId root) {
    return Cores.first(writers(root), -1);
  }

  /** The first core that reads a root, -1 when none does. */
  int readerCore(BufferId root) {
    return Cores.first(readers(root), -1);
  }

  /** The core that reads a buffer (its first touch puts the pages in that core's memory), else the writer. */
  int homeCore(BufferId root) {
    return Cores.first(readers(root), Cores.first(writers(root), 0));
  }

  boolean skipWritten(BufferId root) {
    return skipWritten[root.index()];
  }

  /** Whether a root is handed from one core to another (a channel, or a semaphore under the baseline). */
  boolean handedOver(BufferId root) {
    return kind(root) == StorageKind.CHANNEL || kind(root) == StorageKind.SEMAPHORE;
  }

  int pipelinedCopies(BufferId root) {
    return pipelinedCopies.get(root);
  }

  /** The same storage with the given roots kept {@link StorageKind#PIPELINED}, in so many copies. */
  Storage withPipelined(Map<BufferId, Integer> copies) {
    StorageKind[] changed = kinds.clone();
    copies.keySet().forEach(root -> changed[root.index()] = StorageKind.PIPELINED);
    return new Storage(changed, writers, readers, skipWritten, Map.copyOf(copies));
  }
}
