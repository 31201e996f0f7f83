package org.cacheflow.plan.classify;

import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.scripts.FifoMark;

/**
 * Gives every single-rate buffer exactly one {@link BufferClass}, trying the rules of {@link ClassRule} in
 * order:
 * <ol>
 * <li><b>aliased</b> when memory-script merging placed it in a merge group ({@link MemoryFacts#mergeRoot});</li>
 * <li>the class a memory script marked its FIFO with (read-mostly before private before write-mostly);</li>
 * <li>for a buffer a special vertex fills by copying: a broadcast or round buffer output is <b>read-mostly</b>
 * (its consumers do not all declare READ_ONLY, or scripts did not merge it); a fork or join output is
 * <b>private</b> when its consumer writes it, read-mostly when its consumers only read;</li>
 * <li>a delay's initial tokens are <b>private</b>;</li>
 * <li>a buffer an actor writes is <b>private</b> when the same actor reads it back (a feedback FIFO),
 * <b>write-mostly</b> otherwise (its writer does not read it again).</li>
 * </ol>
 * Whether a buffer crosses cores comes from the schedule and combines with the class.
 */
public final class Classifier {

  private Classifier() {
  }

  /** Classifies every buffer of the schedule's graph. */
  public static Classification classify(Schedule schedule, MemoryFacts facts) {
    Srdag srdag = schedule.srdag();
    Topology topology = Topology.of(srdag);
    return classify(schedule, facts, topology, ConsumerAccess.of(srdag, topology));
  }

  /** As {@link #classify(Schedule, MemoryFacts)}, reusing what was already computed. */
  public static Classification classify(Schedule schedule, MemoryFacts facts, Topology topology,
      ConsumerAccess access) {
    Srdag srdag = schedule.srdag();
    int edges = srdag.edgeCount();
    byte[] rule = new byte[edges];
    byte[] origin = new byte[edges];
    boolean[] cross = new boolean[edges];
    boolean[] readOnly = new boolean[edges];
    int[] roots = new int[edges];
    for (int e = 0; e < edges; e++) {
      int source = srdag.edgeSource(e);
      BufferOrigin o = originOf(srdag, e);
      origin[e] = (byte) o.ordinal();
      cross[e] = schedule.crossesCores(e);
      readOnly[e] = access.readOnly(e);
      roots[e] = facts.mergeRoot(e);
      rule[e] = (byte) ruleFor(srdag, e, source, o, roots[e], facts.marks(e), readOnly[e]).ordinal();
    }
    return new Classification(srdag, rule, origin, cross, readOnly, roots, facts);
  }

  /** Who fills the buffer. */
  public static BufferOrigin originOf(Srdag srdag, int edge) {
    if (srdag.isFromInit(edge)) {
      return BufferOrigin.DELAY;
    }
    return isCopying(srdag.vertexKind(srdag.edgeSource(edge))) ? BufferOrigin.COPY : BufferOrigin.PRODUCED;
  }

  /** Whether a vertex of this kind fills its outputs by copying its inputs. */
  public static boolean isCopying(ActorKind kind) {
    return kind == ActorKind.FORK || kind == ActorKind.JOIN || kind == ActorKind.BROADCAST
        || kind == ActorKind.ROUNDBUFFER;
  }

  static ClassRule ruleFor(Srdag srdag, int edge, int source, BufferOrigin origin, int mergeRoot,
      Set<FifoMark> marks, boolean consumersReadOnly) {
    if (mergeRoot >= 0) {
      return ClassRule.MERGED;
    }
    if (marks.contains(FifoMark.READ_MOSTLY)) {
      return ClassRule.MARKED_READ_MOSTLY;
    }
    if (marks.contains(FifoMark.PRIVATE)) {
      return ClassRule.MARKED_PRIVATE;
    }
    if (marks.contains(FifoMark.WRITE_MOSTLY)) {
      return ClassRule.MARKED_WRITE_MOSTLY;
    }
    switch (origin) {
      case COPY: {
        ActorKind kind = srdag.vertexKind(source);
        if (kind == ActorKind.BROADCAST || kind == ActorKind.ROUNDBUFFER) {
          return consumersReadOnly ? ClassRule.SHARED_COPY_NOT_MERGED : ClassRule.SHARED_COPY_WRITTEN;
        }
        return consumersReadOnly ? ClassRule.COPY_READ : ClassRule.COPY_WRITTEN;
      }
      case DELAY:
        return ClassRule.DELAY_TOKENS;
      default: {
        FlatFifo fifo = srdag.flatGraph().fifo(srdag.edgeFifo(edge));
        return fifo.source() == fifo.target() ? ClassRule.FEEDBACK : ClassRule.PRODUCED;
      }
    }
  }
}
