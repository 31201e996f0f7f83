package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;
import org.cacheflow.plan.memoryplan.ProgramMemory;

import org.cacheflow.plan.memory.ScriptReport;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.report.VariantReport;

/**
 * A memory plan.
 *
 * @param input what was loaded
 * @param plan the plan (its notes say why the planner chose what it chose)
 * @param scripts the memory scripts' evaluation
 * @param reportFiles the report files written, empty without a report directory
 * @param diagnostics warnings and notes, in order
 * @param memory the memory of the program {@code generate} would write, or null when it could not write one (more
 *     cores than a generated program runs on)
 * @param memoryLimit what that program may use
 * @param variants for a graph with dynamic parameters given several values, every variant's plan (the first is
 *     {@code plan}); else empty
 */
public record PlanResult(LoadedInput input, MemoryPlan plan, ScriptReport scripts, List<Path> reportFiles,
    List<Diagnostic> diagnostics, ProgramMemory memory, MemoryLimit memoryLimit, List<VariantReport.Row> variants) {

  /** A plan of one variant (a graph without dynamic parameters, or with one value each). */
  public PlanResult(LoadedInput input, MemoryPlan plan, ScriptReport scripts, List<Path> reportFiles,
      List<Diagnostic> diagnostics, ProgramMemory memory, MemoryLimit memoryLimit) {
    this(input, plan, scripts, reportFiles, diagnostics, memory, memoryLimit, List.of());
  }

  /**
   * The memory a program may use.
   *
   * @param bytes the limit (0: none)
   * @param source what sets it, in words ({@code --max-memory}, {@code target zen4-vm's memory})
   */
  public record MemoryLimit(long bytes, String source) {
  }

  public PlanResult {
    reportFiles = List.copyOf(reportFiles);
    diagnostics = List.copyOf(diagnostics);
    variants = List.copyOf(variants);
  }
}
