package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.vertex;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.cacheflow.model.Actor;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.Core;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;

/** The list scheduler on graphs small enough to schedule by hand. */
class ListSchedulerTest {


  @Test
  void independentFiringsSpreadOverTheCores() {
    // src -4-> 1- work (r = 4): src (100) then a fork (1), then four independent firings of 100. On 2 cores:
    // src [0,100] and the fork [100,101] on Core0 (ties go to the lower core), work_0 and work_1 side by side
    // at [101,201], work_2 and work_3 at [201,301]: makespan 301, loads 301 and 200.
    TestGraph top = TestGraph.named("top");
    Actor src = top.actor("src");
    Actor work = top.actor("work");
    connect(top, src, "o", 4, work, "i", 1);
    Srdag srdag = expand(top);
    Schedule schedule = ListScheduler.schedule(srdag, inputs(srdag, 2, null), MappingPolicy.LOAD_BALANCE, 1 << 20);
    ScheduleInvariants.check(schedule);
    assertEquals(301, schedule.makespan());
    assertEquals(301, schedule.load(0));
    assertEquals(200, schedule.load(1));
    int w0 = vertex(srdag, "top/work_0");
    int w1 = vertex(srdag, "top/work_1");
    assertNotEquals(schedule.coreOf(w0), schedule.coreOf(w1), "the first two firings run side by side");
    assertEquals(schedule.start(w0), schedule.start(w1));
  }

