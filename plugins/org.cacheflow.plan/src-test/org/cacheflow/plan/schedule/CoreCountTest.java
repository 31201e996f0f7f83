package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToLongFunction;

import org.cacheflow.model.Actor;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.MeasuredCosts;
import org.cacheflow.plan.strategy.PlanNote;
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

  static TargetCache target(long handoffNanos, double lineNanos, double unitNanos) {
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

  /** The farm with 4 KiB tasks timed emit 400, work 1000, collect 400 ns, and its list schedule on two cores. */
  private record SmallFarm(Srdag srdag, MappingInputs inputs, Schedule schedule) {
  }

  private static SmallFarm smallFarm() {
    Srdag srdag = farm(4096);
    MappingInputs inputs = timed(srdag, 2, 400, 1000, 400);
    Schedule schedule = ListScheduler.schedule(srdag, inputs, org.cacheflow.plan.mapping.MappingPolicy.LOAD_BALANCE,
        1 << 20);
    assertEquals("emit work work", firings(schedule, 0), "the mapping the tests' figures assume");
    assertEquals("work work collect", firings(schedule, 1));
    return new SmallFarm(srdag, inputs, schedule);
  }

  /** Which actors' firings a core runs, e.g. "emit work work collect" (inserted fork and join left out). */
  static String firings(Schedule schedule, int core) {
    StringBuilder names = new StringBuilder();
    for (int v : schedule.order(core)) {
      int actor = schedule.srdag().vertexActor(v);
      if (actor >= 0 && schedule.srdag().flatGraph().actor(actor).kind() == org.cacheflow.model.ActorKind.NORMAL) {
        names.append(names.length() == 0 ? "" : " ").append(schedule.srdag().flatGraph().actor(actor).name());
      }
    }
    return names.toString();
  }

  /** The plan's note on its cores (mapped to 1 core, or kept), after any balancing note; null when none. */
  private static PlanNote.CoreVerdict verdict(MemoryPlan plan) {
    return plan.notes().stream().filter(n -> n instanceof PlanNote.CoreVerdict).map(n -> (PlanNote.CoreVerdict) n)
        .findFirst().orElse(null);
  }

  private static MemoryPlan plan(Srdag srdag, MappingInputs inputs, TargetCache target, GlobalStrategy strategy) {
    return plan(srdag, inputs, target, strategy, 0);
  }

  /** The same with the slots the user asks for ({@code --override slots=K}; 0: the planner's own rule). */
  private static MemoryPlan plan(Srdag srdag, MappingInputs inputs, TargetCache target, GlobalStrategy strategy,
      int slots) {
    return MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target).withStrategy(strategy).withSlots(slots));
  }

  @Test
  void fineGrainedWorkStaysOnOneCoreAndThePlanSaysWhy() {
    Srdag srdag = farm();
    // 4 x 300 ns of work against 400 ns hand-offs: sharing it cannot pay
    MemoryPlan plan = plan(srdag, timed(srdag, 2, 100, 300, 100), target(400, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(1, plan.schedule().coreCount());
    assertEquals(PlanNote.Rule.FEWER_CORES_COSTLY, verdict(plan).rule(), plan.notes().toString());
    assertEquals(2, verdict(plan).cores(), plan.notes().toString());
    assertEquals(400, verdict(plan).costs().handoffNanos(), plan.notes().toString());
  }

  @Test
  void coarseWorkKeepsBothCores() {
    Srdag srdag = farm();
    MemoryPlan plan = plan(srdag, timed(srdag, 2, 1000, 50_000, 1000), target(400, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(2, plan.schedule().coreCount());
    assertTrue(verdict(plan) == null || verdict(plan).rule() == PlanNote.Rule.KEPT_CORES, plan.notes().toString());
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
   * collect 400 ns, hand-offs 400 ns, 6 ns a line. One core: 400 + 4 x 1000 + 400 + the inserted fork and join
   * (1 ns each) = 4802 ns. Two: core 0 runs emit, the fork and two works (2401 ns), raises the tasks of core 1
   * (1 event) and hands its two results to core 1's join (2 events): 1200 ns; it takes back the 2 x 64 lines of
   * the tasks core 1 read and the 2 x 64 lines of its results core 1's collect read: 256 lines, 1536 ns.
   * 2401 + 1200 + 1536 = 5137 > 4802: one core. Without the lines, 3601 < 4802 would keep two. The planner gives
   * the farm's 16 KiB groups 64 slots, which together span the 1 MiB L2, and charges their lines as such (the next
   * test): so it keeps two cores unless the user asks for slots that do not (8 here, 128 KiB).
   */
  @Test
  void theDataCoreOneWouldPullAndTakeBackDecidesForOneCore() {
    SmallFarm farm = smallFarm();
    Srdag srdag = farm.srdag();
    MappingInputs inputs = farm.inputs();
    Schedule schedule = farm.schedule();
    CoreCount.Verdict verdict = CoreCount.check(schedule, inputs, target(400, 6, 1).costs(), 64);
    String why = String.valueOf(verdict.note());
    assertEquals(1, verdict.cores(), why);
    assertEquals(PlanNote.Rule.FEWER_CORES_COSTLY, verdict.note().rule(), why);
    assertEquals(List.of(3L, 400L, 256L), List.of(verdict.note().busiest().handoffs(),
        verdict.note().costs().handoffNanos(), verdict.note().busiest().lines()), why);
    assertEquals(0, verdict.note().busiest().core(), why);
    assertEquals(5.14, verdict.note().busiest().nanos() / 1e3, 0.005, why);
    assertEquals(2, CoreCount.check(schedule, inputs, target(400, 0, 1).costs(), 64).cores(),
        "hand-offs alone do not outweigh the shared work");

    MemoryPlan plan = plan(srdag, inputs, target(400, 6, 1), GlobalStrategy.HOMEFORWARD, 8);
    assertEquals(1, plan.schedule().coreCount(), "with 8 slots the planner maps it to one core");
    assertEquals(256, verdict(plan).busiest().lines(), plan.notes().toString());
    MemoryPlan spanning = plan(srdag, inputs, target(400, 6, 1), GlobalStrategy.HOMEFORWARD);
    assertEquals(2, spanning.schedule().coreCount(), "with its own 64 slots it keeps two: " + spanning.notes());
    assertEquals(256, verdict(spanning).busiest().spanningLines(), spanning.notes().toString());
  }

  /**
   * The farm above with the lines of merge groups whose slots span the L2 (bench/RESULTS.md, the runs of 2026-11-27
   * 14:50 UTC: about 0.3-0.4 ns
   * a line measured there, against 3 for a group the reader still holds): core 0's 256 lines at 0.5 ns instead of
   * 6 are 128 ns, so core 0 takes 2401 + 1200 + 128 = 3729 ns against 4802 on one core, and two cores stay.
   */
  @Test
  void linesOfGroupsWhoseSlotsSpanTheL2AreChargedTheirOwnCost() {
    SmallFarm farm = smallFarm();
    boolean[] spanning = new boolean[farm.srdag().edgeCount()];
    Arrays.fill(spanning, true);
    MeasuredCosts costs = target(400, 6, 1).costs();
    assertEquals(MeasuredCosts.SPANNING_LINE_NANOS, costs.spanningLineNanos(), "the measured figure by default");
    CoreCount.Verdict verdict = CoreCount.check(farm.schedule(), farm.inputs(), costs, 64,
        new MergeGroups(null, spanning));
    PlanNote.CoreVerdict kept = verdict.note();
    assertEquals(2, verdict.cores(), String.valueOf(kept));
    assertEquals(List.of(3L, 400L, 0L, 256L), List.of(kept.busiest().handoffs(), kept.costs().handoffNanos(),
        kept.busiest().lines(), kept.busiest().spanningLines()), String.valueOf(kept));
    assertEquals(List.of(6.0, 0.5), List.of(kept.costs().lineNanos(), kept.costs().spanningLineNanos()),
        String.valueOf(kept));
    assertEquals(3.73, kept.busiest().nanos() / 1e3, 0.005, String.valueOf(kept));
    boolean[] none = new boolean[farm.srdag().edgeCount()];
    assertEquals(1, CoreCount.check(farm.schedule(), farm.inputs(), costs, 64, new MergeGroups(null, none)).cores(),
        "no group spanning: the lines at 6 ns, as above");
  }

  /**
   * The planner marks a merge group as spanning the L2 when the slots it gets on several cores (GroupSlots) together
   * reach the target's L2 (1 MiB here): the farm's fork and join groups hold 4 tasks; with 64 KiB tasks (256 KiB, 4
   * slots) and with 4 KiB tasks (16 KiB, 64 slots) their lines are charged the spanning cost, with 1 KiB tasks (4 KiB,
   * at most 64 slots: 256 KiB) the line cost.
   */
  @Test
  void thePlannerChargesTheSpanningCostToGroupsWhoseSlotsReachTheL2() {
    assertEquals(4096, farmVerdict(64 << 10, 10).busiest().spanningLines());
    assertEquals(0.5, farmVerdict(64 << 10, 10).costs().spanningLineNanos());
    assertEquals(256, farmVerdict(4096, 1).busiest().spanningLines());
    PlanNote.CoreVerdict within = farmVerdict(1024, 1);
    assertEquals(0, within.busiest().spanningLines(), within.toString());
    assertTrue(within.busiest().lines() > 0 && within.costs().lineNanos() == 6, within.toString());
  }

  /** The verdict on the farm with tasks of {@code taskBytes}, timed emit 4, work 10, collect 4 us x {@code scale}. */
  private static PlanNote.CoreVerdict farmVerdict(long taskBytes, int scale) {
    Srdag farm = farm(taskBytes);
    MemoryPlan plan = plan(farm, timed(farm, 2, 4000L * scale, 10_000L * scale, 4000L * scale), target(400, 6, 1),
        GlobalStrategy.HOMEFORWARD);
    assertEquals(2, plan.schedule().coreCount(), plan.notes().toString());
    return verdict(plan);
  }

  /**
   * Slots the user asks for ({@code --override slots=K}, which generated code follows) are the plan's too: the farm
   * with 64 KiB tasks in groups of 256 KiB, asked for 2 slots (512 KiB, within the 1 MiB L2), has no spanning line and
   * each group's memory twice; asked for 8, eight times (4 by the plan's own rule, as above), spanning.
   */
  @Test
  void slotsTheUserAsksForAreThePlansMemoryAndLineCosts() {
    Srdag large = farm(64 << 10);
    PlanRequest request = PlanRequest.of(timed(large, 2, 40_000, 100_000, 40_000), target(400, 6, 1))
        .withStrategy(GlobalStrategy.HOMEFORWARD);
    for (int asked : new int[] {0, 2, 8}) {
      MemoryPlan plan = MemoryPlanner.plan(large, request.withSlots(asked));
      assertEquals(2, plan.schedule().coreCount(), plan.notes().toString());
      int expected = asked == 0 ? 4 : asked;
      int groups = 0;
      for (org.cacheflow.plan.memoryplan.BufferPlan buffer : plan.buffers()) {
        if (buffer.mergeRoot() == buffer.edge()) {
          groups++;
          assertEquals(expected, plan.groupSlots(buffer.edge()), "asked " + asked);
          assertEquals(expected * (256L << 10), buffer.footprintBytes(), "asked " + asked);
        }
      }
      assertEquals(2, groups, "the fork's and the join's group");
      assertEquals(asked != 2, verdict(plan).busiest().spanningLines() > 0, "asked " + asked
          + ": " + plan.notes());
    }
  }

  /**
   * The same farm with 16 KiB tasks (256 lines) and four times the work (emit 1600, work 4000, collect 1600 ns, the
   * farm 64x64's proportions): one core 19202 ns; each core on two (emit, fork and two works; two works, join and
   * collect): 9601 + 1200 + 1024 lines x 6 ns = 6144, 16945 ns: two cores win, and the plan's note says by how
   * much. (With 8 slots, asked: the planner's own 16 slots of the 64 KiB groups would span the L2.)
   */
  @Test
  void coarserTasksKeepBothCoresAndTheNoteSaysWhy() {
    Srdag srdag = farm(16384);
    MappingInputs inputs = timed(srdag, 2, 1600, 4000, 1600);
    MemoryPlan plan = plan(srdag, inputs, target(400, 6, 1), GlobalStrategy.HOMEFORWARD, 8);
    assertEquals(2, plan.schedule().coreCount());
    assertEquals(PlanNote.Rule.KEPT_CORES, verdict(plan).rule(), plan.notes().toString());
    assertEquals(1024, verdict(plan).busiest().lines(), plan.notes().toString());
    assertEquals(2, CoreCount.check(plan.schedule(), inputs, target(400, 7, 1).costs(), 64).cores(),
        "at 7 ns a line (7168 ns of lines) core 0 would take 17969 ns: 1.07x, two cores");
    CoreCount.Verdict close = CoreCount.check(plan.schedule(), inputs, target(400, 8, 1).costs(), 64);
    assertEquals(1, close.cores(), "at 8 ns a line (8192 ns of lines) core 0 would take 18993 ns: 1.01x, below the"
        + " 5% margin: one core");
    assertEquals(PlanNote.Rule.FEWER_CORES_WITHIN_MARGIN, close.note().rule(), String.valueOf(close.note()));
    assertEquals(1.01, close.note().workNanos() / close.note().periodNanos(), 0.005, String.valueOf(close.note()));
    assertEquals(0.05, close.note().margin(), String.valueOf(close.note()));
    assertEquals(1, CoreCount.check(plan.schedule(), inputs, target(400, 9, 1).costs(), 64).cores(),
        "at 9 ns a line (9216 ns of lines) core 0 would take 20017 ns: one core");
  }

  /**
   * The farm mapped as the list scheduler did before it broke ties by returns: emit, the fork, two works, the join
   * and collect on core 0, two works on core 1.
   */
  private static Schedule collectorWithTheEmitter(Srdag srdag, MappingInputs inputs) {
    return SteadyStateTest.handMapped(srdag, inputs, v -> {
      int actor = srdag.vertexActor(v);
      boolean work = actor >= 0 && srdag.flatGraph().actor(actor).name().equals("work");
      return work && srdag.vertexFiring(v) >= 2 ? 1 : 0;
    });
  }

  /**
   * Emit 400, work 1000, collect 400, fork and join 1 ns, hand-offs 400 ns, no lines. One core: 4802 ns. With the
   * collector on the emitter's core (emit, fork, work_0, work_1, join, collect on core 0; work_2, work_3 on core 1)
   * core 0 is busy 2802 ns + 3 hand-offs = 4002 ns, core 1 2000 + 3 = 3200 ns, but core 0's join waits for core 1's
   * works, which wait for core 0's fork: emit 400, fork 1 + 400 (raise), work_2 1000 + 800 (wait, raise), work_3
   * 1000 + 400, join 1 + 800 (two waits), collect 400: 5202 ns per iteration, a cycle across the cores that no
   * iteration overlaps; 5202 > 4802: one core. The scheduler's own mapping (emit, fork, work_0, work_2 on core 0;
   * work_1, work_3, join, collect on core 1) has no such cycle: 2401 + 1200 = 3601 ns per core, two cores.
   */
  @Test
  void aCycleAcrossTheCoresCostsItsLengthNotTheBusiestCoresTime() {
    Srdag srdag = farm();
    MappingInputs inputs = timed(srdag, 2, 400, 1000, 400);
    Schedule cyclic = collectorWithTheEmitter(srdag, inputs);
    assertEquals("emit work work collect", firings(cyclic, 0));
    CoreCount.Verdict verdict = CoreCount.check(cyclic, inputs, target(400, 1).costs());
    String why = String.valueOf(verdict.note());
    assertEquals(1, verdict.cores(), why);
    assertEquals(4.00, verdict.note().busiest().nanos() / 1e3, 0.005, why);
    assertEquals(List.of(new PlanNote.CycleStep(org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/emit_0"),
        0),
        new PlanNote.CycleStep(org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/work_2"), 1),
            new PlanNote.CycleStep(org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/work_3"), 1),
        new PlanNote.CycleStep(org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/collect_0"), 0)),
            verdict.note().cycle(), why);
    assertEquals(1, verdict.note().cycleIterations(), why);
    assertEquals(5.20, verdict.note().periodNanos() / 1e3, 0.005, why);
    assertEquals(5202, SteadyState.of(cyclic, durations(cyclic, 400)).period(), 1e-6);

    Schedule listed = ListScheduler.schedule(srdag, inputs, org.cacheflow.plan.mapping.MappingPolicy.LOAD_BALANCE,
        1 << 20);
    assertEquals("emit work work", firings(listed, 0));
    verdict = CoreCount.check(listed, inputs, target(400, 1).costs());
    why = String.valueOf(verdict.note());
    assertEquals(2, verdict.cores(), why);
    assertEquals(3.60, verdict.note().busiest().nanos() / 1e3, 0.005, why);
    assertNull(verdict.note().cycle(), why);
    assertEquals(3601, SteadyState.of(listed, durations(listed, 400)).period(), 1e-6);
  }

  /** Each vertex's time plus {@code handoff} per cross-core event, charged as CoreCount charges them. */
  private static double[] durations(Schedule schedule, long handoff) {
    Srdag srdag = schedule.srdag();
    double[] result = new double[srdag.vertexCount()];
    for (int v = 0; v < result.length; v++) {
      result[v] += schedule.end(v) - schedule.start(v);
      boolean[] raised = new boolean[schedule.coreCount()];
      for (int e : srdag.outgoingEdges(v)) {
        int t = srdag.edgeTarget(e);
        int other = schedule.coreOf(t);
        if (other != schedule.coreOf(v) && !raised[other]) {
          raised[other] = true;
          result[v] += handoff;
          int first = t;
          for (int f : srdag.outgoingEdges(v)) {
            int u = srdag.edgeTarget(f);
            if (schedule.coreOf(u) == other && schedule.position(u) < schedule.position(first)) {
              first = u;
            }
          }
          result[first] += handoff;
        }
      }
    }
    return result;
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

  /**
   * A core pulls a written buffer's lines once per iteration: emit (core 0) writes 4 KiB (64 lines) that a
   * broadcast hands to r1, r2 and r3 on core 1. Only the first reader pulls them (r1: 64 lines; r2 and r3 find them
   * in core 1's cache) and emit takes them back once (64), not three times. A fork's outputs are different bytes:
   * two 4 KiB slices of an 8 KiB buffer read on core 1 are 64 lines each, and emit takes back 128.
   */
  @Test
  void aBroadcastsLinesCrossOncePerCoreAForksSlicesEach() {
    TestGraph top = TestGraph.named("top");
    Actor emit = top.actor("emit");
    Actor copies = top.actor("copies", org.cacheflow.model.ActorKind.BROADCAST);
    connect(top, emit, "out", 4096, copies, "in", 4096);
    for (String r : new String[] {"r1", "r2", "r3"}) {
      connect(top, copies, "to" + r, 4096, top.actor(r), "in", 4096);
    }
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("emit", "generic", "1000")
        .time("r1", "generic", "1000").time("r2", "generic", "1000").time("r3", "generic", "1000").build());
    int ev = org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/emit_0");
    int bv = org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag, "top/copies_0");
    Schedule schedule = SteadyStateTest.handMapped(srdag, inputs, v -> v == ev || v == bv ? 0 : 1);
    long[] lines = CoreCount.charges(schedule, inputs, target(400, 6, 1).costs(), 64).lines();
    ToLongFunction<String> of = name -> lines[org.cacheflow.plan.memoryplan.PlanFixtures.vertex(
        srdag, name)];
    assertEquals(64, of.applyAsLong("top/emit_0"));
    assertEquals(64, of.applyAsLong("top/r1_0") + of.applyAsLong("top/r2_0") + of.applyAsLong("top/r3_0"));
    assertEquals(64, of.applyAsLong(srdag.vertexName(schedule.vertexAt(1, 0))), "the first reader pulls");

    TestGraph forked = TestGraph.named("top");
    Actor source = forked.actor("emit");
    Actor split = forked.actor("split", org.cacheflow.model.ActorKind.FORK);
    connect(forked, source, "out", 8192, split, "in", 8192);
    connect(forked, split, "a", 4096, forked.actor("r1"), "in", 4096);
    connect(forked, split, "b", 4096, forked.actor("r2"), "in", 4096);
    Srdag srdag2 = expand(forked);
    MappingInputs inputs2 = inputs(srdag2, 2, new ScenarioBuilder().time("emit", "generic", "1000")
        .time("r1", "generic", "1000").time("r2", "generic", "1000").build());
    int ev2 = org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag2, "top/emit_0");
    int sv2 = org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag2, "top/split_0");
    Schedule schedule2 = SteadyStateTest.handMapped(srdag2, inputs2, v -> v == ev2 || v == sv2 ? 0 : 1);
    long[] lines2 = CoreCount.charges(schedule2, inputs2, target(400, 6, 1).costs(), 64).lines();
    assertEquals(128, lines2[ev2]);
    assertEquals(64, lines2[org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag2, "top/r1_0")]);
    assertEquals(64, lines2[org.cacheflow.plan.memoryplan.PlanFixtures.vertex(srdag2, "top/r2_0")]);
  }
}
