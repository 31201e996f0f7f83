package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cacheflow.model.Actor;
import org.cacheflow.plan.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** When a graph cannot gain from more cores once the hand-offs between them are paid. */
class CoreCountTest {

  /** A farm: emit -> 4 work firings -> collect, with the given times (ns with a 1 ns time unit). */
  private static Srdag farm() {
    TestGraph top = TestGraph.named("top");
    Actor emit = top.actor("emit");
    Actor work = top.actor("work");
    Actor collect = top.actor("collect");
    connect(top, emit, "out", 4, work, "in", 1);
    connect(top, work, "out", 1, collect, "in", 4);
    return expand(top);
  }

  private static MappingInputs timed(Srdag srdag, int cores, long emit, long work, long collect) {
    return inputs(srdag, cores, new ScenarioBuilder().time("emit", "generic", Long.toString(emit))
        .time("work", "generic", Long.toString(work)).time("collect", "generic", Long.toString(collect)).build());
  }

  private static TargetCache target(long handoffNanos, double unitNanos) {
    MeasuredCosts m = MeasuredCosts.MEASURED;
    return new TargetCache("t", 32 << 10, 1 << 20, 32 << 20, 64, 4096, 2, new MeasuredCosts(m.cowReadOnlyMinBytes(),
        m.cowReadMostlyMinBytes(), m.ntmMinBytes(), m.prestoreMaxBytes(), handoffNanos, unitNanos));
  }

  private static MemoryPlan plan(Srdag srdag, MappingInputs inputs, TargetCache target, GlobalStrategy strategy) {
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target).withStrategy(strategy));
  }

  @Test
  void fineGrainedWorkStaysOnOneCoreAndThePlanSaysWhy() {
    Srdag srdag = farm();
    // 4 x 300 ns of work against 400 ns hand-offs: sharing it cannot pay
    MemoryPlan plan = plan(srdag, timed(srdag, 2, 100, 300, 100), target(400, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(1, plan.schedule().coreCount());
    assertTrue(plan.notes().get(0).startsWith("mapped to 1 core instead of 2"), plan.notes().toString());
    assertTrue(plan.notes().get(0).contains("400 ns"), plan.notes().toString());
  }

  @Test
  void coarseWorkKeepsBothCores() {
    Srdag srdag = farm();
    MemoryPlan plan = plan(srdag, timed(srdag, 2, 1000, 50_000, 1000), target(400, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(2, plan.schedule().coreCount());
    assertTrue(plan.notes().stream().noneMatch(n -> n.startsWith("mapped to 1 core")), plan.notes().toString());
  }

  @Test
  void theBaselineAndUnknownUnitsOrTimingsKeepTheCoresGiven() {
    Srdag srdag = farm();
    MappingInputs fine = timed(srdag, 2, 100, 300, 100);
    assertEquals(2, plan(srdag, fine, target(400, 1), GlobalStrategy.BASELINE).schedule().coreCount(),
        "the baseline is PREESM's code on the cores it is given");
    assertEquals(2, plan(srdag, fine, target(400, 0), GlobalStrategy.HOMEFORWARD).schedule().coreCount(),
        "no time unit: the work cannot be weighed against hand-offs");
    MappingInputs untimed = inputs(srdag, 2, null);
    Schedule schedule = ListScheduler.schedule(srdag, untimed, org.cacheflow.plan.mapping.MappingPolicy.LOAD_BALANCE,
        1 << 20);
    CoreCount.Verdict verdict = CoreCount.check(schedule, untimed, target(400, 1).costs());
    assertEquals(2, verdict.cores(), "default timings are not measurements");
    assertNull(verdict.note());
  }

  @Test
  void theCostGrowsWithTheHandOffs() {
    Srdag srdag = farm();
    MappingInputs inputs = timed(srdag, 2, 100, 2000, 100);
    Schedule schedule = ListScheduler.schedule(srdag, inputs, org.cacheflow.plan.mapping.MappingPolicy.LOAD_BALANCE,
        1 << 20);
    assertEquals(2, schedule.coreCount());
    assertEquals(2, CoreCount.check(schedule, inputs, target(100, 1).costs()).cores(), "cheap hand-offs: 2 cores win");
    assertEquals(1, CoreCount.check(schedule, inputs, target(5000, 1).costs()).cores(), "dear hand-offs: 1 core");
  }
}
