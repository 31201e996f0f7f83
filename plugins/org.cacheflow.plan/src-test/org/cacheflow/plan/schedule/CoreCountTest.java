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
    return target(handoffNanos, 0, unitNanos);
  }

  private static TargetCache target(long handoffNanos, double lineNanos, double unitNanos) {
    MeasuredCosts m = MeasuredCosts.MEASURED;
    return new TargetCache("t", 32 << 10, 1 << 20, 32 << 20, 64, 4096, 2, new MeasuredCosts(m.cowReadOnlyMinBytes(),
        m.cowReadMostlyMinBytes(), m.ntmMinBytes(), m.prestoreMaxBytes(), handoffNanos, lineNanos, unitNanos));
  }

  /** The farm with tasks of {@code taskBytes} bytes: emit -> 4 x work -> collect, each work reads and writes one. */
  private static Srdag farm(long taskBytes) {
    TestGraph top = TestGraph.named("top");
    Actor emit = top.actor("emit");
    Actor work = top.actor("work");
    Actor collect = top.actor("collect");
    connect(top, emit, "out", 4 * taskBytes, work, "in", taskBytes);
    connect(top, work, "out", taskBytes, collect, "in", 4 * taskBytes);
    return expand(top);
  }

  /** Which actors' firings a core runs, e.g. "emit work work collect" (inserted fork and join left out). */
  private static String firings(Schedule schedule, int core) {
    StringBuilder names = new StringBuilder();
    for (int v : schedule.order(core)) {
      int actor = schedule.srdag().vertexActor(v);
      if (actor >= 0 && schedule.srdag().flatGraph().actor(actor).kind() == org.cacheflow.model.ActorKind.NORMAL) {
        names.append(names.length() == 0 ? "" : " ").append(schedule.srdag().flatGraph().actor(actor).name());
      }
    }
    return names.toString();
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

  /**
   * The farm 32x32 int of bench/home-forwarding in round figures: 4 KiB tasks (64 lines), emit 400 ns, work 1000 ns,
   * collect 400 ns, hand-offs 400 ns, 6 ns a line. One core: 400 + 4 x 1000 + 400 = 4800 ns (and the inserted fork
   * and join). Two: core 0 runs emit, two works and collect (2800 ns), raises the tasks of core 1 (1 event) and
   * waits for its two results (2 events): 1200 ns; it takes back the 2 x 64 lines of the tasks core 1 read and
   * pulls the 2 x 64 lines of core 1's results: 256 lines, 1536 ns. 2800 + 1200 + 1536 = 5536 > 4800: one core.
   * Without the lines, 4000 < 4800 would keep two.
   */
  @Test
  void theDataCoreOneWouldPullAndTakeBackDecidesForOneCore() {
    Srdag srdag = farm(4096);
    MappingInputs inputs = timed(srdag, 2, 400, 1000, 400);
    Schedule schedule = ListScheduler.schedule(srdag, inputs, org.cacheflow.plan.mapping.MappingPolicy.LOAD_BALANCE,
        1 << 20);
    assertEquals("emit work work collect", firings(schedule, 0), "the mapping the figures above assume");
    assertEquals("work work", firings(schedule, 1));
    CoreCount.Verdict verdict = CoreCount.check(schedule, inputs, target(400, 6, 1).costs(), 64);
    assertEquals(1, verdict.cores(), verdict.note());
    assertTrue(verdict.note().startsWith("mapped to 1 core instead of 2"), verdict.note());
    assertTrue(verdict.note().contains("3 hand-offs at 400 ns, and 256 cache lines"), verdict.note());
    assertTrue(verdict.note().contains("core 0 alone would take 5.5"), verdict.note());
    assertEquals(2, CoreCount.check(schedule, inputs, target(400, 0, 1).costs(), 64).cores(),
        "hand-offs alone do not outweigh the shared work");

    MemoryPlan plan = plan(srdag, inputs, target(400, 6, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(1, plan.schedule().coreCount(), "the planner maps it to one core");
    assertTrue(plan.notes().get(0).contains("256 cache lines"), plan.notes().toString());
  }

  /**
   * The same farm with 16 KiB tasks (256 lines) and four times the work (emit 1600, work 4000, collect 1600 ns, the
   * farm 64x64's proportions): one core 19200 ns; core 0 on two: 11200 + 1200 + 1024 lines x 6 ns = 6144, 18544 ns:
   * two cores still win, and the plan's note says by how much.
   */
  @Test
  void coarserTasksKeepBothCoresAndTheNoteSaysWhy() {
    Srdag srdag = farm(16384);
    MappingInputs inputs = timed(srdag, 2, 1600, 4000, 1600);
    MemoryPlan plan = plan(srdag, inputs, target(400, 6, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(2, plan.schedule().coreCount());
    assertTrue(plan.notes().get(0).startsWith("kept 2 cores"), plan.notes().toString());
    assertTrue(plan.notes().get(0).contains("1024 cache lines"), plan.notes().toString());
    assertEquals(1, CoreCount.check(plan.schedule(), inputs, target(400, 8, 1).costs(), 64).cores(),
        "at 8 ns a line (8192 ns of lines) core 0 would take 20592 ns: one core");
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
