package org.cacheflow.workflow.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;

/**
 * What a command line or a build configuration says in place of a workflow task's variables. A null field
 * changes nothing.
 *
 * @param strategy the memory strategy
 * @param cores the core count (of each node)
 * @param nodes the node count
 * @param policy how firings are mapped to the cores
 * @param target a built-in target name or a target file
 * @param overrides per-FIFO overrides (replacing the task's)
 * @param syntheticActors whether actors get generated bodies
 * @param outputDirectory where to write; with several generations in one run, each gets a sub-directory
 * @param actorCode the actors' sources, headers, definitions and libraries; paths as given (from the working
 *     directory)
 * @param schedule the run-time schedule
 * @param variable the actors marked variable (replacing the task's)
 * @param spread the actors' cost spreads (replacing the task's)
 * @param profile a profile file (replacing the task's {@code Profile}), as given (from the working directory)
 */
public record SettingsChange(StrategyPreset strategy, Integer cores, Integer nodes, MappingPolicy policy,
    String target, List<String> overrides, Boolean syntheticActors, Path outputDirectory, ActorCode actorCode,
    RunSchedule.Kind schedule, List<String> variable, Map<String, Double> spread, Path profile) {

  /** Changes nothing. */
  public static final SettingsChange NONE = new SettingsChange(null, null, null, null, null, null, null, null, null);

  public SettingsChange {
    actorCode = actorCode == null ? ActorCode.NONE : actorCode;
  }

  /** Without a change of the schedule. */
  public SettingsChange(StrategyPreset strategy, Integer cores, Integer nodes, MappingPolicy policy, String target,
      List<String> overrides, Boolean syntheticActors, Path outputDirectory, ActorCode actorCode) {
    this(strategy, cores, nodes, policy, target, overrides, syntheticActors, outputDirectory, actorCode, null, null,
        null, null);
  }

  /** This change with the schedule's settings (null ones change nothing). */
  public SettingsChange withSchedule(RunSchedule.Kind kind, List<String> actors, Map<String, Double> spreads) {
    return new SettingsChange(strategy, cores, nodes, policy, target, overrides, syntheticActors, outputDirectory,
        actorCode, kind, actors, spreads, profile);
  }

  /** This change with a profile file (null changes nothing). */
  public SettingsChange withProfile(Path value) {
    return new SettingsChange(strategy, cores, nodes, policy, target, overrides, syntheticActors, outputDirectory,
        actorCode, schedule, variable, spread, value);
  }

  /**
   * Whether this change replaces the task parameter {@code parameter} (a {@link CodegenTask} name) outright. The
   * actors' code parameters are merged with the task's (see {@link ActorCode#with}), never replaced.
   */
  public boolean gives(String parameter) {
    return switch (parameter) {
      case CodegenTask.MEMORY_STRATEGY -> strategy != null;
      case CodegenTask.CORES -> cores != null;
      case CodegenTask.NODES -> nodes != null;
      case CodegenTask.MAPPING_POLICY -> policy != null;
      case CodegenTask.TARGET -> target != null;
      case CodegenTask.OVERRIDES -> overrides != null;
      case CodegenTask.SYNTHETIC_ACTORS -> syntheticActors != null;
      case CodegenTask.OUTPUT_DIRECTORY -> outputDirectory != null;
      case CodegenTask.SCHEDULE -> schedule != null;
      case CodegenTask.VARIABLE_ACTORS -> variable != null;
      case CodegenTask.COST_SPREAD -> spread != null;
      case CodegenTask.PROFILE -> profile != null;
      default -> false;
    };
  }

  public SettingsChange withOutputDirectory(Path value) {
    return new SettingsChange(strategy, cores, nodes, policy, target, overrides, syntheticActors, value, actorCode,
        schedule, variable, spread, profile);
  }
}
