package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.cacheflow.plan.memoryplan.PlanFixtures.vertex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;

import org.cacheflow.analysis.TestGraph;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.model.Actor;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.TargetCache;
import org.junit.jupiter.api.Test;

/** Iteration offsets (software pipelining): the self-timed period they give, and when the planner uses them. */
class PipeliningTest {

  /** a (100) -> b (200) -> c (100), and a -> c; a and c pinned to core 0, b to core 1. */
  private static Srdag chain(TestGraph top) {
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    connect(top, a, "o", 1, b, "i", 1);
    connect(top, b, "o", 1, c, "i", 1);
    connect(top, a, "o2", 1, c, "i2", 1);
    return expand(top);
  }

  private static MappingInputs chainInputs(Srdag srdag) {
    return inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "a", "c").allow("Core1", "b")
        .time("a", "generic", "100").time("b", "generic", "200").time("c", "generic", "100").build());
  }

  /**
   * Core 0 fires a then c; c waits for b (core 1), which waits for a: the cycle a, b, c, a of the next iteration is
   * 400. With c one iteration behind, core 0's pass p fires a of p then c of p - 1: c of p waits for b of p (one pass
   * back), and the chain a, b, c spans two passes: (100 + 200 + 100) / 2 = 200, the busiest core's loop (both 200).
   * b's slot for c: b of j waits for c of j - 2, fired in pass j - 1: (b 200 + c 100) / 2 passes = 150, below.
   */
  @Test
  void aReturningFiringOneIterationBehindHalvesTheChain() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    MappingInputs inputs = chainInputs(srdag);
    int bv = vertex(srdag, "top/b_0");
    int cv = vertex(srdag, "top/c_0");
    Schedule schedule = SteadyStateTest.handMapped(srdag, inputs, v -> v == bv ? 1 : 0);
    assertEquals(400, SteadyState.of(schedule, SteadyStateTest.times(schedule)).period(), 1e-9);
    int[] skew = new int[srdag.vertexCount()];
    skew[cv] = 1;
    Schedule pipelined = schedule.withSkew(skew);
    assertEquals(1, pipelined.maxSkew());
    assertEquals(1, pipelined.skew(cv));
    assertEquals(0, pipelined.skew(bv));
    assertEquals(200, SteadyState.of(pipelined, SteadyStateTest.times(pipelined)).period(), 1e-9);
    // b behind as well: b of p - 1 waits for a of p - 1, one pass back; the chain still spans two passes
    skew[bv] = 1;
    assertEquals(200, SteadyState.of(schedule.withSkew(skew), SteadyStateTest.times(schedule)).period(), 1e-9);
  }

  /** A consumer ahead of its producer is no schedule generated code can run: refused, naming the vertex. */
  @Test
  void aConsumerAheadOfItsProducerIsRefused() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    int av = vertex(srdag, "top/a_0");
    int bv = vertex(srdag, "top/b_0");
    Schedule schedule = SteadyStateTest.handMapped(srdag, chainInputs(srdag), v -> v == bv ? 1 : 0);
    int[] skew = new int[srdag.vertexCount()];
    skew[av] = 1;
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> SteadyState.of(schedule.withSkew(skew), SteadyStateTest.times(schedule)));
    assertTrue(e.getMessage().contains("must not decrease"), e.getMessage());
  }

  /** The planner finds c's offset from the critical cycle and says so; the period it reports is the model's. */
  @Test
  void thePlannerPutsTheReturningFiringBehind() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    MappingInputs inputs = chainInputs(srdag);
    int bv = vertex(srdag, "top/b_0");
    int cv = vertex(srdag, "top/c_0");
    Schedule schedule = SteadyStateTest.handMapped(srdag, inputs, v -> v == bv ? 1 : 0);
    Pipelining.Result result = Pipelining.pipeline(schedule, inputs, TargetCache.GENERIC.costs(), 64,
        MergeGroups.NONE);
    assertNotNull(result.note());
    String why = result.note().toString();
    assertEquals(1, result.schedule().skew(cv), why);
    assertEquals(0, result.schedule().skew(bv), why);
    assertEquals(List.of(new PlanNote.CoreFirings(0, List.of(cv), 0)), result.note().behind(), why);
    assertEquals(1, result.note().count(), why);
    assertEquals(400, result.note().before(), 1e-9, why);
    assertEquals(200, result.note().after(), 1e-9, why);
  }

  /** A pipeline whose cores never return to each other (p on core 0 -> q on core 1) gains nothing: unchanged. */
  @Test
  void aPipelineWithoutReturnsIsLeftAlone() {
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor q = top.actor("q");
    connect(top, p, "o", 1, q, "i", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("p", "generic", "100")
        .time("q", "generic", "300").build());
    int pv = vertex(srdag, "top/p_0");
    Schedule schedule = SteadyStateTest.handMapped(srdag, inputs, v -> v == pv ? 0 : 1);
    Pipelining.Result result = Pipelining.pipeline(schedule, inputs, TargetCache.GENERIC.costs(), 64,
        MergeGroups.NONE);
    assertNull(result.note());
    assertEquals(0, result.schedule().maxSkew());
  }

  /**
   * Through the whole planner: the a -> c buffer, which core 0 writes in pass p (a of p) while c reads the previous
   * iteration's, is kept twice (its footprint doubles); the baseline (a barrier per iteration) is never pipelined.
   */
  @Test
  void theMemoryPlanCountsTheSecondCopyOfABufferUsedAcrossPasses() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    MappingInputs inputs = chainInputs(srdag);
    int cv = vertex(srdag, "top/c_0");
    int ac = edge(srdag, "top/a_0", "top/c_0");
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.GENERIC)
        .withStrategy(GlobalStrategy.AUTO));
    assertEquals(1, plan.schedule().skew(cv), plan.notes().toString());
    assertTrue(plan.notes().stream().anyMatch(n -> n instanceof PlanNote.Pipelined p
        && p.behind().get(0).equals(new PlanNote.CoreFirings(0, List.of(cv), 0))),
        plan.notes().toString());
    assertEquals(2 * srdag.edgeBytes(ac), plan.buffers().get(ac).footprintBytes());
    MemoryPlan baseline = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, TargetCache.GENERIC)
        .withStrategy(GlobalStrategy.BASELINE));
    assertEquals(0, baseline.schedule().maxSkew());
    assertEquals(srdag.edgeBytes(ac), baseline.buffers().get(ac).footprintBytes());
  }

  /**
   * An actor whose refinement has an init prototype fills its buffers once, before the loop: when one of them would
   * be used in two passes at once (a's output to c, c behind), the plan keeps every firing in its iteration and
   * says why.
   */
  @Test
  void aBufferAnInitPrototypeFillsIsNotSplitAcrossPasses() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    givesInitPrototype(srdag, "top/a_0", "o2", false);
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(chainInputs(srdag), TargetCache.GENERIC)
        .withStrategy(GlobalStrategy.AUTO));
    assertEquals(0, plan.schedule().maxSkew(), plan.notes().toString());
    assertTrue(plan.notes().contains(new PlanNote.NotPipelined(PlanNote.Rule.NOT_PIPELINED_INIT,
        vertex(srdag, "top/a_0"), -1, true)),
        plan.notes().toString());
  }

  /**
   * An init prototype of config parameters only (PREESM's usual init: sizes, seeds) fills no buffer: the loop is
   * pipelined as without it. So is one whose buffer is a port the firings behind do not share (a's output to b).
   */
  @Test
  void anInitPrototypeWithoutTheSplitBufferLeavesThePipelining() {
    for (String parameter : new String[] {"seed", "o"}) {
      TestGraph top = TestGraph.named("top");
      Srdag srdag = chain(top);
      givesInitPrototype(srdag, "top/a_0", parameter, parameter.equals("seed"));
      MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(chainInputs(srdag), TargetCache.GENERIC)
          .withStrategy(GlobalStrategy.AUTO));
      assertEquals(1, plan.schedule().skew(vertex(srdag, "top/c_0")), parameter + ":\n" + plan.notes());
      assertTrue(plan.notes().stream().noneMatch(n -> n instanceof PlanNote.NotPipelined), plan.notes().toString());
    }
  }

  /**
   * The farm of the home-forwarding benchmark (emit -> 4 x work -> collect, 64 KiB tasks) timed as measured in the
   * one-core program's fast state (emit 11.7, work 9.8, collect 6.0 us): with iteration offsets the planner puts
   * three workers on one core and emit, a worker and collect (one iteration behind) on the other. When the
   * emitter's init prototype fills the tasks' memory, offsets are forbidden: run without them, that mapping makes
   * the core of the three workers wait for the emitter and the collector for all three every iteration (measured:
   * 19-21 us per task, the one-core program's time, against 9.5-11 for the mapping without offsets). So the plan is
   * made again without offsets, and is the plan pipelining=off gives.
   */
  @Test
  void aMappingBalancedForOffsetsTheMemoryForbidsIsMadeAgainWithout() {
    TestGraph top = TestGraph.named("top");
    Actor emit = top.actor("emit");
    Actor work = top.actor("work");
    Actor collect = top.actor("collect");
    connect(top, emit, "out", 4 * 65536, work, "in", 65536);
    connect(top, work, "out", 65536, collect, "in", 4 * 65536);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("emit", "generic", "11731")
        .time("work", "generic", "9798").time("collect", "generic", "5958").build());
    org.cacheflow.plan.strategy.MeasuredCosts m = org.cacheflow.plan.strategy.MeasuredCosts.MEASURED;
    TargetCache target = new TargetCache("t", 32 << 10, 1 << 20, 32 << 20, 64, 4096, 2,
        new org.cacheflow.plan.strategy.MeasuredCosts(m.cowReadOnlyMinBytes(), m.cowReadMostlyMinBytes(),
            m.ntmMinBytes(), m.prestoreMaxBytes(), m.handoffNanos(), m.lineNanos(), 1));
    PlanRequest request = PlanRequest.of(inputs, target).withStrategy(GlobalStrategy.HOMEFORWARD);
    MemoryPlan offsets = MemoryPlanner.plan(srdag, request);
    assertTrue(offsets.schedule().maxSkew() > 0, offsets.notes().toString());
    assertEquals("work work work",
        sorted(CoreCountTest.firings(offsets.schedule(), coreOf(offsets, "top/emit_0") ^ 1)),
        "the mapping balanced for offsets: " + offsets.notes().toString());
    MemoryPlan without = MemoryPlanner.plan(srdag, request.withPipelining(false));
    assertEquals("emit work work", sorted(CoreCountTest.firings(without.schedule(), coreOf(without, "top/emit_0"))),
        without.notes().toString());

    givesInitPrototype(srdag, "top/emit_0", "out", false);
    MemoryPlan plan = MemoryPlanner.plan(srdag, request);
    String notes = plan.notes().toString();
    assertEquals(0, plan.schedule().maxSkew(), notes);
    for (int core = 0; core < 2; core++) {
      assertEquals(CoreCountTest.firings(without.schedule(), core), CoreCountTest.firings(plan.schedule(), core),
          notes);
    }
    assertEquals(new PlanNote.NotPipelined(PlanNote.Rule.NOT_PIPELINED_INIT, vertex(srdag, "top/emit_0"), -1, true),
        plan.notes().get(0), notes);
    assertTrue(plan.notes().stream().noneMatch(n -> n.rule() == PlanNote.Rule.PIPELINED), notes);
  }

  private static int coreOf(MemoryPlan plan, String vertexName) {
    return plan.schedule().coreOf(vertex(plan.schedule().srdag(), vertexName));
  }

  private static String sorted(String firings) {
    return String.join(" ", Arrays.stream(firings.split(" ")).sorted().toList());
  }

  /** Gives the actor of the vertex a refinement whose init prototype has one parameter. */
  private static void givesInitPrototype(Srdag srdag, String vertexName, String parameterName, boolean config) {
    org.cacheflow.model.ModelFactory factory = org.cacheflow.model.ModelFactory.eINSTANCE;
    org.cacheflow.model.Prototype prototype = factory.createPrototype();
    org.cacheflow.model.PrototypeParameter parameter = factory.createPrototypeParameter();
    parameter.setName(parameterName);
    parameter.setConfig(config);
    prototype.getParameters().add(parameter);
    org.cacheflow.model.Refinement refinement = factory.createRefinement();
    refinement.setInitPrototype(prototype);
    srdag.flatGraph().actor(srdag.vertexActor(vertex(srdag, vertexName))).origin().setRefinement(refinement);
  }

  /** The closure of a firing: its consumers, theirs, and a persistent delay's init with its end. */
  @Test
  void theFiringsBehindAreClosedUnderEdges() {
    TestGraph top = TestGraph.named("top");
    Srdag srdag = chain(top);
    int av = vertex(srdag, "top/a_0");
    int bv = vertex(srdag, "top/b_0");
    int cv = vertex(srdag, "top/c_0");
    boolean[] none = new boolean[srdag.vertexCount()];
    boolean[] fromB = Pipelining.closure(srdag, none, bv);
    assertArrayEquals(new boolean[] {false, true, true}, new boolean[] {fromB[av], fromB[bv], fromB[cv]});
  }
}
