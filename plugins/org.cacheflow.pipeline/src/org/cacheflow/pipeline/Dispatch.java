package org.cacheflow.pipeline;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.codegen.build.DispatchedExecution;
import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.SchedFirings;
import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.codegen.model.Statement;
import org.cacheflow.codegen.model.SchedTable;
import org.cacheflow.plan.strategy.TargetCache;
import org.cacheflow.model.Architecture;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.report.DecisionText;

/**
 * What {@code generate} plans and writes for its schedule ({@code --schedule}): for {@code static}, the platform,
 * strategy and choices as given; for {@code dynamic} and {@code hybrid}, a plan of one core with the asked strategy
 * restricted to what does not depend on the core that runs a firing ({@link DispatchedExecution}: merge groups and
 * non-temporal copies; memory no core owns, in the one-core order that the firing table's edges follow), run by the
 * dispatcher on as many workers as the platform has cores.
 *
 * @param schedule the choice
 * @param platform what the planner maps on
 * @param choices what it plans with
 * @param preset the generated code's strategy
 * @param threads the workers of a dispatched schedule (the platform's cores as asked)
 * @param slots the iterations a dispatched schedule overlaps ({@code --override slots=K}, else
 *     {@link #DEFAULT_SLOTS}): every buffer an iteration uses on its own gets as many copies
 * @param asked the strategy asked for
 */
