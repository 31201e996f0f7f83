package org.cacheflow.codegen.build;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Unions and gaps of byte ranges, as the buffer layout, synthetic bodies and pre-stores use them. */
class ByteRangesTest {

  private static long[][] array(List<long[]> ranges) {
    return ranges.toArray(long[][]::new);
  }

  @Test
  void theUnionMergesOverlappingAndTouchingRangesInOrder() {
    List<long[]> ranges = new ArrayList<>(List.of(new long[] {40, 50}, new long[] {0, 10}, new long[] {10, 20},
        new long[] {15, 18}, new long[] {30, 35}, new long[] {34, 41}));
    assertArrayEquals(new long[][] {{0, 20}, {30, 50}}, array(ByteRanges.union(ranges)));
    assertArrayEquals(new long[] {40, 50}, ranges.get(0), "the input is left alone");
    assertEquals(6, ranges.size());
    assertTrue(ByteRanges.union(List.of()).isEmpty());
  }

  @Test
  void gapsAreWhatTheRangesLeaveBeforeTheEnd() {
    List<long[]> ranges = List.of(new long[] {30, 35}, new long[] {5, 10}, new long[] {8, 12});
    assertArrayEquals(new long[][] {{0, 5}, {12, 30}, {35, 64}}, array(ByteRanges.gaps(ranges, 64)));
    // nothing beyond the end: a range past it leaves no gap there
    assertArrayEquals(new long[][] {{0, 5}, {12, 20}}, array(ByteRanges.gaps(ranges, 20)));
    assertArrayEquals(new long[][] {{0, 8}}, array(ByteRanges.gaps(List.of(), 8)));
    assertTrue(ByteRanges.gaps(List.of(), 0).isEmpty());
  }

  @Test
  void coverMeansNoGapFromTheStartToTheEnd() {
    assertTrue(ByteRanges.cover(List.of(new long[] {0, 10}, new long[] {10, 16}), 16));
    assertTrue(ByteRanges.cover(List.of(new long[] {0, 10}, new long[] {12, 16}), 10), "a gap past the end");
    assertFalse(ByteRanges.cover(List.of(new long[] {0, 10}, new long[] {11, 16}), 16));
    assertFalse(ByteRanges.cover(List.of(new long[] {1, 16}), 16), "the first byte");
    assertFalse(ByteRanges.cover(List.of(new long[] {0, 15}), 16), "the last byte");
  }
}
