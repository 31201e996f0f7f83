package org.cacheflow.codegen.build;

import java.util.PriorityQueue;

import org.cacheflow.analysis.srdag.Srdag;

/**
 * The single-rate graph has no cycle (the static orders of the cores exist); fails otherwise.
 */
final class AcyclicCheck {

  private AcyclicCheck() {
  }

  /** Kahn's algorithm, always taking the lowest-numbered ready vertex first: deterministic. */
  static int[] topologicalOrder(Srdag srdag) {
    int n = srdag.vertexCount();
    int[] pending = new int[n];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      pending[srdag.edgeTarget(e)]++;
    }
    PriorityQueue<Integer> ready = new PriorityQueue<>();
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
}
