package org.cacheflow.plan.schedule;

import java.util.Arrays;
import java.util.PriorityQueue;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * Maps and orders a single-rate graph by list scheduling: vertices are taken in order of decreasing bottom
 * level (the longest chain of execution times from the vertex to the end of the graph, ties broken by vertex
 * index) among those whose predecessors are all scheduled, and each is appended to a core chosen by the
 * {@link MappingPolicy}: the earliest finish; on an equal finish a core the vertex does not return to (none of
 * its inputs from other cores waited for that core: the per-core orders stay free of cycles across the cores); when
 * it returns to every such core, the one with the least work so far; then the lowest index. A vertex starts when its
 * core is free and its inputs are produced; communication within
 * a node is not charged (its cores share memory). On several nodes ({@link #schedule(Srdag, MappingInputs,
 * MappingPolicy, long, NodePartition)}) each vertex runs on a core of its partition's node, and an input from
 * another node arrives the platform's {@link org.cacheflow.plan.mapping.Network#transferTime} after its producer
 * ends. Deterministic: the same inputs give the same schedule.
 *
 * <p>
 * Cost: O((V + E) log V + V x cores) for V vertices and E edges.
 */
public final class ListScheduler {

  /** The load slack of the locality policy, as a fraction of the ideal per-core load. */
  public static final double LOCALITY_SLACK = 0.10;

  private ListScheduler() {
  }

  /**
   * Schedules a single-rate graph.
   *
   * @param srdag the graph
   * @param inputs execution times and allowed cores of its actors
   * @param policy how to choose cores
   * @param largeBufferBytes buffers at least this large pull their consumer towards their producer's core
   *     under {@link MappingPolicy#LOCALITY}
   * @throws InputException when a vertex has no core it may run on
   */
  public static Schedule schedule(Srdag srdag, MappingInputs inputs, MappingPolicy policy, long largeBufferBytes) {
    return schedule(srdag, inputs, policy, largeBufferBytes, null);
  }

  /**
   * Schedules a single-rate graph whose vertices are already split across nodes: each runs on a core of its node,
   * and buffers between nodes take the platform's network time. An inserted vertex (fork, join, init, end) runs on
   * one of the scenario's special-vertex operators of its node, or on any core of its node when they name none.
   *
   * @param partition the node of every vertex; null for a single node (no restriction, no network)
   * @throws InputException when a vertex has no core it may run on
   */
  public static Schedule schedule(Srdag srdag, MappingInputs inputs, MappingPolicy policy, long largeBufferBytes,
      NodePartition partition) {
    int[] nodeOf = partition == null ? null : partition.nodeOfVertices();
    Placement may = placement(inputs, nodeOf);
    Topology topology = Topology.of(srdag);
    long[] reference = referenceTimes(srdag, inputs, may);
    long[] bottom = bottomLevels(srdag, topology, reference);
    long totalWork = 0;
    for (long time : reference) {
      totalWork += time;
    }
    Run run = new Run(srdag, inputs, may, topology, nodeOf, largeBufferBytes);
    // list scheduling
    double ideal = (double) totalWork / run.cores;
    long slack = (long) Math.ceil(LOCALITY_SLACK * ideal);
    PriorityQueue<Integer> ready = new PriorityQueue<>((a, b) -> bottom[a] != bottom[b]
        ? Long.compare(bottom[b], bottom[a]) : Integer.compare(a, b));
    int[] pending = new int[run.vertices];
    for (int v = 0; v < run.vertices; v++) {
      pending[v] = topology.inDegree(v);
      if (pending[v] == 0) {
        ready.add(v);
      }
    }
    while (!ready.isEmpty()) {
      int v = ready.poll();
      int bestCore = run.earliestCore(v);
      int chosen = policy == MappingPolicy.LOCALITY ? run.localityCore(v, bestCore, slack) : bestCore;
      run.place(v, chosen);
      for (int i = 0; i < topology.outDegree(v); i++) {
        int t = srdag.edgeTarget(topology.outEdge(v, i));
        if (--pending[t] == 0) {
          ready.add(t);
        }
      }
    }
    return new Schedule(srdag, inputs.platform(), policy, run.coreOf, run.start, run.end, run.perCoreOrders());
  }

  /**
   * Where a vertex may run: on the cores its actor's constraints allow; on several nodes ({@code nodeOf} not
   * null), only on its node's cores, and an inserted vertex on any core of its node when the node has none of the
   * scenario's special-vertex operators.
   */
  private static Placement placement(MappingInputs inputs, int[] nodeOf) {
    Platform platform = inputs.platform();
    // per node: whether inserted vertices may run on one of its cores; if not, on any of them
    boolean[] specialOnNode = new boolean[platform.nodes()];
    for (int c = 0; c < platform.size(); c++) {
      specialOnNode[platform.nodeOf(c)] |= inputs.specialAllowed(c);
    }
    return (v, actor, c) -> nodeOf == null ? allowed(inputs, actor, c) : platform.nodeOf(c) == nodeOf[v]
        && (allowed(inputs, actor, c) || actor < 0 && !specialOnNode[nodeOf[v]]);
  }

