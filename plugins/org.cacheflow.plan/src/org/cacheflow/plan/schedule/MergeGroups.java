package org.cacheflow.plan.schedule;

import org.cacheflow.plan.strategy.MeasuredCosts;

/**
 * The buffers that share memory, as the scheduler weighs them, per SRDAG edge: the root edge of the memory-script
 * merge group that holds it ({@link SteadyState}: a group several cores use is freed per group, not per edge), and
 * whether that group's slots together span the target's L2 ({@link CoreCount}: its cross-core lines cost
 * {@link MeasuredCosts#spanningLineNanos()} instead of {@link MeasuredCosts#lineNanos()}).
 *
 * @param roots per edge, the root edge of its merge group, or -1; null: no merge groups
 * @param spanning per edge, whether it lies in a merge group whose slots span the L2; null: none
 */
public record MergeGroups(int[] roots, boolean[] spanning) {

  /** No merge groups: every buffer its own memory, every line at the line cost. */
  public static final MergeGroups NONE = new MergeGroups(null, null);

  /** Whether {@code edge}'s lines are charged the spanning cost. */
  boolean spans(int edge) {
    return spanning != null && spanning[edge];
  }
}
