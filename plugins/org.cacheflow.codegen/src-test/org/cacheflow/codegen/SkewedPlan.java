package org.cacheflow.codegen;

import java.util.ArrayDeque;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;

import org.cacheflow.codegen.build.PlannedExecution;

/**
 * The planner's plan with iteration offsets (software pipelining) of the test's choosing: every vertex reachable
 * from a chosen vertex gets {@code skew}, the others 0, so a consumer never has a smaller offset than its producer.
 */
final class SkewedPlan extends DelegatingPlan {

  private final int[] skew;

  SkewedPlan(PlannedExecution plan, IntPredicate chosen, int skew) {
    super(plan);
    this.skew = new int[plan.srdag().vertexCount()];
    ArrayDeque<Integer> work = new ArrayDeque<>();
    for (int v = 0; v < this.skew.length; v++) {
      if (chosen.test(v)) {
        work.add(v);
      }
    }
    while (!work.isEmpty()) {
      int v = work.pop();
      if (this.skew[v] == skew) {
        continue;
      }
      this.skew[v] = skew;
      for (int e : plan.srdag().outgoingEdges(v)) {
        work.add(plan.srdag().edgeTarget(e));
      }
    }
  }

  /** The vertices whose name matches the regular expression, and those reachable from them, get offset 1. */
  static SkewedPlan from(PlannedExecution plan, String vertexName) {
    Pattern pattern = Pattern.compile(vertexName);
    return new SkewedPlan(plan, v -> pattern.matcher(plan.srdag().vertexName(v)).matches(), 1);
  }

  /** The offsets given. */
  int[] offsets() {
    return skew.clone();
  }

  @Override
  public int skew(int vertex) {
    return skew[vertex];
  }
}
