package org.cacheflow.codegen.build;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * Byte ranges of one buffer: their union and what it leaves out. Ranges that touch ({@code next.first ==
 * previous.end}) are one range.
 */
final class ByteRanges {

  private ByteRanges() {
  }

  /** The union of {@code ranges}, as disjoint ranges in ascending order. */
  static List<ByteRange> union(Collection<ByteRange> ranges) {
    List<ByteRange> sorted = new ArrayList<>(ranges);
    sorted.sort(Comparator.comparingLong(ByteRange::first));
    List<ByteRange> union = new ArrayList<>();
    for (ByteRange range : sorted) {
      ByteRange last = union.isEmpty() ? null : union.get(union.size() - 1);
      if (last != null && range.first() <= last.end()) {
        union.set(union.size() - 1, new ByteRange(last.first(), Math.max(last.end(), range.end())));
      } else {
        union.add(range);
      }
    }
    return union;
  }

  /** The gaps {@code ranges} leave in {@code [0, end)}, in ascending order (nothing beyond {@code end}). */
  static List<ByteRange> gaps(Collection<ByteRange> ranges, long end) {
    List<ByteRange> gaps = new ArrayList<>();
    long next = 0;
    for (ByteRange range : union(ranges)) {
      if (next >= end) {
        break;
      }
      if (range.first() > next) {
        gaps.add(new ByteRange(next, Math.min(range.first(), end)));
      }
      next = Math.max(next, range.end());
    }
    if (next < end) {
      gaps.add(new ByteRange(next, end));
    }
    return gaps;
  }

  /** Whether {@code ranges} cover {@code [0, end)} without a gap. */
  static boolean cover(Collection<ByteRange> ranges, long end) {
    return gaps(ranges, end).isEmpty();
  }
}
