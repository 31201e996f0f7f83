package org.cacheflow.codegen.model;

import java.util.List;

/**
 * The firing table of a program whose firings the runtime's dispatcher places ({@code cf_sched}, a dynamic or
 * hybrid schedule): one entry per step of the one-core program's iteration, with the steps it must follow.
 *
 * @param hybrid whether steady firings keep a static order per core (else every firing is dynamic)
 * @param threads the workers the program runs on
 * @param slots the iterations in flight: every buffer an iteration uses on its own has this many copies, iteration
 *     i in copy i % slots
 * @param firings in the one-core program's order (a topological order of the same-iteration successor edges)
 * @param orders hybrid: per core, the indices of its steady firings in order; empty for dynamic
 */
public record SchedTable(boolean hybrid, int threads, int slots, List<SchedFiring> firings,
    List<List<Integer>> orders) {

  /**
   * One firing of the table.
   *
   * @param statements what it runs (an actor call, or the copies and digests of special actors)
   * @param successors the firings of the same iteration that must wait for it
   * @param later the firings of the next iteration that must wait for it (its own next firing when it keeps state
   *     or an order, those that touch memory it touches that the iterations share)
   * @param predecessors how many edges come into it (of this iteration and of the previous one)
   * @param priority its bottom level: the longest path of costs from it to the end of the iteration
   * @param variable whether it goes to the pool in a hybrid run
   * @param label what it runs, for comments
   */
  public record SchedFiring(List<Statement> statements, List<Integer> successors, List<Integer> later,
      int predecessors, long priority, boolean variable, String label) {

    public SchedFiring {
      statements = List.copyOf(statements);
      successors = List.copyOf(successors);
      later = List.copyOf(later);
    }
  }

  public SchedTable {
    if (slots < 1) {
      throw new IllegalArgumentException("a firing table needs at least one slot, got " + slots);
    }
    firings = List.copyOf(firings);
    orders = orders.stream().map(List::copyOf).toList();
  }
}
