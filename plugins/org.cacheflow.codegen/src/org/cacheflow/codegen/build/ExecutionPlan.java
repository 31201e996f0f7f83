package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * What code generation needs from the plan: which core fires each single-rate vertex, in which order, and
 * the strategy for buffers. Kept this small so the memory plan of {@code org.cacheflow.plan} can stand
 * behind it.
 */
public interface ExecutionPlan {

  Srdag srdag();

  int cores();

  /** How many nodes (MPI ranks, one process each) the cores form; 1 for one shared-memory machine. */
  default int nodes() {
    return 1;
  }

  /**
   * The node of a core (0 .. nodes-1). Cores of one node share memory; a buffer whose producer and consumer
   * run on different nodes is sent over MPI.
   */
  default int nodeOf(int core) {
    return 0;
  }

  /** The core that runs the vertex. */
  int coreOf(int vertex);

  /** The core's static order of vertices for one iteration (a topological order of its vertices). */
  int[] order(int core);

  CodePreset strategy();

  /**
   * The vertex's iteration offset in its core's loop (software pipelining): in the loop's pass p the core fires it
   * for graph iteration p - skew, so a vertex with skew 1 runs one iteration behind the others of its core. Along
   * every edge the consumer's skew is at least its producer's. Default 0 (no pipelining).
   */
  default int skew(int vertex) {
    return 0;
  }

  /**
   * How a copy into a buffer another core reads ({@code crossing}) or the same core reads is made; the
   * default follows the strategy preset (skip across cores for prestore-skip, else memcpy).
   *
   * @param edge the single-rate edge written
   */
  default CopyKind copyKind(int edge, long bytes, boolean crossing) {
    return crossing && strategy().skip() ? CopyKind.SKIP : CopyKind.MEMCPY;
  }

  /**
   * The pre-store after the last write of a buffer another core reads: DEMOTE, CLEAN, BYPASS (evict what an actor
   * wrote), or NONE.
   */
  default PrestoreKind prestore(int edge, long bytes) {
    return strategy().prestore();
  }

  /**
   * The edge whose memory holds this one when the plan aliases it (memory-script merge group; the edge itself
   * for a group's root), or -1 when it has memory of its own.
   */
  int mergeRoot(int edge);

  /** For an aliased edge, the byte offset of its first byte in its merge root's memory. */
  long mergeOffset(int edge);

  /**
   * For an aliased edge lying in several pieces of its root's memory (only special vertices access it), its
   * pieces {first byte, byte in the root's memory, bytes}; null when it is one block.
   */
  long[][] mergePieces(int edge);

  /** For a merge root, the bytes its group's memory spans. */
  long groupBytes(int root);

  /** Whether the edge's consumer reads a copy-on-write view of the special vertex's input instead of a copy. */
  boolean copyOnWrite(int edge);

  /**
   * For a copy-on-write view, the edge whose memory holds the bytes it shows (a merge root: its group's memory;
   * else that edge's own buffer); -1 when the edge is not a view.
   */
  int viewSource(int edge);

  /** For a copy-on-write view, its first byte in its source's memory. */
  long viewOffset(int edge);

  /** The ranges the vertex's own memory script says its outputs repeat from its inputs. */
  default List<org.cacheflow.plan.classify.ScriptCopy> scriptCopies(int vertex) {
    return List.of();
  }

  /**
   * The bytes of the edge's buffer its consumer reads, {first, end}: a special vertex copies only those into it
   * (a join whose round buffer keeps only its last bytes, a round buffer's inputs later ones overwrite). Default
   * all of them.
   */
  default long[] liveRange(int edge) {
    return new long[] {0, srdag().edgeBytes(edge)};
  }

  /**
   * Whether the plan carries the edge's buffer in a shared-memory channel (its CHANNEL strategy): only possible
   * between cores of one node. Default false.
   */
  default boolean channel(int edge) {
    return false;
  }

  /** The slots of the channel carrying the edge's buffer. */
  default int slots(int edge) {
    return strategy().slots();
  }

  /**
   * The slots of a merge group several cores use (its root's memory k times; iteration i in slot i % k): one under
   * a barrier, else the strategy's slots. A memory plan sizes them by its target's L2
   * ({@link org.cacheflow.plan.memoryplan.MemoryPlan#groupSlots}).
   */
  default int groupSlots(int root) {
    return strategy().barrier() ? 1 : Math.max(1, strategy().slots());
  }

  /** Why the group has {@link #groupSlots} slots, for the generated code's comment; empty when nothing to say. */
  default String groupSlotsWhy(int root) {
    return "";
  }
}
