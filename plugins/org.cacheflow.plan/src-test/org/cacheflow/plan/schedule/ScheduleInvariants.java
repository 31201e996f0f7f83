package org.cacheflow.plan.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.cacheflow.analysis.srdag.Srdag;

/** Properties every schedule must have, checked edge by edge and core by core. */
public final class ScheduleInvariants {

  private ScheduleInvariants() {
  }

  public static void check(Schedule schedule) {
    Srdag srdag = schedule.srdag();
    int[] seen = new int[srdag.vertexCount()];
    for (int c = 0; c < schedule.coreCount(); c++) {
      long previousEnd = 0;
      for (int i = 0; i < schedule.orderLength(c); i++) {
        int v = schedule.vertexAt(c, i);
        seen[v]++;
        assertEquals(c, schedule.coreOf(v), "core of " + srdag.vertexName(v));
        assertEquals(i, schedule.position(v), "position of " + srdag.vertexName(v));
        assertTrue(schedule.start(v) >= previousEnd, srdag.vertexName(v) + " overlaps its predecessor on core " + c);
        assertTrue(schedule.end(v) >= schedule.start(v));
        previousEnd = schedule.end(v);
      }
    }
    for (int v = 0; v < srdag.vertexCount(); v++) {
      assertEquals(1, seen[v], srdag.vertexName(v) + " must be scheduled exactly once");
    }
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int s = srdag.edgeSource(e);
      int t = srdag.edgeTarget(e);
      assertTrue(schedule.start(t) >= schedule.end(s), srdag.vertexName(t) + " starts before " + srdag.vertexName(s)
          + " ends");
      if (schedule.coreOf(s) == schedule.coreOf(t)) {
        assertTrue(schedule.position(s) < schedule.position(t), srdag.vertexName(s) + " must precede "
            + srdag.vertexName(t) + " on core " + schedule.coreOf(s));
      }
    }
  }
}
