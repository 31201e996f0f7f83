package org.cacheflow.cli;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.plan.schedule.RunSchedule;

import picocli.CommandLine.Option;

/** {@code --schedule} and {@code --variable} ({@code @Mixin} of plan and generate). */
final class ScheduleOptions {

  @Option(names = "--schedule", paramLabel = "S", description = "static (default): a static order per core; "
      + "dynamic: every firing placed at run time on the core free first; hybrid: steady actors in a static order, "
      + "the --variable ones placed at run time (docs/schedule.md)")
  String schedule = RunSchedule.Kind.STATIC.label();

  @Option(names = "--variable", paramLabel = "ACTOR", description = "an actor whose cost varies: its firings go "
      + "to the pool of a hybrid schedule (repeatable)")
  List<String> variable = new ArrayList<>();

  /** The choice as the pipeline takes it; a usage error for an unknown schedule. */
  RunSchedule schedule() {
    RunSchedule.Kind parsed = RunSchedule.Kind.parse(schedule).orElseThrow(() -> new UsageException("unknown "
        + "schedule '" + schedule + "' (known: " + RunSchedule.Kind.labels() + ")"));
    return new RunSchedule(parsed, variable);
  }
}
