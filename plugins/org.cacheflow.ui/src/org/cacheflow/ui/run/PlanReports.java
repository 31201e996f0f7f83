package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.Pipeline;
import org.cacheflow.pipeline.PipelineListener;
import org.cacheflow.pipeline.PlanOptions;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.workflow.run.GenerationRequest;

/**
 * The memory plan report of a generation request ({@code plan.json}, {@code plan.md}, {@code graph.svg},
 * {@code gantt.svg}), made by {@link Pipeline#plan} with the request's settings.
 */
public final class PlanReports {

  private PlanReports() {
  }

  /** The report folder of a generation: beside the generated project, so regenerating does not remove it. */
  public static Path reportDirectory(Path outputDirectory) {
    Path output = outputDirectory.toAbsolutePath().normalize();
    return output.resolveSibling(output.getFileName() + "-plan");
  }

  /**
   * Plans {@code request} and writes the report into {@code directory}.
   *
   * @param listener told the planner's progress, notes and warnings
   * @throws InputException for bad input, at its file and line; a setting the planner rejects at the line of the
   *     task parameter that gave it (else the task's)
   */
  public static void write(GenerationRequest request, Path directory, PipelineListener listener) {
    PlanOptions options = options(request, directory);
    try {
      new Pipeline(listener).plan(options);
    } catch (OptionException e) {
      throw new InputException(request.origin(e), e.getMessage());
    }
  }

  /** What {@link #write} plans: the request's scenario, platform, mapping policy, strategy, target and overrides. */
  static PlanOptions options(GenerationRequest request, Path directory) {
    try {
      return new PlanOptions(new Input(request.input(), request.scenario(), Map.of()).withProfile(request.profile()),
          new PlatformOptions(request.nodes(), request.cores()), request.strategy(), request.policy(), List.of(),
          request.target(), directory).withOverrideTexts(request.overrides());
    } catch (OptionException e) {
      throw new InputException(request.origin(e), e.getMessage());
    }
  }
}