  /**
   * A farm, emit (400) -4-> work (1000, r = 4) -> collect (400), with the inserted fork and join (1 each), on two
   * cores. emit [0,400] and the fork [400,401] on core 0 (equal finishes: the lowest core). work_0 finishes at 1401
   * on either core: core 0; work_1 [401,1401] on core 1; work_2 finishes at 2401 on either core: core 0; work_3
   * core 1 [1401,2401]. The join reads two works on each core and finishes at
   * 2402 on either: on core 0 it would wait for core 1's works, which waited for core 0's fork (a return), so core 1
   * (its works from core 0 waited for nothing on core 1), and collect follows its input there. Core 0 then only
   * feeds core 1 and never waits for it: iterations can overlap. Breaking these ties by core index (as before) puts
   * the join and collect on core 0, which then waits within an iteration for the works it handed out.
   */
  @Test
  void equalFinishesAvoidReturningToACore() {
    TestGraph top = TestGraph.named("top");
    Actor emit = top.actor("emit");
    Actor work = top.actor("work");
    Actor collect = top.actor("collect");
    connect(top, emit, "out", 4, work, "in", 1);
    connect(top, work, "out", 1, collect, "in", 4);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("emit", "generic", "400")
        .time("work", "generic", "1000").time("collect", "generic", "400").build());
    Schedule schedule = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 20);
    ScheduleInvariants.check(schedule);
    int[] expectedCore = {0, 0, 1, 0, 1};
    String[] names = {"top/emit_0", "top/work_0", "top/work_1", "top/work_2", "top/work_3"};
    for (int i = 0; i < names.length; i++) {
      assertEquals(expectedCore[i], schedule.coreOf(vertex(srdag, names[i])), names[i]);
    }
    int collector = vertex(srdag, "top/collect_0");
    assertEquals(1, schedule.coreOf(collector), "collect goes with the join to the core it does not return to");
    int join = srdag.edgeSource(srdag.incomingEdges(collector)[0]);
    assertEquals(1, schedule.coreOf(join));
    int fork = srdag.edgeTarget(srdag.outgoingEdges(vertex(srdag, "top/emit_0"))[0]);
    assertEquals(0, schedule.coreOf(fork));
    assertEquals(2802, schedule.makespan());
    assertEquals(2401, schedule.load(0));
    assertEquals(2401, schedule.load(1));
  }

  /**
   * s0 (100, Core0) -> m1 (10, Core1) -> v and s1 (50, Core1) -> m0 (10, Core0) -> v; v (10) may run anywhere.
   * s0 [0,100] on Core0, s1 [0,50] on Core1, m1 and m0 both [100,110]; v finishes at 120 on either core and returns
   * to both (on Core0 it waits for m1, which waited for s0 on Core0; on Core1 for m0, which waited for s1): the
   * less loaded core, Core1 (60 against 110), not the lowest.
   */
  @Test
  void whenEveryTiedCoreIsAReturnTheLessLoadedOneWins() {
    TestGraph top = TestGraph.named("top");
    Actor s0 = top.actor("s0");
    Actor s1 = top.actor("s1");
    Actor m0 = top.actor("m0");
    Actor m1 = top.actor("m1");
    Actor v = top.actor("v");
    connect(top, s0, "o", 1, m1, "i", 1);
    connect(top, s1, "o", 1, m0, "i", 1);
    connect(top, m0, "o", 1, v, "a", 1);
    connect(top, m1, "o", 1, v, "b", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "s0", "m0", "v")
        .allow("Core1", "s1", "m1", "v").time("s1", "generic", "50").time("m0", "generic", "10")
        .time("m1", "generic", "10").time("v", "generic", "10").build());
    Schedule schedule = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 1 << 20);
    ScheduleInvariants.check(schedule);
    assertEquals(100, schedule.start(vertex(srdag, "top/m0_0")));
    assertEquals(100, schedule.start(vertex(srdag, "top/m1_0")));
    assertEquals(1, schedule.coreOf(vertex(srdag, "top/v_0")));
    assertEquals(120, schedule.makespan());
  }

  @Test
  void resultIsDeterministic() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    connect(top, a, "o", 6, b, "i", 2);
    connect(top, b, "o", 1, c, "i", 3);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 3, null);
    Schedule first = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 64);
    Schedule second = ListScheduler.schedule(expand(top), inputs(expand(top), 3, null), MappingPolicy.LOAD_BALANCE, 64);
    for (int core = 0; core < 3; core++) {
      assertArrayEquals(first.order(core), second.order(core));
    }
  }

  @Test
  void timingsAreBalancedAndConstraintsRespected() {
    // a (1000) and b (10) and c (10) are independent. Without constraints the 2 cores get a | b, c. With a
    // pinned to Core1 and b, c allowed only on Core1 as well, everything runs on Core1 in bottom-level order.
    TestGraph top = TestGraph.named("top");
    top.actor("a");
    top.actor("b");
    top.actor("c");
    Srdag srdag = expand(top);
    ScenarioBuilder timings = new ScenarioBuilder().time("a", "generic", "1000").time("b", "generic", "10")
        .time("c", "generic", "10");
    Schedule free = ListScheduler.schedule(srdag, inputs(srdag, 2, timings.build()), MappingPolicy.LOAD_BALANCE, 64);
    ScheduleInvariants.check(free);
    assertEquals(1000, free.makespan());
    int a = vertex(srdag, "top/a_0");
    assertEquals(1, free.orderLength(free.coreOf(a)), "a has a core to itself");

    ScenarioBuilder pinned = new ScenarioBuilder().time("a", "generic", "1000").time("b", "generic", "10")
        .time("c", "generic", "10").allow("Core1", "a", "b", "top/c");
    Schedule constrained = ListScheduler.schedule(srdag, inputs(srdag, 2, pinned.build()),
        MappingPolicy.LOAD_BALANCE, 64);
    ScheduleInvariants.check(constrained);
    assertEquals(3, constrained.orderLength(1));
    assertEquals(0, constrained.orderLength(0));
    assertEquals(1020, constrained.makespan());
    assertEquals(a, constrained.vertexAt(1, 0), "the longest firing goes first (highest bottom level)");
  }

  @Test
  void timingExpressionsUseTheActorsParametersAndCoreTypes() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    top.dependency(top.parameter("n", "7"), a);
    Srdag srdag = expand(top);
    Platform platform = new Platform(List.of(new Core(0, "Little", "arm"), new Core(1, "Big", "x86")));
    MappingInputs inputs = MappingInputs.fromScenario(srdag.flatGraph(), platform,
        new ScenarioBuilder().time("a", "x86", "n*10").time("a", "arm", "n*30").build(), List.of(), new Diagnostics());
    assertEquals(210, inputs.time(0, 0));
    assertEquals(70, inputs.time(0, 1));
    Schedule schedule = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 64);
    assertEquals(1, schedule.coreOf(0), "the big core finishes first");
    assertEquals(70, schedule.makespan());
  }

  @Test
  void aBadTimingExpressionNamesItsLocation() {
    TestGraph top = TestGraph.named("top");
    top.actor("a");
    Srdag srdag = expand(top);
    InputException error = assertThrows(InputException.class, () -> inputs(srdag, 1,
        new ScenarioBuilder().time("a", "generic", "undefinedParameter * 2").build()));
    assertEquals("test.scenario", error.location().file());
    assertEquals(100, error.location().line());
    assertTrue(error.getMessage().contains("undefinedParameter"), error.getMessage());
  }

  @Test
  void constraintsNamingAbsentCoresAreIgnoredWithAWarning() {
    // e.g. a 4-core scenario planned with --cores 2: the constraint for Core7 cannot hold, so a may run anywhere
    TestGraph top = TestGraph.named("top");
    top.actor("a");
    top.actor("b");
    Srdag srdag = expand(top);
    Diagnostics diagnostics = new Diagnostics();
    MappingInputs inputs = MappingInputs.fromScenario(srdag.flatGraph(), Platform.generic(2),
        new ScenarioBuilder().allow("Core7", "a").allow("Core1", "b").build(), List.of(), diagnostics);
    assertEquals(2, diagnostics.warnings().size(), diagnostics.warnings().toString());
    assertTrue(diagnostics.warnings().get(0).message().contains("'Core7'"), diagnostics.warnings().toString());
    assertEquals(10, diagnostics.warnings().get(0).location().line());
    assertTrue(diagnostics.warnings().get(1).message().contains("no mapping constraint names a"),
        diagnostics.warnings().toString());
    assertTrue(inputs.allowed(0, 0) && inputs.allowed(0, 1));
    assertTrue(!inputs.allowed(1, 0) && inputs.allowed(1, 1));
    Schedule schedule = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 64);
    ScheduleInvariants.check(schedule);
    assertEquals(1, schedule.coreOf(vertex(srdag, "top/b_0")));
  }

  @Test
  void localityKeepsALargeBufferWithItsProducerWhenTheLoadAllows() {
    // p (100, pinned to Core1) produces 64 KiB for q (100); r (100) may only run on Core0. p runs at [0,100].
    // q (bottom level 100, index below r's) is placed before r: it finishes at 200 on either core, and load
    // balancing breaks the tie towards Core0, so r waits until 200 there (makespan 300). The locality policy
    // keeps q with its producer on Core1, and r runs at once on Core0 (makespan 200).
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor q = top.actor("q");
    top.actor("r");
    connect(top, p, "o", 64 << 10, q, "i", 64 << 10);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().allow("Core1", "p").allow("Core0", "q", "r")
        .allow("Core1", "q").build());
    Schedule balanced = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 32 << 10);
    Schedule local = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOCALITY, 32 << 10);
    ScheduleInvariants.check(balanced);
    ScheduleInvariants.check(local);
    int qv = vertex(srdag, "top/q_0");
    assertEquals(0, balanced.coreOf(qv));
    assertEquals(1, local.coreOf(qv));
    assertEquals(300, balanced.makespan());
    assertEquals(200, local.makespan());
    // a buffer below the threshold does not pull
    Schedule small = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOCALITY, 128 << 10);
    assertEquals(0, small.coreOf(qv));
  }

  @Test
  void localityGivesWayWhenTheLoadDoesNotAllow() {
    // p produces 1 MiB for each of four firings of c (100 each), through a fork on p's core. Keeping them all
    // with p on Core0 would end at 501 instead of 301; the slack (10% of the ideal load 250.5) only lets
    // firings join p's core while that extends nothing: c_0 and c_2 (ties), not c_1 and c_3.
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor c = top.actor("c");
    connect(top, p, "o", 4 << 20, c, "i", 1 << 20);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, null);
    Schedule local = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOCALITY, 32 << 10);
    ScheduleInvariants.check(local);
    Schedule balanced = ListScheduler.schedule(srdag, inputs, MappingPolicy.LOAD_BALANCE, 32 << 10);
    assertEquals(balanced.makespan(), local.makespan());
    assertTrue(local.orderLength(0) > 0 && local.orderLength(1) > 0);
  }
}
