package org.cacheflow.codegen.model;

import java.util.List;

/**
 * The firing table of a program whose firings the runtime's dispatcher places ({@code cf_sched}, a dynamic or
 * hybrid schedule): one entry per step of the one-core program's iteration, with the steps it must follow.
 *
 * @param hybrid whether steady firings keep a static order per core (else every firing is dynamic)
 * @param threads the workers the program runs on
 * @param firings in the one-core program's order (a topological order of the successor edges)
 * @param orders hybrid: per core, the indices of its steady firings in order; empty for dynamic
 */
public record SchedTable(boolean hybrid, int threads, List<SchedFiring> firings, List<List<Integer>> orders) {

  /**
   * One firing of the table.
   *
   * @param statements what it runs (an actor call, or the copies and digests of special actors)
   * @param successors the firings of the same iteration that must wait for it
   * @param predecessors how many firings it waits for
   * @param priority its bottom level: the longest path of costs from it to the end of the iteration
   * @param variable whether it goes to the pool in a hybrid run
   * @param label what it runs, for comments
   */
  public record SchedFiring(List<Statement> statements, List<Integer> successors, int predecessors, long priority,
      boolean variable, String label) {

    public SchedFiring {
      statements = List.copyOf(statements);
      successors = List.copyOf(successors);
    }
  }

  public SchedTable {
    firings = List.copyOf(firings);
    orders = orders.stream().map(List::copyOf).toList();
  }
}
