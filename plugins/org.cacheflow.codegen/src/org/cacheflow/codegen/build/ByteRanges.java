package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Byte ranges {@code {first, end}} (end exclusive) of one buffer: their union and what it leaves out. Ranges that
 * touch ({@code next.first == previous.end}) are one range.
 */
final class ByteRanges {

  private ByteRanges() {
  }

  /** The union of {@code ranges}, as disjoint ranges in ascending order (new arrays; the input is left alone). */
  static List<long[]> union(Collection<long[]> ranges) {
    List<long[]> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(range -> range[0]));
    List<long[]> union = new ArrayList<>();
    for (long[] range : sorted) {
      long[] last = union.isEmpty() ? null : union.get(union.size() - 1);
      if (last != null && range[0] <= last[1]) {
        last[1] = Math.max(last[1], range[1]);
      } else {
        union.add(new long[] {range[0], range[1]});
      }
    }
    return union;
  }

  /** The gaps {@code ranges} leave in {@code [0, end)}, in ascending order (nothing beyond {@code end}). */
  static List<long[]> gaps(Collection<long[]> ranges, long end) {
    List<long[]> gaps = new ArrayList<>();
    long next = 0;
    for (long[] range : union(ranges)) {
      if (next >= end) {
        break;
      }
      if (range[0] > next) {
        gaps.add(new long[] {next, Math.min(range[0], end)});
      }
      next = Math.max(next, range[1]);
    }
    if (next < end) {
      gaps.add(new long[] {next, end});
    }
    return gaps;
  }

  /** Whether {@code ranges} cover {@code [0, end)} without a gap. */
  static boolean cover(Collection<long[]> ranges, long end) {
    return gaps(ranges, end).isEmpty();
  }
}
