package org.cacheflow.plan.partition;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

import org.cacheflow.model.ActorKind;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.schedule.Topology;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.FifoNames;

/**
 * Splits a single-rate graph across the nodes of a platform before its vertices are mapped to cores: balanced load
 * (a node's capacity is its core count), fewest bytes sent between nodes, deterministic (ties go to the lower
 * index).
 *
 * <ol>
 * <li><b>Contraction.</b> Vertices that must share a node become one group: an init vertex (a delay's initial
 * tokens) with the vertices reading it, an end vertex (a delay's final tokens) with the vertices writing it, and the
 * end and init of a persistent delay (its state, kept in memory between iterations). Generated code thus never sends
 * a delay's state between processes. So do the producer and consumer of a buffer larger than one MPI message
 * carries ({@link #MAX_MESSAGE_BYTES}, MPI's int count of bytes); mapping constraints that put them on different
 * nodes are an error.</li>
 * <li><b>Initial split</b> (SimSDP-style pipeline stages): groups in topological order (of their first vertex) are
 * cut into consecutive runs whose cumulative load matches each node's share of the total.</li>
 * <li><b>Refinement</b> (Fiduccia-Mattheyses): passes of single-group moves, the largest decrease of cut bytes first,
 * each group moved once per pass, negative moves allowed; the pass is rolled back to its best prefix. Balance: a
 * node's share of the load is the total times its cores over all cores; a pass keeps only states where no node
 * exceeds its share by more than {@value #BALANCE_TOLERANCE_PERCENT}% (or, when the split it started from already
 * did, by no more than that split), and a move inside a pass may overshoot a share by up to one vertex's load
 * (so that two vertices can trade places).</li>
 * </ol>
 * A vertex's load is its time on the fastest core it may run on; mapping constraints restrict a group to the nodes
 * having a core every member may run on. The scenario's special-vertex operators do not restrict the nodes of the
 * vertices the expansion inserts (fork, join, init, end): they choose among the cores of the vertex's node, any of
 * them when they name none.
 *
 * <p>
 * Cost: O(V + E) per pass apart from the priority queue (O(E log E)); at most {@value #MAX_PASSES} passes.
 */
public final class NodePartitioner {

  /** Load a node may carry over its share, in percent (or one vertex's load when larger). */
  public static final int BALANCE_TOLERANCE_PERCENT = 10;

  /** The most bytes one MPI message carries: the largest int count of {@code MPI_BYTE}s, 2^31 - 1. */
  public static final long MAX_MESSAGE_BYTES = Integer.MAX_VALUE;

  /** Refinement passes at most. */
  public static final int MAX_PASSES = 16;

  /** Groups with more neighbours than this are not re-evaluated when a neighbour moves within a pass. */
  private static final int REPUSH_DEGREE = 64;

  /** Moves a pass makes past its best prefix before giving up. */
  private static final int PATIENCE = 200;

  private final Srdag srdag;
  private final MappingInputs inputs;
  private final Platform platform;
  private final int nodeCount;
  private final int vertices;
  /** Per vertex: its group. */
  private final int[] groupOf;
  private int groupCount;
  private long[] weight;
  private boolean[][] allowedNodes;
  /** Group adjacency with bytes summed over parallel edges (CSR). */
  private int[] adjOffsets;
  private int[] adjGroups;
  private long[] adjBytes;
  private int[] node;
  private long[] load;
  /** Per node: the load a move may bring it to inside a pass. */
  private long[] limit;
  /** Per node: the load a kept state may give it. */
  private long[] tolerated;
  /** Scratch: bytes between one group and each node. */
  private final long[] connection;
  /** Per node: its cores. */
  private final int[] cores;

  private NodePartitioner(Srdag srdag, MappingInputs inputs) {
    this.srdag = srdag;
    this.inputs = inputs;
    this.platform = inputs.platform();
    this.nodeCount = platform.nodes();
    this.vertices = srdag.vertexCount();
    this.groupOf = new int[vertices];
    this.connection = new long[nodeCount];
    this.cores = new int[nodeCount];
    for (int n = 0; n < nodeCount; n++) {
      cores[n] = platform.coresOf(n).length;
    }
  }

