package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.codegen.model.CodeProject;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * A generated C project.
 *
 * @param input what was loaded
 * @param outputDirectory the folder written
 * @param asked the platform asked for
 * @param memoryPlan the memory plan (its schedule's core count may be below {@code asked}: the planner's choice)
 * @param project the code model written
 * @param strategy the strategy preset
 * @param syntheticActors whether actors got generated stand-in bodies
 * @param diagnostics warnings and notes, in order
 * @param schedule static, or firings placed at run time on the asked cores (a plan of one core)
 */
public record GenerateResult(LoadedInput input, Path outputDirectory, Platform asked, MemoryPlan memoryPlan,
    CodeProject project, StrategyPreset strategy, boolean syntheticActors, List<Diagnostic> diagnostics,
    RunSchedule schedule) {

  public GenerateResult {
    diagnostics = List.copyOf(diagnostics);
  }

  /** The cores the program runs on (the planner may choose fewer than asked when more cannot win). */
  public int plannedCores() {
    return schedule.dispatched() ? asked.size() : memoryPlan.schedule().coreCount();
  }

  /**
   * One line for users: {@code generated DIR: 2 cores, strategy auto, 5 buffers, 2 channels, 0 copy-on-write
   * buffers}, with the planner's choice of cores and the bytes sent between nodes when they apply.
   */
  public String summary() {
    int planned = plannedCores();
    String described = PlatformOptions.describe(asked);
    String cores = planned < asked.size()
        ? planned + (planned == 1 ? " core" : " cores") + " (the planner's choice, " + described + " asked)"
        : described;
    // the mapping is named when it is not the default (plan prints it always)
    MappingPolicy policy = memoryPlan.schedule().policy();
    String mapping = planned > 1 && policy != MappingPolicy.LOAD_BALANCE ? ", " + policy.label + " mapping" : "";
    return String.format("generated %s: %s%s, strategy %s, %d buffers, %d channels, %d copy-on-write buffers%s%s",
        PathText.display(outputDirectory), cores, mapping, strategy.label, project.buffers().size(),
        project.channels().size(),
        project.cowBuffers().size(), asked.nodes() > 1 ? ", " + Bytes.human(memoryPlan.partition().cutBytes())
            + " sent between nodes per iteration" : "", syntheticActors ? ", synthetic actors" : "")
        + (schedule.dispatched() ? ", schedule " + schedule.kind().label() : "");
  }
}
