package org.cacheflow.plan.strategy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GroupSlotsTest {

  private static final TargetCache ZEN4 = TargetCache.ZEN4_VM; // 1 MiB L2

  @Test
  void aGroupGetsSlotsSpanningTheL2() {
    assertEquals(6, GroupSlots.of(ZEN4, 200_704, 2), "map 224x224 int's group: 6 x 196 KiB >= 1 MiB");
    assertEquals(4, GroupSlots.of(ZEN4, 1L << 18, 2), "256 KiB: 4 slots make 1 MiB");
    assertEquals(2, GroupSlots.of(ZEN4, 600 << 10, 2), "600 KiB: two already span 1 MiB");
    assertEquals(2, GroupSlots.of(ZEN4, 4L << 20, 2), "larger than the L2: the strategy's 2");
  }

  @Test
  void smallGroupsStopAtTheMostAndTheStrategysSlotsAreTheLeast() {
    assertEquals(GroupSlots.MAX_SLOTS, GroupSlots.of(ZEN4, 16 << 10, 2));
    assertEquals(GroupSlots.MAX_SLOTS, GroupSlots.of(ZEN4, 0, 2), "an empty group does not divide by zero");
    assertEquals(3, GroupSlots.of(ZEN4, 4L << 20, 3));
    assertEquals(12, GroupSlots.of(ZEN4, 16 << 10, 12), "the least wins over the most");
    TargetCache small = TargetCache.GENERIC; // 256 KiB L2
    assertEquals(4, GroupSlots.of(small, 64 << 10, 2));
  }

  @Test
  void theReasonSaysWhichCase() {
    assertTrue(GroupSlots.why(ZEN4, 200_704, 6).contains("together spanning the reader's L2 (1 MiB)"),
        GroupSlots.why(ZEN4, 200_704, 6));
    assertTrue(GroupSlots.why(ZEN4, 16 << 10, 8).contains("the most; together 128 KiB"),
        GroupSlots.why(ZEN4, 16 << 10, 8));
    assertTrue(GroupSlots.why(ZEN4, 4L << 20, 2).contains("one already spans"), GroupSlots.why(ZEN4, 4L << 20, 2));
  }
}
