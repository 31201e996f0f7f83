package org.cacheflow.plan.partition;

import java.util.Arrays;

import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * The node (machine, MPI rank) of every single-rate vertex, with what the split costs: each node's load, the bytes
 * and messages each iteration sends from one node to another, and, once the plan is scheduled, the predicted time of
 * an iteration. Built by {@link NodePartitioner} (or {@link #single} for a one-node platform). Immutable; arrays are
 * copied out.
 *
 * <p>
 * A message is one single-rate buffer (edge) whose producer and consumer are on different nodes: each is sent once
 * per iteration, whole.
 */
public final class NodePartition {

  private final int nodes;
  private final int[] nodeOf;
  private final long[] load;
  private final int[] cores;
  private final long[][] bytes;
  private final int[][] messages;
  private final int groups;
  private final long predictedTime;

  NodePartition(int nodes, int[] nodeOf, long[] load, int[] cores, long[][] bytes, int[][] messages, int groups,
      long predictedTime) {
    this.nodes = nodes;
    this.nodeOf = nodeOf;
    this.load = load;
    this.cores = cores;
    this.bytes = bytes;
    this.messages = messages;
    this.groups = groups;
    this.predictedTime = predictedTime;
  }

  /**
   * The partition that puts each vertex on the node given, with the bytes and messages it sends.
   *
   * @param nodeOf per vertex, its node
   * @param load per node, its load
   * @param groups how many groups of vertices that must stay together were placed
   */
  public static NodePartition of(Srdag srdag, Platform platform, int[] nodeOf, long[] load, int groups) {
    int nodes = platform.nodes();
    long[][] bytes = new long[nodes][nodes];
    int[][] messages = new int[nodes][nodes];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int from = nodeOf[srdag.edgeSource(e)];
      int to = nodeOf[srdag.edgeTarget(e)];
      if (from != to) {
        long sum = bytes[from][to] + srdag.edgeBytes(e);
        bytes[from][to] = sum < 0 ? Long.MAX_VALUE : sum;
        messages[from][to]++;
      }
    }
    int[] cores = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      cores[n] = platform.coresOf(n).length;
    }
    return new NodePartition(nodes, nodeOf.clone(), load.clone(), cores, bytes, messages, groups, 0);
  }

  /**
   * Everything on node 0 of a one-node platform.
   *
   * @param load the node's load (the sum of the vertices' times)
   * @param cores the node's cores
   * @param predictedTime an iteration's predicted time
   */
  public static NodePartition single(Srdag srdag, long load, int cores, long predictedTime) {
    return new NodePartition(1, new int[srdag.vertexCount()], new long[] {load}, new int[] {cores},
        new long[1][1], new int[1][1], srdag.vertexCount(), predictedTime);
  }

  /** The same partition with the predicted time of an iteration (the schedule's makespan). */
  public NodePartition withPredictedTime(long time) {
    return new NodePartition(nodes, nodeOf, load, cores, bytes, messages, groups, time);
  }

  /** How many nodes the platform has (some may have no vertex when the graph cannot use them all). */
  public int nodes() {
    return nodes;
  }

  /** The node of a single-rate vertex. */
  public int nodeOf(int vertex) {
    return nodeOf[vertex];
  }

  /** The node of every vertex, indexed by vertex (a copy). */
  public int[] nodeOfVertices() {
    return nodeOf.clone();
  }

  /** The sum of the times of the node's vertices (each on its fastest allowed core), in the scenario's units. */
  public long load(int node) {
    return load[node];
  }

  /** How many cores the node has: its capacity when balancing. */
  public int cores(int node) {
    return cores[node];
  }

  /** Bytes sent per iteration from node {@code from} to node {@code to} (0 on the diagonal). */
  public long bytes(int from, int to) {
    return bytes[from][to];
  }

  /** Messages (single-rate buffers) sent per iteration from node {@code from} to node {@code to}. */
  public int messages(int from, int to) {
    return messages[from][to];
  }

  /** Bytes sent between nodes per iteration, all pairs together. */
  public long cutBytes() {
    long total = 0;
    for (long[] row : bytes) {
      for (long b : row) {
        total = total + b < 0 ? Long.MAX_VALUE : total + b;
      }
    }
    return total;
  }

  /** Messages sent between nodes per iteration, all pairs together. */
  public int cutMessages() {
    int total = 0;
    for (int[] row : messages) {
      for (int m : row) {
        total += m;
      }
    }
    return total;
  }

  /** How many groups of vertices that must stay together the partitioner placed. */
  public int groups() {
    return groups;
  }

  /** The predicted time of one iteration (the list schedule's makespan with network transfers), 0 if unknown. */
  public long predictedTime() {
    return predictedTime;
  }

  @Override
  public String toString() {
    return "NodePartition[" + nodes + " nodes, loads " + Arrays.toString(load) + ", cut " + cutBytes() + " B in "
        + cutMessages() + " messages, predicted " + predictedTime + "]";
  }
}
