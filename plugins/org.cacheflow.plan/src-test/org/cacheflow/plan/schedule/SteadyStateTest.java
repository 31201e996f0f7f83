package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.cacheflow.plan.memoryplan.PlanFixtures.vertex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntUnaryOperator;

import org.cacheflow.model.Actor;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;

/** The self-timed period of per-core orders, on schedules small enough to run by hand. */
class SteadyStateTest {

  /**
   * A schedule with the given core per vertex, each core firing its vertices in topological order, each vertex
   * taking its time on that core (start 0).
   */
  static Schedule handMapped(Srdag srdag, MappingInputs inputs, IntUnaryOperator core) {
    int vertices = srdag.vertexCount();
    int cores = inputs.platform().size();
    int[] coreOf = new int[vertices];
    long[] end = new long[vertices];
    int[] count = new int[cores];
    for (int v = 0; v < vertices; v++) {
      int actor = srdag.vertexActor(v);
      coreOf[v] = core.applyAsInt(v);
      end[v] = actor >= 0 ? inputs.time(actor, coreOf[v]) : MappingInputs.SPECIAL_TIME;
      count[coreOf[v]]++;
    }
    int[][] order = new int[cores][];
    for (int c = 0; c < cores; c++) {
      order[c] = new int[count[c]];
    }
    int[] fill = new int[cores];
    Topology topology = Topology.of(srdag);
    for (int i = 0; i < vertices; i++) {
      int v = topology.topological(i);
      order[coreOf[v]][fill[coreOf[v]]++] = v;
    }
    return new Schedule(srdag, inputs.platform(), MappingPolicy.LOAD_BALANCE, coreOf, new long[vertices], end,
        order);
  }

  private static double[] times(Schedule schedule) {
    double[] result = new double[schedule.srdag().vertexCount()];
    for (int v = 0; v < result.length; v++) {
      result[v] = schedule.end(v) - schedule.start(v);
    }
    return result;
  }

  /**
   * p (100) -> q (300) on two cores: a pipeline. q of iteration k waits for p of k; p of k waits for q of k - 2
   * (two slots): the cycle p, q, p two iterations later is 400 / 2 = 200, below q's own loop, 300. The period is the
   * busiest core's, and no cycle crosses the cores.
   */
  @Test
  void aPipelineOverlapsIterations() {
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor q = top.actor("q");
    connect(top, p, "o", 1, q, "i", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("p", "generic", "100")
        .time("q", "generic", "300").build());
    int pv = vertex(srdag, "top/p_0");
    Schedule schedule = handMapped(srdag, inputs, v -> v == pv ? 0 : 1);
    SteadyState.Result result = SteadyState.of(schedule, times(schedule));
    assertEquals(300, result.period(), 1e-9);
    assertEquals(1, result.cycle().size(), result.toString());
    assertEquals(1, result.cycle().get(0).core());
    assertEquals(1, result.iterations());
  }

  /** The same pipeline with p (500) slower than q (100): p's own loop, 500, is the period; q waits for p. */
  @Test
  void theSlowerStageSetsThePeriod() {
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor q = top.actor("q");
    connect(top, p, "o", 1, q, "i", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("p", "generic", "500")
        .time("q", "generic", "100").build());
    int pv = vertex(srdag, "top/p_0");
    Schedule schedule = handMapped(srdag, inputs, v -> v == pv ? 0 : 1);
    SteadyState.Result result = SteadyState.of(schedule, times(schedule));
    assertEquals(500, result.period(), 1e-9);
    assertTrue(result.cycle().stream().allMatch(step -> step.core() == 0), result.toString());
  }

  /**
   * a (100) -> b (200) -> c (100), a and c on core 0, b on core 1: core 0 fires a then c, and c waits for b, which
   * waits for a: the cycle a, b, c, a of the next iteration is 400, more than core 0's 200 or core 1's 200.
   */
  @Test
  void aReturnToACoreCostsTheWholeChain() {
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    connect(top, a, "o", 1, b, "i", 1);
    connect(top, b, "o", 1, c, "i", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 2, new ScenarioBuilder().time("a", "generic", "100")
        .time("b", "generic", "200").time("c", "generic", "100").build());
    int bv = vertex(srdag, "top/b_0");
    Schedule schedule = handMapped(srdag, inputs, v -> v == bv ? 1 : 0);
    SteadyState.Result result = SteadyState.of(schedule, times(schedule));
    assertEquals(400, result.period(), 1e-9);
    assertEquals(3, result.cycle().size(), result.toString());
    assertEquals(1, result.iterations());
  }
}