  /**
   * Per vertex, its reference time: its time on the fastest core it may run on.
   *
   * @throws InputException when a vertex has no core it may run on
   */
  private static long[] referenceTimes(Srdag srdag, MappingInputs inputs, Placement may) {
    Platform platform = inputs.platform();
    long[] reference = new long[srdag.vertexCount()];
    for (int v = 0; v < reference.length; v++) {
      int actor = inputs.row(srdag, v);
      long best = Long.MAX_VALUE;
      for (int c = 0; c < platform.size(); c++) {
        if (may.allows(v, actor, c)) {
          best = Math.min(best, time(inputs, actor, c));
        }
      }
      if (best == Long.MAX_VALUE) {
        FlatActor flat = actor >= 0 ? srdag.flatGraph().actor(actor) : null;
        throw new InputException(flat != null ? flat.location() : srdag.flatGraph().location(),
            "no core may run " + srdag.vertexName(v) + " (mapping constraints allow none of " + platform + ")");
      }
      reference[v] = best;
    }
    return reference;
  }

  /** Per vertex, its bottom level: the longest chain of reference times from it to the end of the graph. */
  private static long[] bottomLevels(Srdag srdag, Topology topology, long[] reference) {
    long[] bottom = new long[reference.length];
    for (int i = reference.length - 1; i >= 0; i--) {
      int v = topology.topological(i);
      long longest = 0;
      for (int k = 0; k < topology.outDegree(v); k++) {
        longest = Math.max(longest, bottom[srdag.edgeTarget(topology.outEdge(v, k))]);
      }
      bottom[v] = reference[v] + longest;
    }
    return bottom;
  }

  /** The state of one list scheduling: the cores' times and loads, and where and when each vertex runs. */
  private static final class Run {
    private final Srdag srdag;
    private final MappingInputs inputs;
    private final Placement may;
    private final Topology topology;
    private final int[] nodeOf;
    private final long largeBufferBytes;
    private final int vertices;
    private final int cores;
    private final long[] bytes;
    private final long[] coreFree;
    /** Per vertex, the cores (up to 64) that ran it or any of its ancestors: its core waits for them. */
    private final long[] above;
    private final long[] coreLoad;
    private final int[] coreCount;
    private final int[] coreOf;
    private final long[] start;
    private final long[] end;
    private final long[] dataReady;
    private final int[] scheduledOrder;
    private final long[] bytesFromCore;
    private int scheduled;

    Run(Srdag srdag, MappingInputs inputs, Placement may, Topology topology, int[] nodeOf, long largeBufferBytes) {
      this.srdag = srdag;
      this.inputs = inputs;
      this.may = may;
      this.topology = topology;
      this.nodeOf = nodeOf;
      this.largeBufferBytes = largeBufferBytes;
      vertices = srdag.vertexCount();
      cores = inputs.platform().size();
      bytes = new long[srdag.edgeCount()];
      for (int e = 0; e < bytes.length; e++) {
        bytes[e] = srdag.edgeBytes(e);
      }
      coreFree = new long[cores];
      above = new long[vertices];
      coreLoad = new long[cores];
      coreCount = new int[cores];
      coreOf = new int[vertices];
      start = new long[vertices];
      end = new long[vertices];
      dataReady = new long[vertices];
      scheduledOrder = new int[vertices];
      bytesFromCore = new long[cores];
    }

    /**
     * The core where the vertex finishes earliest; on an equal finish, a core the vertex does not return to (its
     * order stays free of cycles across the cores, which keep them from overlapping iterations: CoreCount); when it
     * returns to every one, the one with the least work so far (the cycle then runs through the lighter core's
     * loop); then the lowest.
     */
    int earliestCore(int v) {
      int actor = inputs.row(srdag, v);
      int bestCore = -1;
      long bestEnd = Long.MAX_VALUE;
      boolean bestReturns = false;
      for (int c = 0; c < cores; c++) {
        if (!may.allows(v, actor, c)) {
          continue;
        }
        long finish = finish(v, actor, c);
        boolean returns = returnsTo(v, c, topology, srdag, coreOf, above, cores);
        if (finish < bestEnd || finish == bestEnd && (!returns && bestReturns
            || returns && bestReturns && coreLoad[c] < coreLoad[bestCore])) {
          bestEnd = finish;
          bestCore = c;
          bestReturns = returns;
        }
      }
      return bestCore;
    }

