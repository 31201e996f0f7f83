package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cacheflow.model.Actor;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** The mapping refinement for pipelined iterations. */
class BalancerTest {

  /** A pipeline a -> b -> c -> d, one firing each. */
  private static Srdag pipeline() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    Actor d = top.actor("d");
    connect(top, a, "out", 1, b, "in", 1);
    connect(top, b, "out", 1, c, "in", 1);
    connect(top, c, "out", 1, d, "in", 1);
    return expand(top);
  }

  private static ScenarioBuilder times(long each) {
    ScenarioBuilder scenario = new ScenarioBuilder();
    for (String actor : new String[] {"a", "b", "c", "d"}) {
      scenario.time(actor, "generic", Long.toString(each));
    }
    return scenario;
  }

  private static TargetCache target(long handoffNanos, double unitNanos) {
    return CoreCountTest.target(handoffNanos, 0, unitNanos);
  }

  private static String firings(Schedule schedule, int core) {
    return CoreCountTest.firings(schedule, core);
  }

  /** The two cores' firings, the one that runs a first: "a b | c d". */
  private static String stages(Schedule schedule) {
    String zero = firings(schedule, 0);
    String one = firings(schedule, 1);
    return zero.startsWith("a") ? zero + " | " + one : one + " | " + zero;
  }

  private static MemoryPlan plan(Srdag srdag, MappingInputs inputs, TargetCache target, GlobalStrategy strategy) {
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target).withStrategy(strategy));
  }

  /**
   * Four firings of 10: the list schedule runs the chain on core 0 (on core 1 each would finish no earlier; ties
   * go to the lower core) and leaves core 1 idle: period 40. Moving one end of the chain to core 1 gives 30, then its
   * neighbour: one core runs a b of iteration i while the other runs c d of iteration i - 1 (the search tries a
   * first, on an equal fit: the first vertex; then b). No move lowers 20.
   */
  @Test
  void aPipelineOnOneCoreIsSplitInTwoStages() {
    Srdag srdag = pipeline();
    MappingInputs inputs = inputs(srdag, 2, times(10).build());
    Schedule list = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 20);
    assertEquals("a b c d", firings(list, 0), "the list schedule this test starts from");
    assertEquals("", firings(list, 1));

    MemoryPlan plan = plan(srdag, inputs, target(400, 0), GlobalStrategy.HOMEFORWARD);
    assertEquals("a b | c d", stages(plan.schedule()));
    assertTrue(plan.notes().contains(new PlanNote.Balanced(40, 20, false, 2, 0)), plan.notes().toString());
  }

  /**
   * With a 1 ns unit and 1000 ns firings, hand-offs of 400 ns: core 0 runs a b and raises c's input (1 event),
   * core 1 waits for it before c (1 event): each 2400 ns, against 4000 on one core. With 3000 ns hand-offs a move
   * costs more than it shares (d alone on core 1: 1000 + 3000 on each core, above 4000): the mapping stays.
   */
  @Test
  void handOffsAreWeighedWhenTheUnitIsKnown() {
    Srdag srdag = pipeline();
    MappingInputs inputs = inputs(srdag, 2, times(1000).build());
    MemoryPlan cheap = plan(srdag, inputs, target(400, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals("a b | c d", stages(cheap.schedule()));
    PlanNote.Balanced balanced = (PlanNote.Balanced) cheap.notes().get(0);
    assertTrue(balanced.micros(), cheap.notes().toString());
    assertEquals(4.00, balanced.before(), 0.005, cheap.notes().toString());
    assertEquals(2.40, balanced.after(), 0.005, cheap.notes().toString());

    Schedule list = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 20);
    Balancer.Result dear = Balancer.balance(list, inputs, target(3000, 1).costs(), 64);
    assertSame(list, dear.schedule());
    assertNull(dear.note());
  }

  @Test
  void mappingConstraintsAreKept() {
    Srdag srdag = pipeline();
    // c and d may run on Core0 only, a and b anywhere: a moves to Core1 (period 30: b c d), then b (20)
    MappingInputs inputs = inputs(srdag, 2, times(10).allow("Core0", "a", "b", "c", "d").allow("Core1", "a", "b")
        .build());
    Schedule list = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 20);
    Balancer.Result result = Balancer.balance(list, inputs, target(400, 0).costs(), 64);
    assertEquals("c d", firings(result.schedule(), 0));
    for (int v = 0; v < srdag.vertexCount(); v++) {
      int actor = srdag.vertexActor(v);
      if (actor >= 0) {
        assertTrue(inputs.allowed(actor, result.schedule().coreOf(v)), srdag.vertexName(v));
      }
    }
    assertEquals("a b", firings(result.schedule(), 1));
  }

  @Test
  void untimedGraphsAndOneCoreAreLeftAlone() {
    Srdag srdag = pipeline();
    MappingInputs untimed = inputs(srdag, 2, null);
    Schedule list = ListScheduler.schedule(srdag, untimed, MappingPolicy.LOAD_BALANCE, 1 << 20);
    assertSame(list, Balancer.balance(list, untimed, target(400, 0).costs(), 64).schedule());
    MappingInputs one = inputs(srdag, 1, times(10).build());
    Schedule single = ListScheduler.schedule(srdag, one, MappingPolicy.LOAD_BALANCE, 1 << 20);
    assertSame(single, Balancer.balance(single, one, target(400, 0).costs(), 64).schedule());
  }

  @Test
  void theBaselineKeepsTheListSchedule() {
    Srdag srdag = pipeline();
    MappingInputs inputs = inputs(srdag, 2, times(10).build());
    MemoryPlan plan = plan(srdag, inputs, target(400, 0), GlobalStrategy.BASELINE);
    assertEquals("a b c d", firings(plan.schedule(), 0));
    assertTrue(plan.notes().stream().noneMatch(n -> n.rule() == PlanNote.Rule.BALANCED), plan.notes().toString());
  }
}
