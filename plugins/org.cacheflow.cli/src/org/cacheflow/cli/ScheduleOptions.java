package org.cacheflow.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.cacheflow.plan.schedule.RunSchedule;

import picocli.CommandLine.Option;

/** {@code --schedule}, {@code --variable}, {@code --cost-spread}: mixed into plan, generate, run-workflow. */
final class ScheduleOptions {

  @Option(names = "--schedule", paramLabel = "S", description = "static (default): a static order per core; "
      + "dynamic: every firing placed at run time on the core free first; hybrid: steady actors in a static order, "
      + "the variable ones placed at run time (docs/schedule.md)")
  String schedule;

  @Option(names = "--variable", paramLabel = "ACTOR", description = "an actor whose cost varies: its firings go "
      + "to the pool of a hybrid schedule (repeatable)")
  List<String> variable = new ArrayList<>();

  @Option(names = "--cost-spread", paramLabel = "ACTOR=CV", description = "the coefficient of variation of an "
      + "actor's firing times (standard deviation / mean); above " + RunSchedule.VARIABLE_ABOVE + " the actor is "
      + "variable for a hybrid schedule (repeatable)")
  List<String> spread = new ArrayList<>();

  /** The choice as the pipeline takes it (static when not given); a usage error for an unknown schedule. */
  RunSchedule schedule() {
    return new RunSchedule(kind() == null ? RunSchedule.Kind.STATIC : kind(), variable, spread());
  }

  /** The schedule given, or null. */
  RunSchedule.Kind kind() {
    if (schedule == null) {
      return null;
    }
    return RunSchedule.Kind.parse(schedule).orElseThrow(() -> new UsageException("unknown schedule '" + schedule
        + "' (known: " + RunSchedule.Kind.labels() + ")"));
  }

  /** The cost spreads given, by actor; a usage error for an entry that is not ACTOR=CV. */
  Map<String, Double> spread() {
    try {
      return RunSchedule.parseSpreads(spread);
    } catch (IllegalArgumentException e) {
      throw new UsageException("--cost-spread: " + e.getMessage());
    }
  }
}
