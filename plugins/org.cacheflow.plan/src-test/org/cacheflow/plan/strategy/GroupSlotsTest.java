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
    assertEquals(10, GroupSlots.of(ZEN4, 112_896, 2), "map 168x168 int's group: 10 x 110 KiB >= 1 MiB");
    assertEquals(16, GroupSlots.of(ZEN4, 64 << 10, 2), "farm 64x64's 64 KiB: 16 slots");
    assertEquals(64, GroupSlots.of(ZEN4, 16 << 10, 2), "farm 32x32's 16 KiB: 64 slots make 1 MiB");
    assertTrue(GroupSlots.spansL2(ZEN4, 16 << 10, 2, 0), "so the planner charges its lines as spanning");
  }

  @Test
  void smallGroupsStopAtTheMostAndTheStrategysSlotsAreTheLeast() {
    assertEquals(GroupSlots.MAX_SLOTS, GroupSlots.of(ZEN4, 1 << 10, 2), "1 KiB: the most, short of the L2");
    assertTrue(!GroupSlots.spansL2(ZEN4, 1 << 10, 2, 0), "and its lines are charged as not spanning");
    assertEquals(GroupSlots.MAX_SLOTS, GroupSlots.of(ZEN4, 0, 2), "an empty group does not divide by zero");
    assertEquals(3, GroupSlots.of(ZEN4, 4L << 20, 3));
    assertEquals(80, GroupSlots.of(ZEN4, 1 << 10, 80), "the least wins over the most");
    TargetCache small = TargetCache.GENERIC; // 256 KiB L2
    assertEquals(4, GroupSlots.of(small, 64 << 10, 2));
  }

  /**
   * A reader goes through all the groups its cores share each iteration: the slots also stop where those groups'
   * bytes together (the traffic) make twice the L2 -- never fewer than the strategy's, never more than the group alone
   * would get.
   */
  @Test
  void theOtherGroupsOfItsCoresCountTowardsTheL2() {
    assertEquals(64, GroupSlots.of(ZEN4, 16 << 10, 32 << 10, 2, 0), "farm 32x32: two 16 KiB groups make 2 MiB at 64");
    assertEquals(4, GroupSlots.of(ZEN4, 1L << 18, 1L << 19, 2, 0), "farm 128x128: two 256 KiB groups, 4 slots");
    assertEquals(10, GroupSlots.of(ZEN4, 112_896, 112_896 + 2 * 672, 2, 0), "map 168x168's row group: its own 10");
    assertEquals(19, GroupSlots.of(ZEN4, 672, 112_896 + 2 * 672, 2, 0), "map 168x168's 672-byte vectors: 19, not 64");
    assertEquals(2, GroupSlots.of(ZEN4, 393_216, 29 * 393_216, 2, 0), "stereo's 29 groups of 384 KiB: 2, not 3");
    assertEquals(6, GroupSlots.of(ZEN4, 200_704, 100, 2, 0), "traffic below the group's own bytes: the group's");
    assertEquals(2, GroupSlots.of(ZEN4, 1 << 10, 8L << 20, 2, 0), "far beyond the L2: the strategy's 2");
    assertEquals(8, GroupSlots.of(ZEN4, 16 << 10, 32 << 10, 2, 8), "asked for: as asked");
    assertEquals(new GroupSlots.Reason(GroupSlots.Reason.Rule.TRAFFIC, 2, 393_216, 29 * 393_216, 1 << 20, 2),
        GroupSlots.why(ZEN4, 393_216, 29 * 393_216, 2));
    assertEquals(GroupSlots.Reason.Rule.SPANNING, GroupSlots.why(ZEN4, 112_896, 114_240, 10).rule());
  }

  @Test
  void theReasonSaysWhichCase() {
    assertEquals(GroupSlots.Reason.Rule.SPANNING, GroupSlots.why(ZEN4, 200_704, 6).rule());
    assertEquals(GroupSlots.Reason.Rule.MOST, GroupSlots.why(ZEN4, 1 << 10, 64).rule());
    assertEquals(GroupSlots.Reason.Rule.SPANNING, GroupSlots.why(ZEN4, 16 << 10, 64).rule());
    assertEquals(GroupSlots.Reason.Rule.ONE_SPANS, GroupSlots.why(ZEN4, 4L << 20, 2).rule());
  }
}
