package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.cacheflow.model.Timing;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.model.expression.Expression;

/**
 * Where a scenario's actor timings and a profile's measured medians disagree. With the scenario's time unit known
 * (the target's {@code timing.ns}, nanoseconds per unit) each timing is converted to nanoseconds and compared with
 * the median; with it unknown (0, the built-in targets' default) both sets are normalised so that their sums over
 * the actors they share match, and each actor's share is compared: a scenario that is uniformly slower or faster
 * than the machine is consistent, one that has an actor's weight wrong is not. Either way, a ratio above
 * {@link #FACTOR} (either way round) is a contradiction.
 */
final class TimingCheck {

  /** How far apart a timing and a median may be before they contradict each other. */
  static final double FACTOR = 2.0;

  private TimingCheck() {
  }

  /**
   * One actor's scenario timing (in the scenario's unit) and measured median (ns).
   *
   * @param actor the actor's path
   * @param declared the scenario's timing, in its unit
   * @param measuredNs the profile's median, in nanoseconds
   * @param location the timing's place in the scenario
   */
  record Pair(String actor, double declared, double measuredNs, SourceLocation location) {

    /**
     * The pair of a scenario timing, if its expression has a value without parameters (a timing that depends on
     * parameters is not compared).
     */
    static Optional<Pair> of(String actor, Timing timing, double measuredNs) {
      SourceLocation at = new SourceLocation(timing.getFile() == null ? "<scenario>" : timing.getFile(),
          timing.getLine(), timing.getColumn());
      try {
        long value = Expression.parse(timing.getExpression(), at).evaluate(Map.of());
        return value > 0 && measuredNs > 0 ? Optional.of(new Pair(actor, value, measuredNs, at)) : Optional.empty();
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    }
  }

  /**
   * A contradiction: the pair, how far apart, and the sentences saying it.
   *
   * @param ratio the larger over the smaller figure (nanoseconds, or shares)
   * @param message the warning
   * @param fact the plan report's value of the fact
   */
  record Contradiction(Pair pair, double ratio, String message, String fact) {
  }

  /** The pairs that contradict each other, in the order given. */
  static List<Contradiction> contradictions(List<Pair> pairs, double timeUnitNanos) {
    List<Contradiction> found = new ArrayList<>();
    if (timeUnitNanos > 0) {
      for (Pair pair : pairs) {
        double declaredNs = pair.declared() * timeUnitNanos;
        double ratio = ratio(declaredNs, pair.measuredNs());
        if (ratio > FACTOR) {
          found.add(new Contradiction(pair, ratio, pair.actor() + ": the scenario's timing " + number(pair.declared())
              + " (" + number(declaredNs) + " ns at the target's timing.ns " + number(timeUnitNanos) + ") and the "
              + "profile's median " + number(pair.measuredNs()) + " ns are " + number(ratio) + "x apart (more than "
              + number(FACTOR) + "x); planned with the measured time", "scenario " + number(declaredNs)
              + " ns, measured " + number(pair.measuredNs()) + " ns: " + number(ratio) + "x apart"));
        }
      }
      return found;
    }
    if (pairs.stream().map(Pair::actor).distinct().count() < 2) {
      return found; // one actor has no share to compare
    }
    double declaredSum = pairs.stream().mapToDouble(Pair::declared).sum();
    double measuredSum = pairs.stream().mapToDouble(Pair::measuredNs).sum();
    for (Pair pair : pairs) {
      double declaredShare = pair.declared() / declaredSum;
      double measuredShare = pair.measuredNs() / measuredSum;
      double ratio = ratio(declaredShare, measuredShare);
      if (ratio > FACTOR) {
        found.add(new Contradiction(pair, ratio, pair.actor() + ": its share of the scenario's timings ("
            + percent(declaredShare) + ") and of the profile's medians (" + percent(measuredShare) + ") are "
            + number(ratio) + "x apart (more than " + number(FACTOR) + "x; the scenario's time unit is unknown, "
            + "the target's timing.ns is 0, so the actors' shares are compared); planned with the measured time",
            "share of the scenario's timings " + percent(declaredShare) + ", measured " + percent(measuredShare)
                + ": " + number(ratio) + "x apart"));
      }
    }
    return found;
  }

  private static double ratio(double a, double b) {
    return Math.max(a, b) / Math.min(a, b);
  }

  private static String number(double value) {
    return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.3g", value)
        .replaceFirst("\\.?0+$", "");
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", 100 * share);
  }
}