record Dispatch(RunSchedule schedule, Platform platform, PlanChoices choices, CodePreset preset, int threads,
    int slots, StrategyPreset asked) {

  /** The iterations in flight of a dispatched schedule when {@code slots=K} is not given. */
  static final int DEFAULT_SLOTS = 2;
  /** The most iterations in flight the runtime's dispatcher takes ({@code CF_SCHED_MAX_SLOTS}). */
  static final int MOST_SLOTS = 1 << 20;

  static Dispatch of(GenerateOptions options, Platform platform, Architecture architecture, TargetCache target) {
    RunSchedule schedule = options.schedule();
    if (!schedule.dispatched()) {
      return new Dispatch(schedule, platform, PlanChoices.of(options), options.codePreset(), platform.size(), 1,
          options.strategy());
    }
    if (platform.nodes() > 1) {
      throw new OptionException(OptionException.SCHEDULE, schedule.kind().label() + " runs on one shared-memory "
          + "machine, not on " + platform.nodes() + " nodes (use --schedule static with --nodes)");
    }
    if (schedule.kind() == RunSchedule.Kind.DYNAMIC && !schedule.variable().isEmpty()) {
      throw new OptionException(OptionException.VARIABLE, "marks actors for --schedule hybrid; with dynamic every "
          + "firing is placed at run time");
    }
    int slots = slots(options.slots());
    if (slots > MOST_SLOTS) {
      throw new OptionException(OptionException.OVERRIDE, "slots=" + slots + ": a dispatched schedule runs at most "
          + MOST_SLOTS + " iterations at once (the runtime's CF_SCHED_MAX_SLOTS)");
    }
    Platform one = new PlatformOptions(null, 1).forGenerate(architecture, target);
    PlanChoices choices = new PlanChoices(options.policy(), options.strategy(), kept(options.overrides()), false,
        OptionalInt.empty());
    return new Dispatch(schedule, one, choices, CodePreset.of(options.strategy()), platform.size(), slots,
        options.strategy());
  }

  /**
   * The per-FIFO overrides a dispatched schedule keeps: those whose strategy does not depend on the core that runs a
   * firing (merges, direct buffers, plain and non-temporal copies).
   */
  static List<StrategyOverride> kept(List<StrategyOverride> overrides) {
    return overrides.stream().filter(o -> o.strategy().holdsOnAnyCore()).toList();
  }

  /**
   * The warnings for the per-FIFO overrides a dispatched schedule leaves out (copy-on-write views, pre-stores,
   * channels: what needs the cores of a static schedule), one per override.
   */
  List<String> droppedOverrides(List<StrategyOverride> overrides) {
    if (!schedule.dispatched()) {
      return List.of();
    }
    return overrides.stream().filter(o -> !o.strategy().holdsOnAnyCore()).map(o -> OptionException.OVERRIDE + " "
        + o.text() + ": left out, since a firing of --schedule " + schedule.kind().label() + " may run on any core and "
        + o.strategy().label + " needs the fixed cores of a static schedule (the FIFO is planned as strategy "
        + asked.label + " plans it on one core, keeping merges and non-temporal copies); use --schedule static to "
        + "keep it").toList();
  }

  /**
   * What the code is built from: the plan as it is for static; for a dispatched schedule, the one-core plan with
   * only what holds wherever a firing runs ({@link DispatchedExecution}).
   */
  ExecutionPlan execution(PlannedExecution planned) {
    return schedule.dispatched() ? DispatchedExecution.of(planned) : planned;
  }

  /** The iterations a dispatched schedule overlaps: {@code slots=K} when given, else {@link #DEFAULT_SLOTS}. */
  static int slots(Integer asked) {
    return asked != null ? asked : DEFAULT_SLOTS;
  }

  /**
   * The program generate writes: as built for static; else with every buffer in memory of its own, one copy per slot
   * for those an iteration uses on its own.
   */
  CodeProject program(CodeProject built) {
    return schedule.dispatched() ? SchedFirings.slotted(SchedFirings.unpooled(built), slots) : built;
  }

  /** The firing table of a dispatched schedule, or null for static. */
  SchedTable table(CodeProject project) {
    if (!schedule.dispatched()) {
      return null;
    }
    try {
      return SchedFirings.of(project, schedule, threads, slots);
    } catch (IllegalArgumentException e) {
      String option = e.getMessage().startsWith(OptionException.COST_SPREAD) ? OptionException.COST_SPREAD
          : OptionException.VARIABLE;
      throw new OptionException(option, e.getMessage());
    }
  }

  /**
   * What generate's notes say of the choice (nothing for static), with what the one-core plan {@code execution}
   * kept of the asked strategy and dropped, counted over the program {@code project} built from it.
   */
  List<String> notes(ExecutionPlan execution, CodeProject project) {
    String counted = execution instanceof DispatchedExecution dispatched ? counted(dispatched.kept(), project)
        : null;
    return notes(schedule, asked.label, threads, slots, counted);
  }

  /** What was kept and dropped, in words: {@code kept 3 buffers in 1 merge group, ...; dropped ...}. */
  static String counted(DispatchedExecution.Kept kept, CodeProject project) {
    long streaming = project.cores().stream().flatMap(core -> core.loop().stream())
        .filter(step -> step instanceof Statement.Copy copy && copy.kind() != CopyKind.MEMCPY).count();
    return "kept " + kept.merged() + plural(kept.merged(), " buffer") + " in " + kept.groups()
        + plural(kept.groups(), " merge group") + " and " + streaming + plural(streaming, " non-temporal copy")
        + "; dropped " + kept.views() + plural(kept.views(), " copy-on-write view") + ", " + kept.prestores()
        + plural(kept.prestores(), " pre-store") + " and " + kept.channels() + plural(kept.channels(), " channel")
        + " of the one-core plan";
  }

  private static String plural(long count, String noun) {
    return count == 1 ? noun : noun.endsWith("y") ? noun.substring(0, noun.length() - 1) + "ies" : noun + "s";
  }

  /**
   * What the plan report says of {@code schedule} on {@code cores} cores (nothing for static): for hybrid, which
   * actors are variable and why (marked, or their cost spread); and, when a one-core plan was made, what it kept and
   * dropped ({@code counted}, else null).
   */
  static List<String> notes(RunSchedule schedule, String asked, int cores, int slots, String counted) {
    List<String> variable = schedule.pooled().stream().map(name -> name + " (" + schedule.reason(name) + ")")
        .toList();
    return new ArrayList<>(DecisionText.schedule(schedule, asked, cores, slots, variable, counted));
  }
}
