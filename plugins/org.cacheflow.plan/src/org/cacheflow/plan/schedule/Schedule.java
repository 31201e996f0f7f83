package org.cacheflow.plan.schedule;

import java.util.Arrays;

import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * A static schedule of one iteration of a single-rate graph: the core of every vertex, the order in which
 * each core fires its vertices, and the start and end times the list scheduler computed (in the scenario's
 * time units, one iteration starting at 0). Each core's order respects the graph's dependencies, and all
 * orders together come from one topological order, so running every core's list in a loop, with each
 * cross-core buffer waited for, cannot deadlock. Immutable.
 */
public final class Schedule {

  private final Srdag srdag;
  private final Platform platform;
  private final MappingPolicy policy;
  private final int[] coreOf;
  private final int[] position;
  private final long[] start;
  private final long[] end;
  private final int[][] order;
  private final int[] skew;

  Schedule(Srdag srdag, Platform platform, MappingPolicy policy, int[] coreOf, long[] start, long[] end,
      int[][] order) {
    this(srdag, platform, policy, coreOf, start, end, order, null);
  }

  private Schedule(Srdag srdag, Platform platform, MappingPolicy policy, int[] coreOf, long[] start, long[] end,
      int[][] order, int[] skew) {
    this.srdag = srdag;
    this.skew = skew;
    this.platform = platform;
    this.policy = policy;
    this.coreOf = coreOf;
    this.start = start;
    this.end = end;
    this.order = order;
    this.position = new int[coreOf.length];
    for (int[] list : order) {
      for (int i = 0; i < list.length; i++) {
        position[list[i]] = i;
      }
    }
  }

  public Srdag srdag() {
    return srdag;
  }

  public Platform platform() {
    return platform;
  }

  public MappingPolicy policy() {
    return policy;
  }

  public int coreCount() {
    return platform.size();
  }

  /** The core (index into {@link Platform#cores()}) the vertex runs on. */
  public int coreOf(int vertex) {
    return coreOf[vertex];
  }

  /** The vertex's position in its core's order (0 = fired first). */
  public int position(int vertex) {
    return position[vertex];
  }

  public long start(int vertex) {
    return start[vertex];
  }

  public long end(int vertex) {
    return end[vertex];
  }

  /** The vertices the core fires, in order. */
  public int[] order(int core) {
    return order[core].clone();
  }

  /** How many vertices the core fires. */
  public int orderLength(int core) {
    return order[core].length;
  }

  /** The vertex at a position of a core's order. */
  public int vertexAt(int core, int position) {
    return order[core][position];
  }

  /**
   * The vertex's iteration offset in its core's loop (software pipelining): in the loop's pass p its core fires it for
   * graph iteration p - skew. 0 for every vertex unless the schedule was pipelined ({@link #withSkew}).
   */
  public int skew(int vertex) {
    return skew == null ? 0 : skew[vertex];
  }

  /** The largest iteration offset: the loop runs this many passes more than there are iterations. */
  public int maxSkew() {
    int result = 0;
    if (skew != null) {
      for (int s : skew) {
        result = Math.max(result, s);
      }
    }
    return result;
  }

  /** The offsets per vertex, or null when there are none (for schedules derived from this one). */
  int[] offsets() {
    return skew == null ? null : skew.clone();
  }

  /** The same mapping and orders with per-vertex iteration offsets (null or all 0: none). */
  public Schedule withSkew(int[] offsets) {
    return new Schedule(srdag, platform, policy, coreOf, start, end, order, offsets == null ? null : offsets.clone());
  }

  /** When the last vertex ends: the length of one iteration run alone. */
  public long makespan() {
    long result = 0;
    for (long e : end) {
      result = Math.max(result, e);
    }
    return result;
  }

  /** The busy time of a core: the sum of its vertices' execution times. */
  public long load(int core) {
    long total = 0;
    for (int v : order[core]) {
      total += end[v] - start[v];
    }
    return total;
  }

  /** Whether the edge's producer and consumer run on different cores. */
  public boolean crossesCores(int edge) {
    return coreOf[srdag.edgeSource(edge)] != coreOf[srdag.edgeTarget(edge)];
  }

  @Override
  public String toString() {
    long[] loads = new long[coreCount()];
    for (int c = 0; c < loads.length; c++) {
      loads[c] = load(c);
    }
    return "Schedule[" + policy.label + ", makespan " + makespan() + ", loads " + Arrays.toString(loads) + "]";
  }
}
