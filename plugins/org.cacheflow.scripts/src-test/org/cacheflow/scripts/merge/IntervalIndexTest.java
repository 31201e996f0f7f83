package org.cacheflow.scripts.merge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The overlap queries of {@link IntervalIndex} against a plain scan of the same intervals. */
class IntervalIndexTest {

  private record Interval(long start, long end, long order, int version) {

    Interval(long start, long end, long order) {
      this(start, end, order, 0);
    }
  }

  private static List<Interval> query(IntervalIndex<Interval> index, long from, long to) {
    List<Interval> found = new ArrayList<>();
    index.forEachOverlapping(from, to, found::add);
    return found;
  }

  /** What the merger needs: strict overlap, by (start, order). */
  private static List<Interval> scan(List<Interval> intervals, long from, long to) {
    List<Interval> found = new ArrayList<>();
    for (Interval interval : intervals) {
      if (interval.start() < to && interval.end() > from) {
        found.add(interval);
      }
    }
    found.sort(Comparator.comparingLong(Interval::start).thenComparingLong(Interval::order));
    return found;
  }

  private static IntervalIndex<Interval> indexOf(List<Interval> intervals) {
    IntervalIndex<Interval> index = new IntervalIndex<>();
    for (Interval interval : intervals) {
      index.add(interval.start(), interval.end(), interval.order(), interval);
    }
    return index;
  }

  @Test
  void adjacentIntervalsDoNotOverlap() {
    Interval left = new Interval(0, 8, 0);
    Interval right = new Interval(8, 16, 1);
    IntervalIndex<Interval> index = indexOf(List.of(left, right));
    assertEquals(List.of(left), query(index, 0, 8));
    assertEquals(List.of(right), query(index, 8, 16));
    assertEquals(List.of(left, right), query(index, 7, 9));
  }

  @Test
  void anEmptyIntervalOverlapsOnlyWhatStrictlySurroundsIt() {
    Interval empty = new Interval(8, 8, 0);
    Interval around = new Interval(4, 12, 1);
    Interval endingThere = new Interval(0, 8, 2);
    Interval startingThere = new Interval(8, 16, 3);
    IntervalIndex<Interval> index = indexOf(List.of(empty, around, endingThere, startingThere));
    // the empty interval is found by a range strictly around it, not by one that ends or starts at it
    assertEquals(List.of(endingThere, around, empty, startingThere), query(index, 6, 10));
    assertFalse(query(index, 0, 8).contains(empty));
    assertFalse(query(index, 8, 16).contains(empty));
    // an empty range at 8 sees what strictly surrounds bit 8
    assertEquals(List.of(around), query(index, 8, 8));
  }

  @Test
  void equalStartsComeInOrderOfTheirNumbers() {
    Interval late = new Interval(0, 4, 9);
    Interval early = new Interval(0, 100, 2);
    Interval middle = new Interval(0, 0, 5);
    IntervalIndex<Interval> index = indexOf(List.of(late, early, middle));
    assertEquals(List.of(early, late), query(index, 0, 4));
    List<Interval> all = new ArrayList<>();
    index.forEach(all::add);
    assertEquals(List.of(early, middle, late), all);
  }

  @Test
  void removingForgetsTheIntervalOnly() {
    Interval a = new Interval(0, 10, 0);
    Interval b = new Interval(0, 10, 1);
    IntervalIndex<Interval> index = indexOf(List.of(a, b));
    assertTrue(index.remove(0, 0));
    assertFalse(index.remove(0, 0));
    assertEquals(List.of(b), query(index, 5, 6));
    assertEquals(1, index.size());
  }

  @Test
  void replacingAnAbsentIntervalChangesNothing() {
    Interval a = new Interval(0, 10, 0);
    IntervalIndex<Interval> index = indexOf(List.of(a));
    assertFalse(index.replace(0, 7, new Interval(0, 10, 7)));
    assertEquals(List.of(a), query(index, 0, 1));
  }

  @Test
  void anIntervalEndingBeforeItStartsIsRefused() {
    IntervalIndex<Interval> index = new IntervalIndex<>();
    assertThrows(IllegalArgumentException.class, () -> index.add(5, 4, 0, new Interval(5, 4, 0)));
  }

  @Test
  void randomAddsRemovesAndQueriesAgreeWithAScan() {
    Random random = new Random(20261122);
    for (int round = 0; round < 200; round++) {
      IntervalIndex<Interval> index = new IntervalIndex<>();
      List<Interval> present = new ArrayList<>();
      long order = 0;
      // small coordinates so equal starts, shared ends, adjacency and empty intervals are common
      int span = 4 + random.nextInt(60);
      for (int step = 0; step < 300; step++) {
        int action = random.nextInt(10);
        if (action < 5 || present.isEmpty()) {
          long start = random.nextInt(span);
          long end = start + (random.nextInt(4) == 0 ? 0 : random.nextInt(span));
          Interval interval = new Interval(start, end, order++);
          index.add(start, end, interval.order(), interval);
          present.add(interval);
        } else if (action < 7) {
          Interval gone = present.remove(random.nextInt(present.size()));
          assertTrue(index.remove(gone.start(), gone.order()));
        } else if (action < 8) {
          // as the merger does when a segment is placed again where it was: same key, another value
          int which = random.nextInt(present.size());
          Interval old = present.get(which);
          Interval again = new Interval(old.start(), old.end(), old.order(), old.version() + 1);
          assertTrue(index.replace(old.start(), old.order(), again));
          present.set(which, again);
        } else {
          long from = random.nextInt(span + 2) - 1;
          long to = from + random.nextInt(span / 2 + 1);
          assertEquals(scan(present, from, to), query(index, from, to), "range [" + from + ", " + to + ")");
        }
        assertEquals(present.size(), index.size());
      }
    }
  }
}
