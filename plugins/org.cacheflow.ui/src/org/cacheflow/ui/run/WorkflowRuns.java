package org.cacheflow.ui.run;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.cacheflow.io.project.PreesmProject;
import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.workflow.run.CodeGenerator;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.RunListener;
import org.cacheflow.workflow.run.SettingsChange;
import org.cacheflow.workflow.run.WorkflowRunner;

/**
 * Runs one workflow of a PREESM project in-process, as the launch shortcut does: the workflow runner picks the
 * scenarios (the project's {@code .ci.yaml} pairs for this workflow, else every scenario), generates code for
 * each, and the memory plan report of each generation is written beside its output.
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
   * @param generator does the generations
   * @param messages told the notes and warnings the plan command prints
   * @throws InputException for bad input, at its file and line; nothing is generated when a task's settings are
   *     wrong
   */
  public static Result run(Path workflow, String scenario, CodeGenerator generator, RunListener listener,
      Diagnostics diagnostics, Consumer<String> messages) {
    PreesmProject project = PreesmProject.containing(workflow, diagnostics);
    WorkflowRunner runner = new WorkflowRunner(generator, SettingsChange.NONE, listener);
    List<WorkflowRunner.Pair> pairs = runner.select(project, workflow.toString(), scenario, diagnostics);
    List<Generation> generations = runner.run(project, pairs, diagnostics);
    List<Path> reports = new ArrayList<>();
    for (Generation generation : generations) {
      Path report = PlanReports.reportDirectory(generation.request().outputDirectory());
      PlanReports.write(generation.request(), report, workflow, messages);
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
    WorkflowRunner runner = new WorkflowRunner((request, d) -> {
      throw new IllegalStateException("planning only");
    }, SettingsChange.NONE, RunListener.SILENT);
    return runner.plan(project, runner.select(project, workflow.toString(), scenario, diagnostics), diagnostics);
  }
}