  /**
   * Partitions a single-rate graph across the nodes of the inputs' platform.
   *
   * @throws InputException when the platform has more nodes than the graph has groups of actor firings that can
   *     run apart, when a vertex may run on no core, or when mapping constraints leave a group no common node
   */
  public static NodePartition partition(Srdag srdag, MappingInputs inputs) {
    NodePartitioner partitioner = new NodePartitioner(srdag, inputs);
    return partitioner.run();
  }

  private NodePartition run() {
    long[] vertexWeight = vertexWeights();
    contract(vertexWeight);
    buildAdjacency();
    checkNodeCount();
    balanceLimits(vertexWeight);
    initialSplit();
    for (int pass = 0; pass < MAX_PASSES; pass++) {
      if (!refinePass()) {
        break;
      }
    }
    return result(vertexWeight);
  }

  // ------------------------------------------------------------------------------------------ weights

  private long[] vertexWeights() {
    long[] result = new long[vertices];
    for (int v = 0; v < vertices; v++) {
      int actor = inputs.row(srdag, v);
      long best = Long.MAX_VALUE;
      for (int c = 0; c < platform.size(); c++) {
        if (allowed(actor, c)) {
          best = Math.min(best, actor >= 0 ? inputs.time(actor, c) : MappingInputs.SPECIAL_TIME);
        }
      }
      if (best == Long.MAX_VALUE) {
        FlatActor flat = srdag.vertexActor(v) >= 0 ? srdag.flatGraph().actor(srdag.vertexActor(v)) : null;
        throw new InputException(flat != null ? flat.location() : srdag.flatGraph().location(),
            "no core may run " + srdag.vertexName(v) + " (mapping constraints allow none of " + platform + ")");
      }
      result[v] = best;
    }
    return result;
  }

  private boolean allowed(int actor, int core) {
    return actor >= 0 ? inputs.allowed(actor, core) : inputs.specialAllowed(core);
  }

  // ------------------------------------------------------------------------------------------ contraction

  private void contract(long[] vertexWeight) {
    int[] parent = new int[vertices];
    for (int v = 0; v < vertices; v++) {
      parent[v] = v;
    }
    uniteDelays(parent);
    List<Integer> large = uniteLargeBuffers(parent);
    numberGroups(parent);
    int[] example = weighGroups(vertexWeight);
    for (int g = 0; g < groupCount; g++) {
      boolean any = false;
      for (boolean ok : allowedNodes[g]) {
        any |= ok;
      }
      if (!any) {
        refuseGroup(g, large, example[g]);
      }
    }
  }

  /**
   * Unites a delay's vertices with the firings that read and write its tokens: an init vertex with its readers, an
   * end vertex with its writers, a persistent delay's end with its init.
   */
  private void uniteDelays(int[] parent) {
    for (int v = 0; v < vertices; v++) {
      if (!srdag.isInserted(v)) {
        continue;
      }
      if (srdag.vertexKind(v) == ActorKind.INIT) {
        for (int e : srdag.outgoingEdges(v)) {
          union(parent, v, srdag.edgeTarget(e));
        }
      } else if (srdag.vertexKind(v) == ActorKind.END) {
        for (int e : srdag.incomingEdges(v)) {
          union(parent, v, srdag.edgeSource(e));
        }
      }
    }
    for (int i = 0; i < srdag.persistentDelayCount(); i++) {
      union(parent, srdag.persistentEnd(i), srdag.persistentInit(i));
    }
  }

