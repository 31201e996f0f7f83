package org.cacheflow.plan.memoryplan;

import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.SpecialCopy;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.Decisions;
import org.cacheflow.plan.strategy.Strategy;

/**
 * The bytes of each buffer that its consumer reads: all of them for an actor firing; for a special vertex
 * (fork, join, broadcast, round buffer) only the bytes it copies into the live bytes of its own outputs. A round
 * buffer keeps only the last bytes of its inputs (PREESM's semantics), so a join (implode) whose sole consumer
 * is a round buffer fills bytes nobody reads, and a round buffer's inputs that later inputs overwrite completely
 * are not read at all. A special vertex's copy into a buffer is cut to the buffer's live bytes (no dead
 * copies); the code generator cuts its moves the same way, so the plan's bytes copied stay the program's.
 *
 * <p>Conservative: a buffer in a merge group, a copy-on-write buffer or view source, and the input of an inserted
 * init or end vertex count as read whole. The live bytes of a buffer are one range (the hull of what is read).
 */
public final class LiveBytes {

  private final Srdag srdag;
  private final long[] first;
  private final long[] end;

  private LiveBytes(Srdag srdag, long[] first, long[] end) {
    this.srdag = srdag;
    this.first = first;
    this.end = end;
  }

  /** Every buffer read whole: PREESM's plain copies ({@code baseline}). */
  static LiveBytes whole(Srdag srdag) {
    long[] first = new long[srdag.edgeCount()];
    long[] end = new long[srdag.edgeCount()];
    for (int e = 0; e < end.length; e++) {
      end[e] = srdag.edgeBytes(e);
    }
    return new LiveBytes(srdag, first, end);
  }

  /** The live bytes of every buffer, consumers before producers. */
  static LiveBytes compute(Srdag srdag, Topology topology, Classification classes, Decisions decisions) {
    LiveBytes live = whole(srdag);
    boolean[] pinned = new boolean[srdag.edgeCount()];
    for (int e = 0; e < pinned.length; e++) {
      // a buffer sent to another node is sent whole
      pinned[e] |= classes.mergeRoot(e) >= 0 || decisions.strategy(e) == Strategy.COW
          || decisions.strategy(e) == Strategy.SEND;
      int source = decisions.viewSource(e);
      if (source >= 0) {
        pinned[source] = true;
      }
    }
    for (int p = srdag.vertexCount() - 1; p >= 0; p--) {
      live.consumerReads(topology.topological(p), pinned);
    }
    return live;
  }

  /**
   * The bytes of every buffer that reach an actor firing or a delay's storage through special vertices' copies,
   * whatever memory the buffers share: the bytes a program's results depend on. A buffer none of whose bytes
   * reach one ({@code bytes == 0}) may hold anything when its consumer runs.
   */
  static LiveBytes semantic(Srdag srdag, Topology topology) {
    LiveBytes live = whole(srdag);
    boolean[] pinned = new boolean[srdag.edgeCount()];
    for (int p = srdag.vertexCount() - 1; p >= 0; p--) {
      live.consumerReads(topology.topological(p), pinned);
    }
    return live;
  }

  /** First live byte of the buffer. */
  public long first(int edge) {
    return first[edge];
  }

  /** One past the last live byte of the buffer ({@code first == end}: nothing is read). */
  public long end(int edge) {
    return end[edge];
  }

  /** How many bytes of the buffer are read. */
  public long bytes(int edge) {
    return end[edge] - first[edge];
  }

  /**
   * Whether its consumer reads only part of the buffer ({@link #first} to {@link #end}): a special vertex then copies
   * only those bytes (the report bundle's {@code DecisionText} says which consumer and why).
   */
  public boolean partial(int edge) {
    return bytes(edge) != srdag.edgeBytes(edge);
  }

  private void consumerReads(int v, boolean[] pinned) {
    if (!org.cacheflow.plan.classify.Classifier.isCopying(srdag.vertexKind(v))) {
      return; // actor firings read everything; an init has no input, an end's stays whole
    }
    for (int e : srdag.incomingEdges(v)) {
      if (!pinned[e]) {
        first[e] = Long.MAX_VALUE;
        end[e] = Long.MIN_VALUE;
      }
    }
    for (SpecialCopy copy : SpecialCopy.of(srdag, v)) {
      // the part of the copy that lands in the destination's read bytes is read from the source
      long from = Math.max(copy.destinationOffset(), first[copy.destination()]);
      long to = Math.min(copy.destinationOffset() + copy.bytes(), end[copy.destination()]);
      int e = copy.source();
      if (from < to && !pinned[e]) {
        first[e] = Math.min(first[e], copy.sourceOffset() + from - copy.destinationOffset());
        end[e] = Math.max(end[e], copy.sourceOffset() + to - copy.destinationOffset());
      }
    }
    for (int e : srdag.incomingEdges(v)) {
      if (!pinned[e]) {
        long from = Math.max(0, first[e]);
        long to = Math.min(srdag.edgeBytes(e), end[e]);
        first[e] = from < to ? from : 0;
        end[e] = from < to ? to : 0;
      }
    }
  }
}
