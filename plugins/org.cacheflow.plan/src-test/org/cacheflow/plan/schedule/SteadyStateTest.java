package org.cacheflow.plan.schedule;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.cacheflow.plan.memoryplan.PlanFixtures.vertex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
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

  static double[] times(Schedule schedule) {
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

  /**
   * p (100, core 0) writes a merge group that q (10, core 2) reads and passes in place to n (100, core 2); p also
   * sends to m (100, core 1), which sends to n. Generated code keeps the group in k = 2 copies freed per group: p,
   * core 0's first use in iteration i, waits until n, core 2's last use, has ended iteration i - 2, though p writes
   * nothing n reads. The cycle p, m, n, p two iterations later is (100 + 100 + 100) / 2 = 150, above every core's
   * loop (100, 100, 110). With a slot per edge (no groups) p waits only for q and the period is core 2's 110.
   * (The critical cycle is not asserted: it ties with core 2's waits for m.)
   */
  @Test
  void aMergeGroupOnSeveralCoresIsFreedWhenEveryCoreIsDoneWithIt() {
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor q = top.actor("q");
    Actor m = top.actor("m");
    Actor n = top.actor("n");
    connect(top, p, "o", 1, q, "i", 1);
    connect(top, q, "o", 1, n, "i", 1);
    connect(top, p, "o2", 1, m, "i", 1);
    connect(top, m, "o", 1, n, "i2", 1);
    Srdag srdag = expand(top);
    MappingInputs inputs = inputs(srdag, 3, new ScenarioBuilder().time("p", "generic", "100")
        .time("q", "generic", "10").time("m", "generic", "100").time("n", "generic", "100").build());
    int pv = vertex(srdag, "top/p_0");
    int qv = vertex(srdag, "top/q_0");
    int mv = vertex(srdag, "top/m_0");
    int nv = vertex(srdag, "top/n_0");
    Schedule schedule = handMapped(srdag, inputs, v -> v == pv ? 0 : v == mv ? 1 : 2);
    int[] groups = new int[srdag.edgeCount()];
    Arrays.fill(groups, -1);
    int root = -1;
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (srdag.edgeSource(e) == pv && srdag.edgeTarget(e) == qv) {
        root = e;
      }
    }
    for (int e = 0; e < srdag.edgeCount(); e++) {
      if (srdag.edgeSource(e) == pv && srdag.edgeTarget(e) == qv
          || srdag.edgeSource(e) == qv && srdag.edgeTarget(e) == nv) {
        groups[e] = root;
      }
    }
    assertTrue(root >= 0);
    assertEquals(110, SteadyState.of(schedule, times(schedule)).period(), 1e-9);
    assertEquals(150, SteadyState.of(schedule, times(schedule), groups).period(), 1e-9);
    // a group one core uses has one copy and no slot waits
    Schedule oneCore = handMapped(srdag, inputs, v -> v == mv ? 1 : 0);
    assertEquals(SteadyState.of(oneCore, times(oneCore)).period(), SteadyState.of(oneCore, times(oneCore), groups)
        .period(), 1e-9);
  }
}
