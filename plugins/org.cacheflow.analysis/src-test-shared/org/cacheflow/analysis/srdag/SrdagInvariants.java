package org.cacheflow.analysis.srdag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.cacheflow.model.ActorKind;
import org.cacheflow.analysis.FlatActor;
import org.cacheflow.analysis.FlatFifo;
import org.cacheflow.analysis.FlatGraph;
import org.cacheflow.analysis.FlatPort;

/** Checks that an SRDAG is a correct single-rate expansion of its flat graph, whatever its shape. */
public final class SrdagInvariants {

  private SrdagInvariants() {
  }

  public static void check(Srdag dag) {
    FlatGraph graph = dag.flatGraph();
    // every firing reads and writes exactly its port rates on every connected port
    Map<Long, Long> tokensAt = new HashMap<>();
    for (int e = 0; e < dag.edgeCount(); e++) {
      assertTrue(dag.edgeTokens(e) > 0, "edge " + e + " carries no tokens");
      tokensAt.merge(key(dag.edgeSource(e), dag.edgeFifo(e), true), dag.edgeTokens(e), Long::sum);
      tokensAt.merge(key(dag.edgeTarget(e), dag.edgeFifo(e), false), dag.edgeTokens(e), Long::sum);
    }
    long firings = 0;
    for (FlatActor actor : graph.actors()) {
      for (long k = 0; k < actor.repetitions(); k++) {
        int vertex = dag.firingVertex(actor.index(), k);
        firings++;
        assertEquals(actor.index(), dag.vertexActor(vertex));
        assertEquals(k, dag.vertexFiring(vertex));
        for (FlatPort port : actor.ports()) {
          if (port.fifo() < 0 || !graph.fifo(port.fifo()).carriesTokens()) {
            continue;
          }
          long seen = tokensAt.getOrDefault(key(vertex, port.fifo(), !port.isInput()), 0L);
          assertEquals(port.rate(), seen, dag.vertexName(vertex) + " port " + port.name());
        }
      }
    }
    // inserted vertices conserve tokens; init / end carry the delay
    for (int v = 0; v < dag.vertexCount(); v++) {
      if (!dag.isInserted(v)) {
        continue;
      }
      FlatFifo fifo = graph.fifo(dag.vertexFifo(v));
      long in = tokensAt.getOrDefault(key(v, fifo.index(), false), 0L);
      long out = tokensAt.getOrDefault(key(v, fifo.index(), true), 0L);
      switch (dag.vertexKind(v)) {
        case FORK, JOIN -> assertEquals(in, out, dag.vertexName(v));
        case INIT -> assertEquals(fifo.delay(), out, dag.vertexName(v));
        case END -> assertEquals(fifo.delay(), in, dag.vertexName(v));
        default -> fail("inserted vertex of kind " + dag.vertexKind(v));
      }
    }
    assertEquals(firings, dag.vertexCount() - dag.countInsertedVertices());
    // names are unique
    Set<String> names = new HashSet<>();
    for (int v = 0; v < dag.vertexCount(); v++) {
      assertTrue(names.add(dag.vertexName(v)), "duplicate name " + dag.vertexName(v));
    }
    assertAcyclic(dag);
    for (int i = 0; i < dag.persistentDelayCount(); i++) {
      assertEquals(ActorKind.END, dag.vertexKind(dag.persistentEnd(i)));
      assertEquals(ActorKind.INIT, dag.vertexKind(dag.persistentInit(i)));
      assertEquals(dag.vertexFifo(dag.persistentEnd(i)), dag.vertexFifo(dag.persistentInit(i)));
    }
  }

  private static long key(int vertex, int fifo, boolean output) {
    return ((long) vertex << 32) | ((long) fifo << 1) | (output ? 1 : 0);
  }

  /** Kahn's algorithm must consume every vertex. */
  public static void assertAcyclic(Srdag dag) {
    int[] indegree = new int[dag.vertexCount()];
    for (int e = 0; e < dag.edgeCount(); e++) {
      indegree[dag.edgeTarget(e)]++;
    }
    int[] queue = new int[dag.vertexCount()];
    int tail = 0;
    for (int v = 0; v < dag.vertexCount(); v++) {
      if (indegree[v] == 0) {
        queue[tail++] = v;
      }
    }
    int head = 0;
    while (head < tail) {
      int v = queue[head++];
      for (int e : dag.outgoingEdges(v)) {
        if (--indegree[dag.edgeTarget(e)] == 0) {
          queue[tail++] = dag.edgeTarget(e);
        }
      }
    }
    assertEquals(dag.vertexCount(), tail, "the single-rate graph has a cycle");
  }
}
