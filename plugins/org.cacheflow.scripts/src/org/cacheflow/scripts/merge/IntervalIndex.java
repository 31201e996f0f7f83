package org.cacheflow.scripts.merge;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Half-open intervals {@code [start, end)} kept sorted by (start, order), where {@code order} is a number unique
 * per interval that breaks ties. Finding the intervals that overlap a range costs O(log n + k) expected: a
 * treap whose nodes know the largest end in their subtree, so subtrees ending before the range are skipped.
 *
 * <p>Overlap is strict: {@code [s, e)} and {@code [from, to)} overlap when {@code s < to && e > from}, so
 * adjacent intervals do not overlap, and an empty interval overlaps only a range strictly around it.
 */
final class IntervalIndex<T> {

  private static final class Node<T> {
    final long start;
    final long end;
    final long order;
    T value;
    final int priority;
    long maxEnd;
    Node<T> left;
    Node<T> right;

    Node(long start, long end, long order, T value, int priority) {
      this.start = start;
      this.end = end;
      this.order = order;
      this.value = value;
      this.priority = priority;
      this.maxEnd = end;
    }

    int compareTo(long otherStart, long otherOrder) {
      int byStart = Long.compare(start, otherStart);
      return byStart != 0 ? byStart : Long.compare(order, otherOrder);
    }

    void update() {
      long max = end;
      if (left != null && left.maxEnd > max) {
        max = left.maxEnd;
      }
      if (right != null && right.maxEnd > max) {
        max = right.maxEnd;
      }
      maxEnd = max;
    }
  }

  // a fixed seed: the shape never changes what a query returns, only how fast
  private final SplittableRandom random = new SplittableRandom(0x5EED);
  private Node<T> root;
  private int size;

  int size() {
    return size;
  }

  /** Adds an interval; (start, order) must not be in the index already. */
  void add(long start, long end, long order, T value) {
    if (end < start) {
      throw new IllegalArgumentException("interval [" + start + ", " + end + ") ends before it starts");
    }
    Node<T> node = new Node<>(start, end, order, value, random.nextInt());
    Node<T>[] parts = split(root, start, order);
    root = merge(merge(parts[0], node), parts[1]);
    size++;
  }

  /** Removes the interval with this start and order; false when there is none. */
  boolean remove(long start, long order) {
    int before = size;
    root = remove(root, start, order);
    return size < before;
  }

  /** Gives the interval (start, order) the value {@code value}; false when there is no such interval. */
  boolean replace(long start, long order, T value) {
    Node<T> node = root;
    while (node != null) {
      int comparison = node.compareTo(start, order);
      if (comparison == 0) {
        node.value = value;
        return true;
      }
      node = comparison < 0 ? node.right : node.left;
    }
    return false;
  }

  /** Calls {@code action} for every interval overlapping {@code [from, to)}, by increasing (start, order). */
  void forEachOverlapping(long from, long to, Consumer<? super T> action) {
    visit(root, from, to, action);
  }

  /** Calls {@code action} for every interval by increasing (start, order). */
  void forEach(Consumer<? super T> action) {
    inOrder(root, action);
  }

  private static <T> void inOrder(Node<T> node, Consumer<? super T> action) {
    while (node != null) {
      inOrder(node.left, action);
      action.accept(node.value);
      node = node.right;
    }
  }

  private static <T> void visit(Node<T> node, long from, long to, Consumer<? super T> action) {
    while (node != null && node.maxEnd > from) {
      visit(node.left, from, to, action);
      if (node.start >= to) {
        return; // the right subtree starts even later
      }
      if (node.end > from) {
        action.accept(node.value);
      }
      node = node.right;
    }
  }

  /** Splits into the nodes before (start, order) and those at or after it. */
  @SuppressWarnings("unchecked")
  private static <T> Node<T>[] split(Node<T> node, long start, long order) {
    if (node == null) {
      return new Node[] { null, null };
    }
    if (node.compareTo(start, order) < 0) {
      Node<T>[] parts = split(node.right, start, order);
      node.right = parts[0];
      node.update();
      parts[0] = node;
      return parts;
    }
    Node<T>[] parts = split(node.left, start, order);
    node.left = parts[1];
    node.update();
    parts[1] = node;
    return parts;
  }

  /** Joins two treaps, every node of {@code left} ordered before every node of {@code right}. */
  private static <T> Node<T> merge(Node<T> left, Node<T> right) {
    if (left == null) {
      return right;
    }
    if (right == null) {
      return left;
    }
    if (left.priority > right.priority) {
      left.right = merge(left.right, right);
      left.update();
      return left;
    }
    right.left = merge(left, right.left);
    right.update();
    return right;
  }

  private Node<T> remove(Node<T> node, long start, long order) {
    if (node == null) {
      return null;
    }
    int comparison = node.compareTo(start, order);
    if (comparison == 0) {
      size--;
      return merge(node.left, node.right);
    }
    if (comparison > 0) {
      node.left = remove(node.left, start, order);
    } else {
      node.right = remove(node.right, start, order);
    }
    node.update();
    return node;
  }
}
