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

  private static long[][] array(List<ByteRange> ranges) {
    return ranges.stream().map(range -> new long[] {range.first(), range.end()}).toArray(long[][]::new);
  }

  private static ByteRange r(long first, long end) {
    return new ByteRange(first, end);
  }

  @Test
  void theUnionMergesOverlappingAndTouchingRangesInOrder() {
    List<ByteRange> ranges = new ArrayList<>(List.of(r(40, 50), r(0, 10), r(10, 20),
        r(15, 18), r(30, 35), r(34, 41)));
    assertArrayEquals(new long[][] {{0, 20}, {30, 50}}, array(ByteRanges.union(ranges)));
    assertEquals(r(40, 50), ranges.get(0), "the input is left alone");
    assertEquals(6, ranges.size());
    assertTrue(ByteRanges.union(List.of()).isEmpty());
  }

  @Test
  void gapsAreWhatTheRangesLeaveBeforeTheEnd() {
    List<ByteRange> ranges = List.of(r(30, 35), r(5, 10), r(8, 12));
    assertArrayEquals(new long[][] {{0, 5}, {12, 30}, {35, 64}}, array(ByteRanges.gaps(ranges, 64)));
    // nothing beyond the end: a range past it leaves no gap there
    assertArrayEquals(new long[][] {{0, 5}, {12, 20}}, array(ByteRanges.gaps(ranges, 20)));
    assertArrayEquals(new long[][] {{0, 8}}, array(ByteRanges.gaps(List.of(), 8)));
    assertTrue(ByteRanges.gaps(List.of(), 0).isEmpty());
  }

  @Test
  void coverMeansNoGapFromTheStartToTheEnd() {
    assertTrue(ByteRanges.cover(List.of(r(0, 10), r(10, 16)), 16));
    assertTrue(ByteRanges.cover(List.of(r(0, 10), r(12, 16)), 10), "a gap past the end");
    assertFalse(ByteRanges.cover(List.of(r(0, 10), r(11, 16)), 16));
    assertFalse(ByteRanges.cover(List.of(r(1, 16)), 16), "the first byte");
    assertFalse(ByteRanges.cover(List.of(r(0, 15)), 16), "the last byte");
  }
}
