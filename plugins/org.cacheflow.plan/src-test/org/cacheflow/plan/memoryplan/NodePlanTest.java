package org.cacheflow.plan.memoryplan;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.model.Actor;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Network;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.Strategy;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** Plans on several nodes: partition, network time, buffers crossing nodes. */
class NodePlanTest {

  @Test
  void aTransferBetweenNodesTakesTheNetworksTime() {
    // src -4000-> snk on 2 nodes of 1 core: one each (both on one node would be 200 against a share of 100), and
    // the 4000 bytes take 1000 + 4000 / 4 = 2000 on the loopback network: 100 + 2000 + 100
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 4000, top.actor("snk"), "i", 4000);
    Srdag srdag = expand(top);
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2, 1)),
        TargetCache.GENERIC));
    NodeInvariants.check(plan);
    PlanInvariants.check(plan);
    assertEquals(2200, plan.partition().predictedTime());
    assertEquals(4000, plan.partition().cutBytes());
    assertEquals(1, plan.partition().cutMessages());
    assertEquals(Strategy.SEND, plan.buffer(0).strategy());
    assertEquals(8000, plan.buffer(0).footprintBytes(), "the sender's buffer and the receiver's copy");
    // a network ten times faster: 1000 + 4000 / 40
    MemoryPlan fast = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2, 1)
        .withNetwork(new Network(1000, 40))), TargetCache.GENERIC));
    assertEquals(1300, fast.partition().predictedTime());
    // the same loopback for a scenario in microseconds: 1 + ceil(4000 / 4000)
    assertEquals(new Network(1, 4000.0), Network.loopback(1e-6));
    MemoryPlan micro = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2, 1)
        .withNetwork(Network.loopback(1e-6))), TargetCache.GENERIC));
    assertEquals(202, micro.partition().predictedTime());
  }

  @Test
  void oneNodeOfTwoCoresPlansAsTwoCores() {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    connect(top, src, "o", 4096, top.actor("work"), "i", 1024);
    connect(top, src, "p", 64, top.actor("side"), "i", 64);
    Srdag srdag = expand(top);
    MemoryPlan cores = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2)),
        TargetCache.GENERIC));
    MemoryPlan node = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(1, 2)),
        TargetCache.GENERIC));
    for (int e = 0; e < srdag.edgeCount(); e++) {
      assertEquals(cores.buffer(e), node.buffer(e));
    }
    assertEquals(cores.schedule().toString(), node.schedule().toString());
    assertEquals(1, node.partition().nodes());
    assertEquals(0, node.partition().cutBytes());
    assertEquals(node.schedule().makespan(), node.partition().predictedTime());
  }

  @Test
  void mergedBuffersUsedOnAnotherNodeGetMemoryOfTheirOwn() {
    // src -4096-> fork -> 4 x work (1024 B each): the fork's outputs are merged into its input by its default
    // memory script; on 2 nodes the outputs read on the other node are sent, never aliased
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 4096, top.actor("work"), "i", 1024);
    Srdag srdag = expand(top);
    for (GlobalStrategy strategy : GlobalStrategy.values()) {
      MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2, 1)),
          TargetCache.GENERIC).withStrategy(strategy));
      NodeInvariants.check(plan);
      PlanInvariants.check(plan);
      long sends = plan.buffers().stream().filter(b -> b.strategy() == Strategy.SEND).count();
      assertTrue(sends >= 1, strategy + ": " + plan.partition());
      if (strategy == GlobalStrategy.AUTO) {
        assertTrue(plan.buffers().stream().anyMatch(b -> b.strategy() == Strategy.ALIAS), "the fork's outputs on "
            + "its own node stay merged");
      }
    }
  }

  @Test
  void specialVertexOperatorsOnOneNodeDoNotPinTheDelaysOfTheOther() {
    // acc (4 firings, a persistent 1-byte state) is constrained to Core1, src to Core0, and the scenario's
    // special-vertex operators name only Core0: the delay's init and end still go with acc to node 1
    TestGraph top = TestGraph.named("top");
    Actor acc = top.actor("acc");
    connect(top, top.actor("src"), "o", 1000, acc, "i", 250);
    org.cacheflow.model.Fifo state = top.fifo(TestGraph.out(acc, "so", "1"), TestGraph.in(acc, "si", "1"), "char", 8);
    TestGraph.delay(state, "1", org.cacheflow.model.PersistenceLevel.PERMANENT);
    Srdag srdag = expand(top);
    MappingInputs pinned = MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(2, 1),
        new PlanFixtures.ScenarioBuilder().allow("Core0", "src").allow("Core1", "acc").build(), List.of("Core0"),
        new Diagnostics());
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(pinned, TargetCache.GENERIC));
    NodeInvariants.check(plan);
    PlanInvariants.check(plan);
    assertEquals(1, plan.partition().nodeOf(srdag.persistentInit(0)));
    assertEquals(1, plan.partition().nodeOf(srdag.persistentEnd(0)));
    assertEquals(0, plan.partition().nodeOf(PlanFixtures.vertex(srdag, "top/src_0")));
  }

  /** src -2 GiB-> snk and a -8-> b: one MPI message carries at most 2^31 - 1 bytes. */
  private static Srdag largeBuffer() {
    TestGraph top = TestGraph.named("top");
    connect(top, top.actor("src"), "o", 1L << 31, top.actor("snk"), "i", 1L << 31);
    connect(top, top.actor("a"), "o", 8, top.actor("b"), "i", 8);
    return expand(top);
  }

  @Test
  void aBufferTooLargeForOneMessageStaysOnOneNode() {
    Srdag srdag = largeBuffer();
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, Platform.generic(2, 1)),
        TargetCache.GENERIC));
    NodeInvariants.check(plan);
    int large = PlanFixtures.edge(srdag, "top/src_0", "top/snk_0");
    assertEquals(plan.partition().nodeOf(srdag.edgeSource(large)), plan.partition().nodeOf(srdag.edgeTarget(large)));
    assertTrue(plan.partition().load(0) > 0 && plan.partition().load(1) > 0, plan.partition().toString());
  }

  @Test
  void aBufferTooLargeForOneMessageAcrossNodesIsAnError() {
    Srdag srdag = largeBuffer();
    MappingInputs pinned = MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(2, 1),
        new PlanFixtures.ScenarioBuilder().allow("Core0", "src", "a", "b").allow("Core1", "snk", "a", "b").build(),
        List.of(), new Diagnostics());
    InputException e = org.junit.jupiter.api.Assertions.assertThrows(InputException.class,
        () -> MemoryPlanner.plan(srdag, PlanRequest.of(pinned, TargetCache.GENERIC)));
    assertTrue(e.getMessage().contains("carries 2147483648 bytes") && e.getMessage().contains("2147483647"),
        e.getMessage());
    assertTrue(e.describe().startsWith(TestGraph.FILE + ":"), "at the FIFO's line: " + e.describe());
  }

  /** Every corpus graph on 2 and 3 nodes of 1 and 2 cores, under auto, cow and baseline. */
  @Test
  void everyCorpusGraphKeepsMemoryOnOneNode() throws IOException {
    List<CorpusPlanTest.Case> cases = CorpusPlanTest.cases();
    List<String> tooManyNodes = new ArrayList<>();
    int plans = 0;
    for (CorpusPlanTest.Case c : cases) {
      for (int nodes : new int[] {2, 3}) {
        for (int cores : new int[] {1, 2}) {
          MappingInputs inputs = c.on(Platform.generic(nodes, cores));
          for (GlobalStrategy strategy : List.of(GlobalStrategy.AUTO, GlobalStrategy.COW, GlobalStrategy.BASELINE)) {
            MemoryPlan plan;
            try {
              plan = MemoryPlanner.plan(c.srdag(), PlanRequest.of(inputs, TargetCache.ZEN4_VM).withStrategy(strategy)
                  .withFacts(c.facts()));
            } catch (InputException e) {
              assertTrue(e.getMessage().contains("can use at most"), c.name() + ": " + e.describe());
              tooManyNodes.add(c.name() + " on " + nodes);
              continue;
            }
            try {
              NodeInvariants.check(plan);
              PlanInvariants.check(plan);
            } catch (AssertionError e) {
              throw new AssertionError(c.name() + " on " + nodes + " x " + cores + " (" + strategy.label + "): "
                  + e.getMessage(), e);
            }
            plans++;
          }
        }
      }
    }
    assertTrue(plans >= cases.size() * 6, plans + " plans; refused: " + tooManyNodes);
  }
}
