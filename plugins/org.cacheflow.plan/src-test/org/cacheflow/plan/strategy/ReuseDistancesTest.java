package org.cacheflow.plan.strategy;

import static org.cacheflow.plan.memoryplan.PlanFixtures.connect;
import static org.cacheflow.plan.memoryplan.PlanFixtures.edge;
import static org.cacheflow.plan.memoryplan.PlanFixtures.expand;
import static org.cacheflow.plan.memoryplan.PlanFixtures.inputs;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.cacheflow.model.Actor;
import org.cacheflow.analysis.TestGraph;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.memoryplan.PlanFixtures.ScenarioBuilder;
import org.cacheflow.plan.schedule.ListScheduler;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.junit.jupiter.api.Test;

/** Re-read and re-write distances on schedules worked out by hand. */
class ReuseDistancesTest {

  /** Bytes each vertex touches: its inputs and outputs. */
  private static long[] touched(Srdag srdag) {
    long[] touched = new long[srdag.vertexCount()];
    for (int e = 0; e < srdag.edgeCount(); e++) {
      touched[srdag.edgeSource(e)] += srdag.edgeBytes(e);
      touched[srdag.edgeTarget(e)] += srdag.edgeBytes(e);
    }
    return touched;
  }

  @Test
  void oneCore() {
    // a -1000-> b -2000-> c and a -500-> c, all on one core in the order a, b, c.
    // touched: a 1500, b 3000, c 2500; one iteration of the core touches 7000.
    // a->b: read right after the write (0), re-written after 7000 - 1500 = 5500.
    // a->c: read after b (3000), re-written after 5500. b->c: 0 and 7000 - 3000 = 4000.
    TestGraph top = TestGraph.named("top");
    Actor a = top.actor("a");
    Actor b = top.actor("b");
    Actor c = top.actor("c");
    connect(top, a, "o1", 1000, b, "i", 1000);
    connect(top, b, "o", 2000, c, "i1", 2000);
    connect(top, a, "o2", 500, c, "i2", 500);
    Srdag srdag = expand(top);
    Schedule schedule = ListScheduler.schedule(srdag, inputs(srdag, 1, null), MappingPolicy.LOAD_BALANCE, 1 << 20);
    ReuseDistances distances = ReuseDistances.compute(schedule, touched(srdag));
    int ab = edge(srdag, "top/a_0", "top/b_0");
    int ac = edge(srdag, "top/a_0", "top/c_0");
    int bc = edge(srdag, "top/b_0", "top/c_0");
    assertEquals(0, distances.rereadBytes(ab));
    assertEquals(5500, distances.rewriteBytes(ab));
    assertEquals(3000, distances.rereadBytes(ac));
    assertEquals(5500, distances.rewriteBytes(ac));
    assertEquals(0, distances.rereadBytes(bc));
    assertEquals(4000, distances.rewriteBytes(bc));
  }

  @Test
  void acrossCoresEveryCoreCountsBetweenTheWriteAndTheRead() {
    // p (Core0, [0,100]) -> q (Core1); q also waits for m (Core0, [100,200]) and n (Core1, [100,200]).
    // p -100-> q, p -300-> m, m -200-> q, and p -400-> n.
    // Between p's end (100) and q's start (200) m and n start: m touches 500, n 400: re-read 900 for p->q.
    // p is re-written after Core0's iteration minus p: m touches 500.
    TestGraph top = TestGraph.named("top");
    Actor p = top.actor("p");
    Actor n = top.actor("n"); // declared before q: among equal bottom levels it is scheduled first
    Actor q = top.actor("q");
    Actor m = top.actor("m");
    connect(top, p, "o1", 100, q, "i1", 100);
    connect(top, p, "o2", 300, m, "i", 300);
    connect(top, m, "o", 200, q, "i2", 200);
    connect(top, p, "o3", 400, n, "i", 400);
    Srdag srdag = expand(top);
    Schedule schedule = ListScheduler.schedule(srdag, inputs(srdag, 2, new ScenarioBuilder().allow("Core0", "p", "m")
        .allow("Core1", "q", "n").build()), MappingPolicy.LOAD_BALANCE, 1 << 20);
    ReuseDistances distances = ReuseDistances.compute(schedule, touched(srdag));
    int pq = edge(srdag, "top/p_0", "top/q_0");
    assertEquals(200, schedule.start(srdag.edgeTarget(pq)));
    assertEquals(900, distances.rereadBytes(pq));
    assertEquals(500, distances.rewriteBytes(pq));
    assertEquals(0, distances.rereadBytes(edge(srdag, "top/m_0", "top/q_0")), "q starts as m ends");
  }
}
