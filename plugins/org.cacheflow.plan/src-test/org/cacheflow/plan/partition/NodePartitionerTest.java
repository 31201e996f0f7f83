package org.cacheflow.plan.partition;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.vertex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cacheflow.model.Actor;
import org.cacheflow.model.Fifo;
import org.cacheflow.model.PersistenceLevel;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.PlanFixtures;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;

/**
 * The node partitioner on graphs small enough to partition by hand: every actor takes 100 time units, tokens are
 * bytes.
 */
class NodePartitionerTest {

  private static MappingInputs inputs(Srdag srdag, int nodes, int cores) {
    return PlanFixtures.inputs(srdag, Platform.generic(nodes, cores));
  }

  /**
   * Two chains a1 -> a2 -> a3 and b1 -> b2 -> b3 of 1000-byte FIFOs, bridged by a2 -> b2 (10 bytes). On 2 nodes
   * each takes 300: a 3-3 split that keeps both chains whole cuts only the bridge (10 B); any other 3-3 split cuts a
   * 1000-byte FIFO. The topological order interleaves the chains (a1 b1 a2 | b2 a3 b3 cuts 2010 B), so refinement
   * must trade a3 and b1.
   */
  private static Srdag twoChains() {
    TestGraph top = TestGraph.named("top");
    Actor a1 = top.actor("a1");
    Actor a2 = top.actor("a2");
    Actor a3 = top.actor("a3");
    Actor b1 = top.actor("b1");
    Actor b2 = top.actor("b2");
    Actor b3 = top.actor("b3");
    connect(top, a1, "o", 1000, a2, "i", 1000);
    connect(top, a2, "o", 1000, a3, "i", 1000);
    connect(top, b1, "o", 1000, b2, "i", 1000);
    connect(top, b2, "o", 1000, b3, "i", 1000);
    connect(top, a2, "bridge", 10, b2, "bridge", 10);
    return expand(top);
  }

  @Test
  void twoChainsSplitAlongTheBridge() {
    Srdag srdag = twoChains();
    NodePartition partition = NodePartitioner.partition(srdag, inputs(srdag, 2, 1));
    assertEquals(10, partition.cutBytes(), partition.toString());
    assertEquals(1, partition.cutMessages());
    assertEquals(300, partition.load(0));
    assertEquals(300, partition.load(1));
    int a = partition.nodeOf(vertex(srdag, "top/a1_0"));
    for (String name : List.of("top/a2_0", "top/a3_0")) {
      assertEquals(a, partition.nodeOf(vertex(srdag, name)), name);
    }
    int b = partition.nodeOf(vertex(srdag, "top/b1_0"));
    assertNotEquals(a, b);
    for (String name : List.of("top/b2_0", "top/b3_0")) {
      assertEquals(b, partition.nodeOf(vertex(srdag, name)), name);
    }
    assertEquals(10, partition.bytes(a, b));
    assertEquals(0, partition.bytes(b, a));
  }

  @Test
  void aPipelineIsCutAtItsSmallestFifo() {
    // src -1000-> f1 -10-> f2 -1000-> f3: the balanced 2-2 split {src, f1} | {f2, f3} cuts 10 B; every other
    // 2-2 split cuts a 1000-byte FIFO
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor f1 = top.actor("f1");
    Actor f2 = top.actor("f2");
    Actor f3 = top.actor("f3");
    connect(top, src, "o", 1000, f1, "i", 1000);
    connect(top, f1, "o", 10, f2, "i", 10);
    connect(top, f2, "o", 1000, f3, "i", 1000);
    Srdag srdag = expand(top);
    NodePartition partition = NodePartitioner.partition(srdag, inputs(srdag, 2, 2));
    assertEquals(10, partition.cutBytes(), partition.toString());
    assertEquals(partition.nodeOf(vertex(srdag, "top/src_0")), partition.nodeOf(vertex(srdag, "top/f1_0")));
    assertEquals(partition.nodeOf(vertex(srdag, "top/f2_0")), partition.nodeOf(vertex(srdag, "top/f3_0")));
    assertEquals(200, partition.load(0));
    assertEquals(200, partition.load(1));
  }

  @Test
  void threeIndependentChainsTakeOneNodeEach() {
    // a1 -> a2, b1 -> b2, c1 -> c2 (100 bytes each) on 3 nodes: 200 each and nothing cut
    TestGraph top = TestGraph.named("top");
    for (String chain : List.of("a", "b", "c")) {
      connect(top, top.actor(chain + "1"), "o", 100, top.actor(chain + "2"), "i", 100);
    }
    Srdag srdag = expand(top);
    NodePartition partition = NodePartitioner.partition(srdag, inputs(srdag, 3, 1));
    assertEquals(0, partition.cutBytes(), partition.toString());
    for (int n = 0; n < 3; n++) {
      assertEquals(200, partition.load(n));
    }
  }

