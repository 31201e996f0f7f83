package org.cacheflow.codegen.build;

/**
 * An ordered pair of cores: {@code from} signals {@code to}. Ordered by {@code from}, then {@code to}.
 */
record CorePair(int from, int to) implements Comparable<CorePair> {

  @Override
  public int compareTo(CorePair other) {
    return from != other.from ? Integer.compare(from, other.from) : Integer.compare(to, other.to);
  }
}
