package org.cacheflow.workflow.run;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.plan.mapping.MappingPolicy;
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
 */
public record SettingsChange(StrategyPreset strategy, Integer cores, Integer nodes, MappingPolicy policy,
    String target, List<String> overrides, Boolean syntheticActors, Path outputDirectory, ActorCode actorCode) {

  /** Changes nothing. */
  public static final SettingsChange NONE = new SettingsChange(null, null, null, null, null, null, null, null, null);

  public SettingsChange {
    actorCode = actorCode == null ? ActorCode.NONE : actorCode;
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
      default -> false;
    };
  }

  public SettingsChange withOutputDirectory(Path value) {
    return new SettingsChange(strategy, cores, nodes, policy, target, overrides, syntheticActors, value, actorCode);
  }
}
