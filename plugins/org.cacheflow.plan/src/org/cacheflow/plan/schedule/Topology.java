package org.cacheflow.plan.schedule;

import java.util.Arrays;

import org.cacheflow.analysis.srdag.Srdag;

/**
 * Adjacency of a single-rate graph in compressed rows, and a topological order: what the scheduler, the
 * classifier and the distance computation walk, without copying edge lists per vertex. Immutable.
 */
public final class Topology {

  private final Srdag srdag;
  private final int[] outOffsets;
  private final int[] outEdges;
  private final int[] inOffsets;
  private final int[] inEdges;
  private final int[] topological;

  private Topology(Srdag srdag) {
    this.srdag = srdag;
    int vertices = srdag.vertexCount();
    int edges = srdag.edgeCount();
    outOffsets = new int[vertices + 1];
    inOffsets = new int[vertices + 1];
    for (int e = 0; e < edges; e++) {
      outOffsets[srdag.edgeSource(e) + 1]++;
      inOffsets[srdag.edgeTarget(e) + 1]++;
    }
    for (int v = 0; v < vertices; v++) {
      outOffsets[v + 1] += outOffsets[v];
      inOffsets[v + 1] += inOffsets[v];
    }
    outEdges = new int[edges];
    inEdges = new int[edges];
    int[] outFill = Arrays.copyOf(outOffsets, vertices);
    int[] inFill = Arrays.copyOf(inOffsets, vertices);
    for (int e = 0; e < edges; e++) {
      outEdges[outFill[srdag.edgeSource(e)]++] = e;
      inEdges[inFill[srdag.edgeTarget(e)]++] = e;
    }
    topological = new int[vertices];
    int[] pending = new int[vertices];
    int head = 0;
    int tail = 0;
    for (int v = 0; v < vertices; v++) {
      pending[v] = inOffsets[v + 1] - inOffsets[v];
      if (pending[v] == 0) {
        topological[tail++] = v;
      }
    }
    while (head < tail) {
      int v = topological[head++];
      for (int i = outOffsets[v]; i < outOffsets[v + 1]; i++) {
        int t = srdag.edgeTarget(outEdges[i]);
        if (--pending[t] == 0) {
          topological[tail++] = t;
        }
      }
    }
    if (tail != vertices) {
      throw new IllegalStateException("the single-rate graph has a cycle");
    }
  }

  public static Topology of(Srdag srdag) {
    return new Topology(srdag);
  }

  public Srdag srdag() {
    return srdag;
  }

  public int outDegree(int vertex) {
    return outOffsets[vertex + 1] - outOffsets[vertex];
  }

  public int inDegree(int vertex) {
    return inOffsets[vertex + 1] - inOffsets[vertex];
  }

  /** The i-th edge leaving the vertex, in creation order. */
  public int outEdge(int vertex, int i) {
    return outEdges[outOffsets[vertex] + i];
  }

  /** The i-th edge entering the vertex, in creation order. */
  public int inEdge(int vertex, int i) {
    return inEdges[inOffsets[vertex] + i];
  }

  /** The vertex at a position of a topological order (sources first). */
  public int topological(int position) {
    return topological[position];
  }
}
