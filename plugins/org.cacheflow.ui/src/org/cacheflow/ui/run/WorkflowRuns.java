package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.RunListener;
import org.cacheflow.workflow.run.SettingsChange;
import org.cacheflow.workflow.run.WorkflowRunner;

/**
 * Runs one workflow of a PREESM project in-process, as the launch shortcut does: the workflow runner picks the
 * scenarios (the project's {@code .ci.yaml} pairs for this workflow, else every scenario) and generates code for
 * each through the pipeline; the memory plan report of each generation is written beside its output.
 */
public final class WorkflowRuns {

  /**
   * @param generations what was generated, in order
   * @param reports the report folder of each generation, in the same order
   */
  public record Result(List<Generation> generations, List<Path> reports) {
  }

  private WorkflowRuns() {
  }

  /**
   * @param workflow the {@code .workflow} file, inside a PREESM project
   * @param scenario a scenario file or name, or null for the project's choice
   * @param listener told the runner's notes, each generation's progress, notes and warnings, and what was generated
   * @throws InputException for bad input, at its file and line (a setting the pipeline rejects: at the line of the
   *     task parameter that gave it, else the task's);
   *     nothing is generated when a task's settings are wrong
   */
  public static Result run(Path workflow, String scenario, RunListener listener, Diagnostics diagnostics) {
    PreesmProject project = PreesmProject.containing(workflow, diagnostics);
    WorkflowRunner runner = new WorkflowRunner(SettingsChange.NONE, listener, Generators.runtime(workflow));
    List<WorkflowRunner.Pair> pairs = runner.select(project, workflow.toString(), scenario, diagnostics);
    List<Generation> generations;
    try {
      generations = runner.run(project, pairs, diagnostics);
    } catch (OptionException e) {
      // a setting the pipeline rejects: at the line of the task parameter that gave it (else the task, the workflow)
      throw WorkflowRunner.located(runner.failed(), e, workflow);
    }
    List<Path> reports = new ArrayList<>();
    for (Generation generation : generations) {
      Path report = PlanReports.reportDirectory(generation.request().outputDirectory());
      PlanReports.write(generation.request(), report, listener);
      reports.add(report);
    }
    return new Result(generations, reports);
  }

  /**
   * The generations a run would make, without making them (for the editor's plan report).
   *
   * @throws InputException as {@link #run}
   */
  public static List<Generation> plan(Path workflow, String scenario, Diagnostics diagnostics) {
    PreesmProject project = PreesmProject.containing(workflow, diagnostics);
    // planning only: nothing is generated, so no runtime is bundled
    WorkflowRunner runner = new WorkflowRunner(SettingsChange.NONE, RunListener.SILENT, null);
    return runner.plan(project, runner.select(project, workflow.toString(), scenario, diagnostics), diagnostics);
  }
}