  /** Unites the producer and consumer of every buffer larger than one MPI message; returns those edges. */
  private List<Integer> uniteLargeBuffers(int[] parent) {
    List<Integer> large = new ArrayList<>();
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (srdag.edgeBytes(e) > MAX_MESSAGE_BYTES) {
        union(parent, srdag.edgeSource(e), srdag.edgeTarget(e));
        large.add(e);
      }
    }
    return large;
  }

  /** Numbers the groups in order of their first vertex. */
  private void numberGroups(int[] parent) {
    int[] indexOfRoot = new int[vertices];
    Arrays.fill(indexOfRoot, -1);
    groupCount = 0;
    for (int v = 0; v < vertices; v++) {
      int root = find(parent, v);
      if (indexOfRoot[root] < 0) {
        indexOfRoot[root] = groupCount++;
      }
      groupOf[v] = indexOfRoot[root];
    }
  }

  /**
   * Sums the groups' weights and finds the nodes each group may run on; returns per group its first vertex.
   */
  private int[] weighGroups(long[] vertexWeight) {
    weight = new long[groupCount];
    allowedNodes = new boolean[groupCount][nodeCount];
    for (boolean[] row : allowedNodes) {
      Arrays.fill(row, true);
    }
    int[] example = new int[groupCount];
    Arrays.fill(example, -1);
    for (int v = 0; v < vertices; v++) {
      int g = groupOf[v];
      weight[g] = add(weight[g], vertexWeight[v]);
      int actor = srdag.vertexActor(v);
      // inserted vertices (fork, join, init, end) go where their group goes: the scenario's special-vertex
      // operators only choose among the cores of their node (ListScheduler)
      for (int n = 0; n < nodeCount && actor >= 0; n++) {
        boolean any = false;
        for (int c : platform.coresOf(n)) {
          any |= allowed(actor, c);
        }
        allowedNodes[g][n] &= any;
      }
      example[g] = example[g] < 0 ? v : example[g];
    }
    return example;
  }

  /** Refuses a group that mapping constraints allow on no node: by its large buffer if it has one. */
  private void refuseGroup(int g, List<Integer> large, int example) {
    for (int e : large) {
      if (groupOf[srdag.edgeSource(e)] == g) {
        FlatFifo fifo = srdag.flatGraph().fifo(srdag.edgeFifo(e));
        throw new InputException(fifo.location(), "FIFO " + new FifoNames(srdag.flatGraph()).fifo(fifo)
            + " carries " + srdag.edgeBytes(e) + " bytes from " + srdag.vertexName(srdag.edgeSource(e)) + " to "
            + srdag.vertexName(srdag.edgeTarget(e)) + ", more than one MPI message can (" + MAX_MESSAGE_BYTES
            + " bytes, MPI's int count), so both must run on one node, but mapping constraints allow no node "
            + "for both (of " + srdag.vertexName(srdag.edgeSource(e)) + " and the vertices that must stay with "
            + "it)");
      }
    }
    List<String> names = new ArrayList<>();
    for (int v = 0; v < vertices && names.size() < 6; v++) {
      if (groupOf[v] == g) {
        names.add(srdag.vertexName(v));
      }
    }
    int actor = srdag.vertexActor(example);
    throw new InputException(actor >= 0 ? srdag.flatGraph().actor(actor).location()
        : srdag.flatGraph().location(), "mapping constraints allow no common node for " + String.join(", ", names)
        + ", which must run on one node (a delay's tokens and state stay with the firings that read and write "
        + "them)");
  }

  private static int find(int[] parent, int v) {
    int root = v;
    while (parent[root] != root) {
      root = parent[root];
    }
    while (parent[v] != root) {
      int next = parent[v];
      parent[v] = root;
      v = next;
    }
    return root;
  }

  private static void union(int[] parent, int a, int b) {
    int ra = find(parent, a);
    int rb = find(parent, b);
    if (ra != rb) {
      // the lower index stays the root: deterministic
      parent[Math.max(ra, rb)] = Math.min(ra, rb);
    }
  }

  private void buildAdjacency() {
    int edges = srdag.edgeCount();
    int[] degree = new int[groupCount + 1];
    for (int e = 0; e < edges; e++) {
      int a = groupOf[srdag.edgeSource(e)];
      int b = groupOf[srdag.edgeTarget(e)];
      if (a != b) {
        degree[a + 1]++;
        degree[b + 1]++;
      }
    }
    for (int g = 0; g < groupCount; g++) {
      degree[g + 1] += degree[g];
    }
    int[] raw = new int[degree[groupCount]];
    long[] rawBytes = new long[degree[groupCount]];
    int[] fill = Arrays.copyOf(degree, groupCount);
    for (int e = 0; e < edges; e++) {
      int a = groupOf[srdag.edgeSource(e)];
      int b = groupOf[srdag.edgeTarget(e)];
      if (a != b) {
        long bytes = srdag.edgeBytes(e);
        raw[fill[a]] = b;
        rawBytes[fill[a]++] = bytes;
        raw[fill[b]] = a;
        rawBytes[fill[b]++] = bytes;
      }
    }
    // sum parallel edges: one entry per neighbour group, in order of first appearance
    int[] slot = new int[groupCount];
    Arrays.fill(slot, -1);
    adjOffsets = new int[groupCount + 1];
    int[] groups = new int[raw.length];
    long[] bytes = new long[raw.length];
    int size = 0;
    for (int g = 0; g < groupCount; g++) {
      int start = size;
      for (int i = degree[g]; i < degree[g + 1]; i++) {
        int h = raw[i];
        if (slot[h] < start) {
          slot[h] = size;
          groups[size] = h;
          bytes[size++] = rawBytes[i];
        } else {
          bytes[slot[h]] = add(bytes[slot[h]], rawBytes[i]);
        }
      }
      adjOffsets[g + 1] = size;
    }
    adjGroups = Arrays.copyOf(groups, size);
    adjBytes = Arrays.copyOf(bytes, size);
  }

  /** A platform with more nodes than the graph has groups of actor firings leaves nodes without work. */
  private void checkNodeCount() {
    boolean[] works = new boolean[groupCount];
    int working = 0;
    for (int v = 0; v < vertices; v++) {
      if (!srdag.isInserted(v) && srdag.vertexKind(v) == ActorKind.NORMAL && !works[groupOf[v]]) {
        works[groupOf[v]] = true;
        working++;
      }
    }
    if (nodeCount > working) {
      throw new InputException(srdag.flatGraph().location(), "the platform has " + nodeCount + " nodes but "
          + srdag.flatGraph().name() + " can use at most " + working + ": it has " + working + " group"
          + (working == 1 ? "" : "s") + " of actor firings that can run apart (the firings of a delay's state stay "
          + "together, and so do the ends of a buffer too large for one MPI message); describe at most " + working
          + " node" + (working == 1 ? "" : "s")
          + " (--nodes or the S-LAM's nodes)");
    }
  }

  // ------------------------------------------------------------------------------------------ balance

  private void balanceLimits(long[] vertexWeight) {
    long total = 0;
    long largest = 0;
    for (long w : vertexWeight) {
      total = add(total, w);
      largest = Math.max(largest, w);
    }
    int allCores = platform.size();
    limit = new long[nodeCount];
    tolerated = new long[nodeCount];
    for (int n = 0; n < nodeCount; n++) {
      double share = (double) total * platform.coresOf(n).length / allCores;
      double within = share * (100 + BALANCE_TOLERANCE_PERCENT) / 100.0;
      tolerated[n] = within >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(within);
      double moving = Math.max(within, share + largest);
      limit[n] = moving >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) Math.ceil(moving);
    }
  }

  /** How far the most overloaded node is beyond its tolerated load (0 when all are within). */
  private long overload() {
    long worst = 0;
    for (int n = 0; n < nodeCount; n++) {
      worst = Math.max(worst, load[n] - tolerated[n]);
    }
    return worst;
  }

  /** Consecutive runs of groups in topological order, each node taking its share of the load. */
  private void initialSplit() {
    Topology topology = Topology.of(srdag);
    int[] firstPosition = new int[groupCount];
    Arrays.fill(firstPosition, Integer.MAX_VALUE);
    for (int p = 0; p < vertices; p++) {
      int g = groupOf[topology.topological(p)];
      firstPosition[g] = Math.min(firstPosition[g], p);
    }
    Integer[] order = new Integer[groupCount];
    for (int g = 0; g < groupCount; g++) {
      order[g] = g;
    }
    Arrays.sort(order, (a, b) -> firstPosition[a] != firstPosition[b]
        ? Integer.compare(firstPosition[a], firstPosition[b]) : Integer.compare(a, b));
    double total = 0;
    for (long w : weight) {
      total += w;
    }
    double[] boundary = new double[nodeCount];
    double cumulative = 0;
    int allCores = platform.size();
    for (int n = 0; n < nodeCount; n++) {
      cumulative += total * platform.coresOf(n).length / allCores;
      boundary[n] = cumulative;
    }
    node = new int[groupCount];
    load = new long[nodeCount];
    double done = 0;
    int current = 0;
    for (int g : order) {
      double middle = done + weight[g] / 2.0;
      while (current < nodeCount - 1 && middle >= boundary[current]) {
        current++;
      }
      int chosen = nearestAllowed(g, current);
      node[g] = chosen;
      load[chosen] = add(load[chosen], weight[g]);
      done += weight[g];
    }
  }

  private int nearestAllowed(int g, int wanted) {
    for (int distance = 0; distance < nodeCount; distance++) {
      if (wanted - distance >= 0 && allowedNodes[g][wanted - distance]) {
        return wanted - distance;
      }
      if (wanted + distance < nodeCount && allowedNodes[g][wanted + distance]) {
        return wanted + distance;
      }
    }
    throw new IllegalStateException("group " + g + " has no allowed node");
  }

  // ------------------------------------------------------------------------------------------ refinement

  /**
   * One Fiduccia-Mattheyses pass.
   *
   * @return whether the pass changed the partition (fewer bytes cut, or as many and a better balance)
   */
  private boolean refinePass() {
    boolean[] locked = new boolean[groupCount];
    int[] version = new int[groupCount];
    // candidates: {-gain, group, target node, version}, best gain first, then lower group, then lower node
    PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> {
      for (int i = 0; i < 3; i++) {
        if (a[i] != b[i]) {
          return Long.compare(a[i], b[i]);
        }
      }
      return 0;
    });
    for (int g = 0; g < groupCount; g++) {
      pushMoves(queue, g, version[g]);
    }
    List<int[]> moves = new ArrayList<>();
    long gained = 0;
    long best = 0;
    long start = overload();
    long bestOverload = start;
    int bestLength = 0;
    while (!queue.isEmpty() && moves.size() - bestLength < PATIENCE) {
      long[] candidate = queue.poll();
      int g = (int) candidate[1];
      int target = (int) candidate[2];
      if (locked[g] || candidate[3] != version[g] || load[target] > limit[target] - weight[g]) {
        continue;
      }
      int from = node[g];
      node[g] = target;
      load[from] -= weight[g];
      load[target] = add(load[target], weight[g]);
      locked[g] = true;
      moves.add(new int[] {g, from});
      gained += -candidate[0];
      long overload = overload();
      if (overload <= start && (gained > best || gained == best && overload < bestOverload)) {
        best = gained;
        bestOverload = overload;
        bestLength = moves.size();
      }
      for (int i = adjOffsets[g]; i < adjOffsets[g + 1]; i++) {
        int h = adjGroups[i];
        // a group with many neighbours (a fork or join of many firings) keeps the moves it was listed with: its
        // gains would be recomputed on every neighbour's move, quadratic in its degree
        if (!locked[h] && adjOffsets[h + 1] - adjOffsets[h] <= REPUSH_DEGREE) {
          version[h]++;
          pushMoves(queue, h, version[h]);
        }
      }
    }
    for (int i = moves.size() - 1; i >= bestLength; i--) {
      int g = moves.get(i)[0];
      int back = moves.get(i)[1];
      load[node[g]] -= weight[g];
      load[back] = add(load[back], weight[g]);
      node[g] = back;
    }
    return bestLength > 0;
  }

  /** The group's moves to the nodes of its neighbours, with their gains (bytes leaving the cut). */
  private void pushMoves(PriorityQueue<long[]> queue, int g, int version) {
    Arrays.fill(connection, 0);
    for (int i = adjOffsets[g]; i < adjOffsets[g + 1]; i++) {
      int n = node[adjGroups[i]];
      connection[n] = add(connection[n], adjBytes[i]);
    }
    int own = node[g];
    int lightest = -1;
    for (int n = 0; n < nodeCount; n++) {
      if (n == own || !allowedNodes[g][n]) {
        continue;
      }
      if (connection[n] > 0) {
        queue.add(new long[] {connection[own] - connection[n], g, n, version});
      } else if (lightest < 0 || (double) load[n] / cores[n] < (double) load[lightest] / cores[lightest]) {
        lightest = n;
      }
    }
    // and to the least loaded node it has no neighbour on, so that a group can start filling an emptied node
    if (lightest >= 0) {
      queue.add(new long[] {connection[own], g, lightest, version});
    }
  }

  // ------------------------------------------------------------------------------------------ result

  private NodePartition result(long[] vertexWeight) {
    int[] nodeOf = new int[vertices];
    long[] nodeLoad = new long[nodeCount];
    for (int v = 0; v < vertices; v++) {
      nodeOf[v] = node[groupOf[v]];
      nodeLoad[nodeOf[v]] = add(nodeLoad[nodeOf[v]], vertexWeight[v]);
    }
    return NodePartition.of(srdag, platform, nodeOf, nodeLoad, groupCount);
  }

  static long add(long a, long b) {
    long sum = a + b;
    return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
  }
}
