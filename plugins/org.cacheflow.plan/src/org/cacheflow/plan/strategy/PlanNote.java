package org.cacheflow.plan.strategy;

import java.util.List;

/**
 * A remark of the planner for the user: how the cores were balanced, pipelined or counted, why iterations are not
 * pipelined, or an override that applied to only some buffers. A value; the report bundle words it
 * ({@code org.cacheflow.report.DecisionText}). Vertices are single-rate vertices, cores indexes into the platform.
 */
public sealed interface PlanNote {

  /** Which remark. */
  Rule rule();

  /** Every kind of remark. */
  enum Rule {
    /** {@link PartialOverride}. */
    PARTIAL_OVERRIDE,
    /** {@link Balanced}. */
    BALANCED,
    /** {@link Pipelined}. */
    PIPELINED,
    /** {@link NotPipelined}: a copy-on-write view would be used in two iterations at once. */
    NOT_PIPELINED_VIEW,
    /** {@link NotPipelined}: an init prototype fills a buffer two iterations would use at once. */
    NOT_PIPELINED_INIT,
    /** {@link CoreVerdict}: the cores stay. */
    KEPT_CORES,
    /** {@link CoreVerdict}: one core, the gain within the prediction's margin. */
    FEWER_CORES_WITHIN_MARGIN,
    /** {@link CoreVerdict}: one core, the hand-offs and data cost more than the work they share. */
    FEWER_CORES_COSTLY
  }

  /**
   * An override that applied to {@code applied} of the {@code buffers} buffers of a FIFO; the others keep their
   * strategy, the first for {@code why}.
   */
  record PartialOverride(String override, int applied, int buffers, int fifo, OverrideRefusal why)
      implements PlanNote {
    @Override
    public Rule rule() {
      return Rule.PARTIAL_OVERRIDE;
    }
  }

  /**
   * The cores balanced for pipelined iterations: the period before and after, in us when the timing unit is known
   * ({@code micros}), else in scenario time units.
   */
  record Balanced(double before, double after, boolean micros, int moved, int swapped) implements PlanNote {
    @Override
    public Rule rule() {
      return Rule.BALANCED;
    }
  }

  /** The firings one core runs an iteration behind: at most a few named, then how many {@code more}. */
  record CoreFirings(int core, List<Integer> vertices, int more) {
    public CoreFirings {
      vertices = List.copyOf(vertices);
    }
  }

  /**
   * The cores' loops pipelined: {@code count} firings behind ({@code behind} per core), the cores balanced anew or not,
   * the period before and after (us when {@code micros}, else scenario time units).
   */
  record Pipelined(List<CoreFirings> behind, int count, boolean rebalanced, double before, double after,
      boolean micros) implements PlanNote {
    public Pipelined {
      behind = List.copyOf(behind);
    }

    @Override
    public Rule rule() {
      return Rule.PIPELINED;
    }
  }

  /**
   * Not pipelined: {@link Rule#NOT_PIPELINED_VIEW} (the view {@code from -> to}) or {@link Rule#NOT_PIPELINED_INIT}
   * (the init prototype of {@code from}; {@code to} -1); {@code remapped} when the cores were mapped again for loops
   * without iteration offsets.
   */
  record NotPipelined(Rule rule, int from, int to, boolean remapped) implements PlanNote {
    /** The same, the cores mapped again. */
    public NotPipelined mappedAgain() {
      return new NotPipelined(rule, from, to, true);
    }
  }

  /** A step of a critical cycle across cores: a vertex and its core. */
  record CycleStep(int vertex, int core) {
  }

  /**
   * What the busiest core of a schedule would take an iteration, in ns.
   *
   * @param core the core
   * @param nanos its work, hand-offs and lines
   * @param busyNanos its work alone
   * @param handoffs its hand-offs
   * @param lines its cache lines pulled from or taken back by another core
   * @param spanningLines those of them in merge groups whose slots span the L2
   */
  record CoreLoad(int core, double nanos, double busyNanos, long handoffs, long lines, long spanningLines) {
  }

  /**
   * Whether more cores beat one ({@link org.cacheflow.plan.schedule.CoreCount}): {@link Rule#KEPT_CORES},
   * {@link Rule#FEWER_CORES_WITHIN_MARGIN} or {@link Rule#FEWER_CORES_COSTLY}, with the figures weighed (ns).
   *
   * @param cores the cores the schedule had
   * @param workNanos one iteration's work on one core
   * @param busiest the busiest core's load
   * @param costs the target's costs the loads were charged at (time unit, hand-off, line)
   * @param cycle the critical cycle across cores when it is longer than the busiest core (null otherwise); empty when
   *     its critical firings are inserted vertices
   * @param cycleIterations how many iterations later the cycle comes back to its first firing
   * @param periodNanos an iteration's predicted time: the cycle's, or the busiest core's
   * @param margin the gain below which the prediction cannot tell more cores from break-even
   */
  record CoreVerdict(Rule rule, int cores, double workNanos, CoreLoad busiest, MeasuredCosts costs,
      List<CycleStep> cycle, int cycleIterations, double periodNanos, double margin) implements PlanNote {
  }
}