  @Test
  void heavierNodesTakeMoreLoad() {
    // 6 independent firings of 100 on a node of 2 cores and a node of 1 core: 400 and 200
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 6, top.actor("work"), "i", 1);
    Srdag srdag = expand(top);
    List<org.cacheflow.plan.mapping.Core> cores = List.of(new org.cacheflow.plan.mapping.Core(0, "Core0",
        Platform.GENERIC_TYPE, 0), new org.cacheflow.plan.mapping.Core(1, "Core1", Platform.GENERIC_TYPE, 0),
        new org.cacheflow.plan.mapping.Core(2, "Core2", Platform.GENERIC_TYPE, 1));
    MappingInputs inputs = PlanFixtures.inputs(srdag, new Platform(cores));
    NodePartition partition = NodePartitioner.partition(srdag, inputs);
    // src (100) and the fork (1) are with two thirds of the load: the work on node 1 is at most its share + 10%
    long total = partition.load(0) + partition.load(1);
    assertEquals(701, total);
    assertTrue(partition.load(1) <= Math.ceil(total / 3.0 * 1.1), partition.toString());
    assertTrue(partition.load(1) >= 100, partition.toString());
  }

  @Test
  void partitioningIsDeterministic() {
    Srdag srdag = twoChains();
    NodePartition first = NodePartitioner.partition(srdag, inputs(srdag, 2, 1));
    for (int i = 0; i < 3; i++) {
      assertArrayEquals(first.nodeOfVertices(), NodePartitioner.partition(twoChains(), inputs(srdag, 2, 1))
          .nodeOfVertices());
    }
  }

  /**
   * src -1000-> acc (a fork gives each of acc's 4 firings 250 B), and acc's state (1 byte) from one firing to the
   * next through a persistent delay: init -> acc_0 -> acc_1 -> acc_2 -> acc_3 -> end. Loads: src 100, fork 1, acc_i
   * 100, init and end 1: 603, 332 tolerated per node. Unconstrained, {src, fork, init, acc_0, acc_1} | {acc_2, acc_3,
   * end} cuts 501 B (two fork outputs, one state FIFO) with init and end apart. The delay's state stays on one node:
   * init, end, acc_0 and acc_3 together (202); with src and the fork (303) that leaves {acc_1, acc_2} (200) for the
   * other node, cutting two fork outputs and two state FIFOs: 502 B, the best split that keeps them together (the
   * group with acc_1 or acc_2 instead cuts three fork outputs).
   */
  @Test
  void aPersistentDelayStaysOnOneNode() {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor acc = top.actor("acc");
    connect(top, src, "o", 1000, acc, "i", 250);
    Fifo state = top.fifo(TestGraph.out(acc, "so", "1"), TestGraph.in(acc, "si", "1"), "char", 8);
    TestGraph.delay(state, "1", PersistenceLevel.PERMANENT);
    Srdag srdag = expand(top);
    assertEquals(1, srdag.persistentDelayCount());
    NodePartition partition = NodePartitioner.partition(srdag, inputs(srdag, 2, 1));
    int init = srdag.persistentInit(0);
    int end = srdag.persistentEnd(0);
    assertEquals(partition.nodeOf(init), partition.nodeOf(end));
    assertEquals(partition.nodeOf(init), partition.nodeOf(vertex(srdag, "top/acc_0")));
    assertEquals(partition.nodeOf(init), partition.nodeOf(vertex(srdag, "top/acc_3")));
    assertEquals(502, partition.cutBytes(), partition.toString());
  }

  @Test
  void moreNodesThanTheGraphCanUseIsAnError() {
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 8, top.actor("snk"), "i", 8);
    Srdag srdag = expand(top);
    InputException e = assertThrows(InputException.class,
        () -> NodePartitioner.partition(srdag, inputs(srdag, 3, 1)));
    assertTrue(e.getMessage().contains("3 nodes") && e.getMessage().contains("at most 2"), e.getMessage());
    assertTrue(e.describe().startsWith(TestGraph.FILE + ":"), e.describe());
    // two nodes it can use
    assertEquals(2, NodePartitioner.partition(srdag, inputs(srdag, 2, 1)).nodes());
  }
}
