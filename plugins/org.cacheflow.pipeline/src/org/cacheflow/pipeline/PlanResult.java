package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.MemoryPlan;

/**
 * A memory plan.
 *
 * @param input what was loaded
 * @param plan the plan (its notes say why the planner chose what it chose)
 * @param scripts the memory scripts' evaluation
 * @param reportFiles the report files written, empty without a report directory
 * @param diagnostics warnings and notes, in order
 */
public record PlanResult(LoadedInput input, MemoryPlan plan, ScriptReport scripts, List<Path> reportFiles,
    List<Diagnostic> diagnostics) {

  public PlanResult {
    reportFiles = List.copyOf(reportFiles);
    diagnostics = List.copyOf(diagnostics);
  }
}
