package org.cacheflow.plan.memoryplan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.cacheflow.plan.classify.BufferOrigin;
import org.cacheflow.plan.schedule.ScheduleInvariants;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.GroupSlots;
import org.cacheflow.plan.strategy.Strategy;

/**
 * What every plan must satisfy; totals are recomputed from the per-FIFO rows and the per-buffer plans (the JSON
 * report's rows and totals are checked in the report bundle's tests).
 */
public final class PlanInvariants {

  private PlanInvariants() {
  }

  public static void check(MemoryPlan plan) {
    ScheduleInvariants.check(plan.schedule());
    String graph = plan.srdag().flatGraph().name();
    long baselineFromBuffers = 0;
    long copiedFromBuffers = 0;
    long footprintFromBuffers = 0;
    long sizes = 0;
    // per merge root, the cores its group's buffers are produced and consumed on
    Map<Integer, Set<Integer>> groupCores = new HashMap<>();
    for (BufferPlan b : plan.buffers()) {
      if (b.mergeRoot() >= 0) {
        groupCores.computeIfAbsent(b.mergeRoot(), r -> new HashSet<>()).addAll(List.of(
            b.producerCore(), b.consumerCore()));
      }
    }
    for (BufferPlan b : plan.buffers()) {
      String what = graph + " edge " + b.edge() + " " + b.strategyLabel();
      assertNotNull(b.bufferClass(), what);
      assertNotNull(b.decision(), what);
      assertEquals(b.origin() == BufferOrigin.COPY ? b.bytes() : 0, b.baselineBytesCopied(), what);
      assertTrue(b.bytesCopied() <= b.baselineBytesCopied(), what + ": a plan never copies more than the baseline");
      assertEquals(b.crossCore(), b.producerCore() != b.consumerCore(), what);
      if (b.strategy() == Strategy.ALIAS) {
        assertTrue(b.mergeRoot() >= 0, what + ": aliased without a merge group");
        long copies = groupCopies(plan, groupCores, b.mergeRoot());
        assertEquals(b.edge() == b.mergeRoot() ? b.bytes() * copies : 0, b.footprintBytes(), what);
      }
      if (b.strategy() == Strategy.CHANNEL) {
        assertTrue(b.crossCore() && b.slots() >= 1, what);
        assertEquals(b.consumerCore(), b.homeCore(), what + ": a channel is homed at its reader");
        assertEquals(b.bytes() * b.slots(), b.footprintBytes(), what);
      }
      if (plan.strategy() == GlobalStrategy.BASELINE) {
        assertEquals(b.baselineBytesCopied(), b.bytesCopied(), what);
      }
      baselineFromBuffers += b.baselineBytesCopied();
      copiedFromBuffers += b.bytesCopied();
      footprintFromBuffers += b.footprintBytes();
      sizes += b.bytes();
    }
    checkTotals(plan, new BufferSums(baselineFromBuffers, copiedFromBuffers, footprintFromBuffers, sizes));
  }

  /**
   * The copies generated code keeps of a merge group several cores use (not under the baseline): enough to span the
   * target's L2, or with the other such groups of its cores (each core's sum; the least of its cores')
   * GroupSlots.TRAFFIC_SPANS times it, 2 to GroupSlots.MAX_SLOTS; 1 otherwise.
   */
  private static long groupCopies(MemoryPlan plan, Map<Integer, Set<Integer>> groupCores, int root) {
    if (plan.strategy().preesmCode() || groupCores.get(root).size() <= 1) {
      return 1;
    }
    long traffic = Long.MAX_VALUE;
    for (int core : groupCores.get(root)) {
      long sum = 0;
      for (var group : groupCores.entrySet()) {
        if (group.getValue().size() > 1 && group.getValue().contains(core)) {
          sum += groupBytes(plan, group.getKey());
        }
      }
      traffic = Math.min(traffic, sum);
    }
    long group = groupBytes(plan, root);
    long copies = 2;
    while (copies < GroupSlots.MAX_SLOTS && copies * group < plan.target().l2Bytes()
        && copies * traffic < GroupSlots.TRAFFIC_SPANS * plan.target().l2Bytes()) {
      copies++;
    }
    return copies;
  }

  /** What the per-buffer plans add up to: baseline bytes copied, bytes copied, footprint, buffer sizes. */
  private record BufferSums(long baseline, long copied, long footprint, long sizes) {
  }

  /** The plan's totals against the per-FIFO rows and against the per-buffer sums. */
  private static void checkTotals(MemoryPlan plan, BufferSums fromBuffers) {
    String graph = plan.srdag().flatGraph().name();
    long baselineFromBuffers = fromBuffers.baseline();
    long copiedFromBuffers = fromBuffers.copied();
    long footprintFromBuffers = fromBuffers.footprint();
    long sizes = fromBuffers.sizes();
    long baselineFromRows = 0;
    long copiedFromRows = 0;
    long footprintFromRows = 0;
    int buffers = 0;
    for (FifoPlan fifo : plan.fifos()) {
      baselineFromRows += fifo.baselineBytesCopied();
      copiedFromRows += fifo.planBytesCopied();
      footprintFromRows += fifo.footprintBytes();
      buffers += fifo.buffers();
      assertEquals(fifo.buffers(), plan.buffersOf(fifo.fifo()).size());
    }
    assertEquals(plan.srdag().edgeCount(), buffers, graph + ": every buffer belongs to one FIFO");
    PlanTotals totals = plan.totals();
    assertEquals(baselineFromRows, totals.baselineBytesCopied(), graph);
    assertEquals(copiedFromRows, totals.planBytesCopied(), graph);
    assertEquals(footprintFromRows, totals.footprintBytes(), graph);
    assertEquals(baselineFromBuffers, totals.baselineBytesCopied(), graph);
    assertEquals(copiedFromBuffers, totals.planBytesCopied(), graph);
    assertEquals(footprintFromBuffers, totals.footprintBytes(), graph);
    assertEquals(sizes, totals.baselineFootprintBytes(), graph);
  }

  /** The bytes a merge group's memory spans (its root's own bytes when the facts do not say). */
  private static long groupBytes(MemoryPlan plan, int root) {
    long group = plan.classification().facts().groupBytes(root);
    return group > 0 ? group : plan.srdag().edgeBytes(root);
  }
}