    /**
     * Under {@link MappingPolicy#LOCALITY}: the core that produced most of the vertex's large inputs when the load
     * allows it, else the best core.
     */
    int localityCore(int v, int bestCore, long slack) {
      int actor = inputs.row(srdag, v);
      int affinity = affinityCore(v, topology, srdag, coreOf, bytes, largeBufferBytes, bytesFromCore);
      if (affinity < 0 || affinity == bestCore || !may.allows(v, actor, affinity)) {
        return bestCore;
      }
      long finish = finish(v, actor, affinity);
      long horizon = 0;
      for (long free : coreFree) {
        horizon = Math.max(horizon, free);
      }
      // the load allows it when the firing finishes at most the slack later than on the best core, or
      // within the time the schedule already spans (it then fills idle time and extends nothing)
      return finish - finish(v, actor, bestCore) <= slack || finish <= horizon ? affinity : bestCore;
    }

    private long finish(int v, int actor, int core) {
      return Math.max(coreFree[core], dataReady[v]) + time(inputs, actor, core);
    }

    /** Appends the vertex to the core's order and makes its outputs' data ready for its consumers. */
    void place(int v, int chosen) {
      long time = time(inputs, inputs.row(srdag, v), chosen);
      coreOf[v] = chosen;
      start[v] = Math.max(coreFree[chosen], dataReady[v]);
      end[v] = start[v] + time;
      coreFree[chosen] = end[v];
      coreLoad[chosen] += time;
      if (cores <= Long.SIZE) {
        for (int i = 0; i < topology.inDegree(v); i++) {
          int u = srdag.edgeSource(topology.inEdge(v, i));
          above[v] |= above[u];
        }
        above[v] |= 1L << chosen;
      }
      coreCount[chosen]++;
      scheduledOrder[scheduled++] = v;
      for (int i = 0; i < topology.outDegree(v); i++) {
        int e = topology.outEdge(v, i);
        int t = srdag.edgeTarget(e);
        long arrival = nodeOf == null || nodeOf[t] == nodeOf[v] ? end[v]
            : add(end[v], inputs.platform().network().transferTime(bytes[e]));
        dataReady[t] = Math.max(dataReady[t], arrival);
      }
    }

    /** Per core, its vertices in the order they were scheduled, which is by start time on each core. */
    int[][] perCoreOrders() {
      int[][] order = new int[cores][];
      int[] fill = new int[cores];
      for (int c = 0; c < cores; c++) {
        order[c] = new int[coreCount[c]];
      }
      for (int i = 0; i < vertices; i++) {
        int v = scheduledOrder[i];
        order[coreOf[v]][fill[coreOf[v]]++] = v;
      }
      return order;
    }
  }

  /**
   * Whether running {@code v} on {@code core} returns to it: an input comes from another core whose producer
   * waited (through its ancestors) for a vertex on {@code core}, which then waits within an iteration for a core
   * that waits for it (a farm's collector on the emitter's core, the workers split). False beyond 64 cores.
   */
  private static boolean returnsTo(int v, int core, Topology topology, Srdag srdag, int[] coreOf, long[] above,
      int cores) {
    if (cores > Long.SIZE) {
      return false;
    }
    for (int i = 0; i < topology.inDegree(v); i++) {
      int u = srdag.edgeSource(topology.inEdge(v, i));
      if (coreOf[u] != core && (above[u] >>> core & 1) != 0) {
        return true;
      }
    }
    return false;
  }

  /** The core that produced most of the vertex's large input bytes, or -1 when it has no large input. */
  private static int affinityCore(int v, Topology topology, Srdag srdag, int[] coreOf, long[] bytes,
      long largeBufferBytes, long[] bytesFromCore) {
    Arrays.fill(bytesFromCore, 0);
    boolean any = false;
    for (int i = 0; i < topology.inDegree(v); i++) {
      int e = topology.inEdge(v, i);
      if (bytes[e] >= largeBufferBytes) {
        bytesFromCore[coreOf[srdag.edgeSource(e)]] += bytes[e];
        any = true;
      }
    }
    if (!any) {
      return -1;
    }
    int best = 0;
    for (int c = 1; c < bytesFromCore.length; c++) {
      if (bytesFromCore[c] > bytesFromCore[best]) {
        best = c;
      }
    }
    return best;
  }

  /** Whether a vertex (of a flat actor, -1 for an inserted vertex) may run on a core. */
  private interface Placement {
    boolean allows(int vertex, int actor, int core);
  }

  private static long add(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }

  private static boolean allowed(MappingInputs inputs, int actor, int core) {
    return actor >= 0 ? inputs.allowed(actor, core) : inputs.specialAllowed(core);
  }

  private static long time(MappingInputs inputs, int actor, int core) {
    return actor >= 0 ? inputs.time(actor, core) : MappingInputs.SPECIAL_TIME;
  }
}
