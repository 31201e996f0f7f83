package org.cacheflow.plan.classify;

import java.util.List;
import java.util.Set;

import org.cacheflow.scripts.FifoMark;

/**
 * What memory scripts decided about the single-rate buffers, as the classifier needs it: which buffers share
 * memory (merge groups) and which FIFOs scripts marked read-mostly, private or write-mostly. Buffers are
 * single-rate edges, addressed by edge index.
 *
 * <p>
 * {@link ScriptMemoryFacts} gives them from evaluated memory scripts (the special actors' default scripts
 * alone: {@link org.cacheflow.plan.memoryplan.MemoryPlanner#defaultFacts}).
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

  /**
   * Where a merged buffer lies: the byte offset of its first byte in the memory of its merge root's group
   * (for the root itself, where its own bytes start; above 0 when members reach before them). -1 when the
   * buffer is not merged or these facts do not know the layout (then code cannot be generated for the merge).
   */
  default long mergeOffset(int edge) {
    return -1;
  }

  /**
   * For a merged buffer that lies in several pieces of its root's memory (a divided buffer: only special
   * vertices write and read it), its pieces {first byte, byte in the root's memory, bytes} in order; null for a
   * buffer in one block ({@link #mergeOffset} then says where).
   */
  default long[][] mergePieces(int edge) {
    return null;
  }

  /** The bytes a merge root's group spans (at least the root's own), or -1 when not known. */
  default long groupBytes(int rootEdge) {
    return -1;
  }

  /**
   * The ranges a vertex's own memory script says its outputs repeat from its inputs (actors only; special
   * vertices copy by definition), in the order of the script's matches; empty when none or not known.
   */
  default List<ScriptCopy> scriptCopies(int vertex) {
    return List.of();
  }

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

  /**
   * Why memory scripts merged this buffer but these facts do not (it is used on another node than its group's
   * memory, see {@link org.cacheflow.plan.partition.NodeLocalFacts}), or null.
   */
  default String droppedMerge(int edge) {
    return null;
  }

  /** Why scripts allowed a merge for this buffer that was not applied, or null. */
  default String rejectedMerge(int edge) {
    return null;
  }
}
