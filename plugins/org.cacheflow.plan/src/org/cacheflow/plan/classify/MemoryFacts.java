package org.cacheflow.plan.classify;

import java.util.Set;

import org.cacheflow.scripts.FifoMark;

/**
 * What memory scripts decided about the single-rate buffers, as the classifier needs it: which buffers share
 * memory (merge groups) and which FIFOs scripts marked read-mostly, private or write-mostly. Buffers are
 * single-rate edges, addressed by edge index.
 *
 * <p>
 * {@link org.cacheflow.plan.classify.SpecialActorMerging} gives the facts PREESM's default scripts of the
 * special actors imply without evaluating any script; the memory-script stage provides the full ones.
 */
public interface MemoryFacts {

  /** No buffer shares memory, no FIFO is marked: what plain copies everywhere amount to. */
  MemoryFacts NONE = new MemoryFacts() {
    @Override
    public int mergeRoot(int edge) {
      return -1;
    }

    @Override
    public Set<FifoMark> marks(int edge) {
      return Set.of();
    }
  };

  /**
   * The buffer whose memory holds this one when it belongs to a merge group: the group's root (the edge
   * itself for a root that hosts other buffers), or -1 when the buffer has memory of its own that no other
   * buffer shares.
   */
  int mergeRoot(int edge);

  /** The marks of the buffer's FIFO, empty when none. */
  Set<FifoMark> marks(int edge);

  /** Why the buffer is in its merge group (script, match), for reports; null when not known. */
  default String describeMerge(int edge) {
    return null;
  }

  /** Where the marks were set, for reports; null when not known. */
  default String describeMarks(int edge) {
    return null;
  }

  /** Why scripts allowed a merge for this buffer that was not applied, or null. */
  default String rejectedMerge(int edge) {
    return null;
  }
}
