package org.cacheflow.plan.strategy;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.cacheflow.model.Actor;
import org.cacheflow.model.ActorKind;
import org.cacheflow.model.MemoryAnnotation;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;

/** Per-FIFO overrides: parsing, matching, precedence, and the errors users see. */
class OverrideTest {

  /** src -bytes-> B (broadcast) -> c0 (READ_ONLY), c1 (may write); a -2 KiB-> fork -> d_0, d_1 (1 KiB each). */
  private static Srdag graph(long bytes) {
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor b = top.actor("Broadcast", ActorKind.BROADCAST);
    Actor c0 = top.actor("c0");
    Actor c1 = top.actor("c1");
    connect(top, src, "o", bytes, b, "in", bytes);
    connect(top, b, "out0", bytes, c0, "i", bytes, MemoryAnnotation.READ_ONLY);
    connect(top, b, "out1", bytes, c1, "i", bytes, MemoryAnnotation.NONE);
    Actor a = top.actor("a");
    Actor d = top.actor("d");
    connect(top, a, "o", 2048, d, "i", 1024, MemoryAnnotation.NONE);
    return expand(top);
  }

  private static MemoryPlan plan(Srdag srdag, String... overrides) {
    List<StrategyOverride> parsed = Arrays.stream(overrides).map(StrategyOverride::parse).toList();
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs(srdag, 1, null), TargetCache.ZEN4_VM)
        .withOverrides(parsed));
  }

  @Test
  void parsing() {
    StrategyOverride channel = StrategyOverride.parse("Cost/Broadcast*.out?=channel:4");
    assertEquals(Strategy.CHANNEL, channel.strategy());
    assertEquals(4, channel.slots());
    assertTrue(channel.matches("Cost/Broadcast2.out1"));
    assertTrue(!channel.matches("Cost/Broadcast2.out12"));
    assertEquals(PrestoreKind.CLEAN, StrategyOverride.parse("a.o=prestore-clean").prestore());
    assertEquals(null, StrategyOverride.parse("a.o=prestore").prestore(), "kind left to the reuse rule");
    assertTrue(StrategyOverride.parse("a.o = HomeForward").strategy() == Strategy.CHANNEL);
    assertTrue(assertThrows(OverrideException.class, () -> StrategyOverride.parse("a.o"))
        .getMessage().contains("must be 'actor.port=STRATEGY'"));
    assertTrue(assertThrows(OverrideException.class, () -> StrategyOverride.parse("a.o=teleport"))
        .getMessage().contains("unknown strategy 'teleport' (known: alias, direct, memcpy"));
    assertTrue(assertThrows(OverrideException.class, () -> StrategyOverride.parse("a=cow"))
        .getMessage().contains("names no port"));
    assertTrue(assertThrows(OverrideException.class, () -> StrategyOverride.parse("a.o=channel:0"))
        .getMessage().contains("slot count"));
    assertTrue(assertThrows(OverrideException.class, () -> StrategyOverride.parse("a.o=memcpy:2"))
        .getMessage().contains("only channel:K"));
  }

  @Test
  void anOverrideWinsAndTheLaterOneWinsOverTheEarlier() {
    Srdag srdag = graph(1 << 20);
    int out1 = edge(srdag, "top/Broadcast_0", "top/c1_0");
    assertEquals(Strategy.COW, plan(srdag).buffer(out1).strategy(), "auto shares a 1 MiB read-mostly copy");
    BufferPlan overridden = plan(srdag, "Broadcast.out1=ntm").buffer(out1);
    assertEquals(Strategy.NTM, overridden.strategy());
    assertTrue(overridden.overridden());
    assertEquals(new Decision.Overridden("Broadcast.out1=ntm", null, null), overridden.decision());
    assertEquals(Strategy.MEMCPY, plan(srdag, "Broadcast.out*=ntm", "c1.i=memcpy").buffer(out1).strategy(),
        "matched by the consumer's end, given later");
  }

  @Test
  void anUnknownFifoIsReportedWithTheNearestName() {
    OverrideException error = assertThrows(OverrideException.class, () -> plan(graph(4096), "Brodcast.out1=cow"));
    assertEquals("override 'Brodcast.out1=cow': no FIFO has an end 'Brodcast.out1'; did you mean 'Broadcast.out1'? "
        + "(FIFO ends are written actor.port as 'cacheflow inspect' prints them)", error.getMessage());
  }

  @Test
  void aStrategyThatCannotApplyIsReportedWithTheReason() {
    OverrideException small = assertThrows(OverrideException.class, () -> plan(graph(1000), "Broadcast.out1=cow"));
    assertEquals("Broadcast.out1 -> c1.i", small.fifo());
    assertEquals(OverrideRefusal.Rule.COW, small.refusal().rule(), small.getMessage());
    assertEquals(new CowRefusal.SmallerThanPage(4096, 1000), small.refusal().cow(), small.getMessage());
    OverrideException sameCore = assertThrows(OverrideException.class, () -> plan(graph(1000), "src.o=channel"));
    assertEquals(OverrideRefusal.Rule.SAME_CORE, sameCore.refusal().rule(), sameCore.getMessage());
    assertEquals(0, sameCore.refusal().core(), sameCore.getMessage());
    OverrideException notMerged = assertThrows(OverrideException.class, () -> plan(graph(1000), "c1.i=alias"));
    assertEquals(OverrideRefusal.Rule.NOT_MERGED, notMerged.refusal().rule(), notMerged.getMessage());
    OverrideException noCopy = assertThrows(OverrideException.class, () -> plan(graph(1000), "src.o=memcpy"));
    assertEquals(OverrideRefusal.Rule.NOTHING_COPIED, noCopy.refusal().rule(), noCopy.getMessage());
  }

  @Test
  void anOverrideApplyingToSomeBuffersOfAFifoSaysSo() {
    // a.o -> d.i has a_0 -> fork (written by a) and two fork slices (copies): ntm applies to the slices only
    Srdag srdag = graph(1000);
    MemoryPlan plan = plan(srdag, "d.i=ntm");
    assertEquals(Strategy.NTM, plan.buffer(edge(srdag, "explode_top/a_0_o", "top/d_1")).strategy());
    assertEquals(Strategy.ALIAS, plan.buffer(edge(srdag, "top/a_0", "explode_top/a_0_o")).strategy());
    assertEquals(List.of(new PlanNote.PartialOverride("d.i=ntm", 2, 3, plan.buffer(edge(srdag, "top/a_0",
        "explode_top/a_0_o")).fifo(), OverrideRefusal.of(OverrideRefusal.Rule.NOTHING_COPIED))), plan.notes());
  }
}
