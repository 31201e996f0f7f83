package org.cacheflow.plan.memoryplan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.cacheflow.plan.strategy.Decision;

import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.Strategy;

/**
 * What every plan on several nodes must satisfy, as the code generator relies on it: a buffer crossing nodes is
 * sent ({@code send}) and only those are; nothing shares memory across nodes (merge groups, copy-on-write views and
 * their sources each on one node); the partition is the schedule's and adds up.
 */
public final class NodeInvariants {

  private NodeInvariants() {
  }

  public static void check(MemoryPlan plan) {
    Srdag srdag = plan.srdag();
    Schedule schedule = plan.schedule();
    Platform platform = plan.platform();
    NodePartition partition = plan.partition();
    assertEquals(platform.nodes(), partition.nodes());
    for (int v = 0; v < srdag.vertexCount(); v++) {
      assertEquals(partition.nodeOf(v), platform.nodeOf(schedule.coreOf(v)), "vertex " + srdag.vertexName(v)
          + " runs on a core of its node");
    }
    long[][] sent = new long[platform.nodes()][platform.nodes()];
    for (BufferPlan b : plan.buffers()) {
      String what = "edge " + b.edge() + " " + srdag.vertexName(b.producer()) + " -> " + srdag.vertexName(b.consumer())
          + " (" + b.strategyLabel() + ": " + b.decision() + ")";
      int from = platform.nodeOf(b.producerCore());
      int to = platform.nodeOf(b.consumerCore());
      assertEquals(from != to, b.strategy() == Strategy.SEND, what + ": sent exactly when it crosses nodes");
      if (b.strategy() == Strategy.SEND) {
        assertEquals(-1, b.mergeRoot(), what + ": a sent buffer is in no merge group");
        assertEquals(-1, plan.viewSource(b.edge()), what + ": a sent buffer is no view");
        assertEquals(Decision.Rule.SEND, b.decision().rule(), what);
        sent[from][to] += b.bytes();
      }
      int root = plan.classification().mergeRoot(b.edge());
      if (root >= 0) {
        for (int vertex : new int[] {srdag.edgeSource(root), srdag.edgeTarget(root), b.producer(), b.consumer()}) {
          assertEquals(from, partition.nodeOf(vertex), what + ": its merge group (root edge " + root
              + ") is used on one node");
        }
      }
      int source = plan.viewSource(b.edge());
      if (source >= 0) {
        assertEquals(Strategy.COW, b.strategy(), what);
        for (int vertex : new int[] {srdag.edgeSource(source), b.producer(), b.consumer()}) {
          assertEquals(from, partition.nodeOf(vertex), what + ": a view and its source (edge " + source
              + ") are on one node");
        }
      }
    }
    for (int from = 0; from < platform.nodes(); from++) {
      for (int to = 0; to < platform.nodes(); to++) {
        assertEquals(sent[from][to], partition.bytes(from, to), "bytes sent from node " + from + " to node " + to);
      }
    }
    assertEquals(schedule.makespan(), partition.predictedTime());
  }
}
