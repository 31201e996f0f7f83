package org.cacheflow.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.cacheflow.plan.memoryplan.MemoryPlan;

/** What the JSON report of every plan must satisfy: rows with every key, adding up to its totals. */
final class PlanJsonInvariants {

  private PlanJsonInvariants() {
  }

  static void check(MemoryPlan plan) {
    Map<String, Object> json = PlanJson.toJson(plan, false, false);
    long baseline = 0;
    long copied = 0;
    long footprint = 0;
    for (Object row : (List<?>) json.get("fifos")) {
      Map<?, ?> fifo = (Map<?, ?>) row;
      for (String key : List.of("source", "targets", "bytes", "class", "strategy", "reason")) {
        assertTrue(fifo.containsKey(key), "JSON FIFO rows have " + key);
      }
      baseline += (Long) fifo.get("baselineBytesCopied");
      copied += (Long) fifo.get("planBytesCopied");
      footprint += (Long) fifo.get("footprintBytes");
    }
    Map<?, ?> totals = (Map<?, ?>) json.get("totals");
    assertEquals(baseline, totals.get("baselineBytesCopied"));
    assertEquals(copied, totals.get("planBytesCopied"));
    assertEquals(footprint, totals.get("footprintBytes"));
    assertEquals(plan.totals().planBytesCopied(), totals.get("planBytesCopied"));
  }
}
