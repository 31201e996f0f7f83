package org.cacheflow.codegen.build;

/**
 * A buffer of the single-rate graph: an edge's ({@code number} is the edge), or the state of a persistent delay,
 * which lives across iterations ({@code number} is the delay). {@code index} numbers all of them, edges first, for
 * arrays per buffer. A root (memory of its own) is an edge not aliased into another's, or a delay state.
 */
record BufferId(int index, boolean delayState, int number) implements Comparable<BufferId> {

  static BufferId edge(int edge) {
    return new BufferId(edge, false, edge);
  }

  static BufferId delayState(int delay, int edges) {
    return new BufferId(edges + delay, true, delay);
  }

  /** The edge; only for an edge's buffer. */
  int edge() {
    if (delayState) {
      throw new IllegalStateException("the state of persistent delay " + number + " is not an edge");
    }
    return number;
  }

  /** The persistent delay; only for a delay's state. */
  int delay() {
    if (!delayState) {
      throw new IllegalStateException("edge " + number + " is not a delay's state");
    }
    return number;
  }

  @Override
  public int compareTo(BufferId other) {
    return Integer.compare(index, other.index);
  }
}
