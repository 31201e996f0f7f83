package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.ActorKind;
import org.cacheflow.plan.srdag.Srdag;

/**
 * A simple mapping and schedule until the memory plan provides one: vertices in a deterministic topological
 * order; each actor firing goes to the core with the least work so far (work = bytes it reads and writes);
 * a fork, broadcast, round buffer or end goes with its producer and a join or init with its consumer, so
 * special actors rarely add a transfer between cores.
 */
public final class InterimPlanner {

  private InterimPlanner() {
  }

  public static ExecutionPlan plan(Srdag srdag, int cores, Strategy strategy) {
    if (cores < 1) {
      throw new IllegalArgumentException("at least one core is needed, got " + cores);
    }
    int[] topological = topologicalOrder(srdag);
    int[] coreOf = new int[srdag.vertexCount()];
    long[] load = new long[cores];
    for (int vertex : topological) {
      int[] in = srdag.incomingEdges(vertex);
      int[] out = srdag.outgoingEdges(vertex);
      ActorKind kind = srdag.vertexKind(vertex);
      boolean followsProducer = in.length > 0 && (kind == ActorKind.FORK || kind == ActorKind.BROADCAST
          || kind == ActorKind.ROUNDBUFFER || kind == ActorKind.END);
      if (followsProducer) {
        coreOf[vertex] = coreOf[srdag.edgeSource(in[0])];
        continue;
      }
      long work = 1;
      for (int e : in) {
        work += srdag.edgeBytes(e);
      }
      for (int e : out) {
        work += srdag.edgeBytes(e);
      }
      int best = 0;
      for (int c = 1; c < cores; c++) {
        if (load[c] < load[best]) {
          best = c;
        }
      }
      coreOf[vertex] = best;
      load[best] += work;
    }
    // joins and inits go where their consumer went (consumers come later in topological order)
    for (int i = topological.length - 1; i >= 0; i--) {
      int vertex = topological[i];
      ActorKind kind = srdag.vertexKind(vertex);
      int[] out = srdag.outgoingEdges(vertex);
      if ((kind == ActorKind.JOIN || kind == ActorKind.INIT) && srdag.isInserted(vertex) && out.length == 1) {
        coreOf[vertex] = coreOf[srdag.edgeTarget(out[0])];
      }
    }
    List<List<Integer>> orders = new ArrayList<>();
    for (int c = 0; c < cores; c++) {
      orders.add(new ArrayList<>());
    }
    for (int vertex : topological) {
      orders.get(coreOf[vertex]).add(vertex);
    }
    int[][] orderArrays = new int[cores][];
    for (int c = 0; c < cores; c++) {
      orderArrays[c] = orders.get(c).stream().mapToInt(Integer::intValue).toArray();
    }
    return new SimplePlan(srdag, cores, coreOf, orderArrays, strategy);
  }

  /** Kahn's algorithm, always taking the lowest-numbered ready vertex first: deterministic. */
  public static int[] topologicalOrder(Srdag srdag) {
    int n = srdag.vertexCount();
    int[] pending = new int[n];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      pending[srdag.edgeTarget(e)]++;
    }
    java.util.PriorityQueue<Integer> ready = new java.util.PriorityQueue<>();
    for (int v = 0; v < n; v++) {
      if (pending[v] == 0) {
        ready.add(v);
      }
    }
    int[] order = new int[n];
    int count = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      order[count++] = v;
      for (int e : srdag.outgoingEdges(v)) {
        if (--pending[srdag.edgeTarget(e)] == 0) {
          ready.add(srdag.edgeTarget(e));
        }
      }
    }
    if (count != n) {
      throw new IllegalStateException("the single-rate graph has a cycle");
    }
    return order;
  }

  private record SimplePlan(Srdag srdag, int cores, int[] coreOfVertex, int[][] orders, Strategy strategy)
      implements ExecutionPlan {

    @Override
    public int coreOf(int vertex) {
      return coreOfVertex[vertex];
    }

    @Override
    public int[] order(int core) {
      return orders[core].clone();
    }
  }
}
