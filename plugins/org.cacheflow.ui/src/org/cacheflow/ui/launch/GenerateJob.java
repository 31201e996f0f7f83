package org.cacheflow.ui.launch;

import java.util.List;
import java.util.Locale;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.ui.report.PlanReportView;
import org.cacheflow.ui.run.WorkflowRuns;
import org.cacheflow.ui.workflow.WorkflowProblem;
import org.cacheflow.workflow.run.Generation;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;

/**
 * Runs a workflow in-process through the workflow runner and the pipeline — code generation for each scenario, and
 * the memory plan report beside each output — as a background job with progress. The pipeline's diagnostics go to
 * the cacheflow console; an error (a typed {@code InputException}: file, line, column) becomes a problem marker where
 * it is (the workflow, a scenario, a graph) and the job's result ({@link WorkflowJob}).
 */
public final class GenerateJob extends WorkflowJob {

  /** Jobs of this family generate code. */
  public static final Object FAMILY = GenerateJob.class;

  private final String scenario;
  private volatile WorkflowRuns.Result result;

  /**
   * @param workflow the workflow file
   * @param scenario a scenario file or name, or null for the project's {@code .ci.yaml} choice / every scenario
   */
  public GenerateJob(IFile workflow, String scenario) {
    super("Generating code with cacheflow: " + workflow.getFullPath(), workflow, FAMILY);
    this.scenario = scenario;
  }

  /** What the run produced, once it succeeded; null before or after a failure. */
  public WorkflowRuns.Result result() {
    return result;
  }

  @Override
  protected String progressName() {
    return "Generating code for " + workflow.getName();
  }

  @Override
  protected void starting() {
    CacheflowConsole.println("cacheflow: running " + workflow.getFullPath());
  }

  @Override
  protected void workflowHasErrors(List<WorkflowProblem> problems) {
    for (WorkflowProblem problem : problems) {
      CacheflowConsole.println(problem.severity().name().toLowerCase(Locale.ROOT) + ": "
          + workflow.getLocation().toOSString() + ":" + problem.line() + ":" + problem.column() + ": "
          + problem.message());
    }
  }

  @Override
  protected IStatus runChecked(SubMonitor progress) throws CoreException {
    SubMonitor running = progress.split(90);
    running.setWorkRemaining(100);
    Diagnostics diagnostics = new Diagnostics();
    WorkflowRuns.Result run = WorkflowRuns.run(workflow.getLocation().toPath(), scenario, new ConsoleListener(running),
        diagnostics);
    printWarnings(diagnostics);
    for (int i = 0; i < run.generations().size(); i++) {
      Generation generation = run.generations().get(i);
      CacheflowConsole.println("generated " + generation.result().directory() + ": " + generation.result().summary());
      CacheflowConsole.println("plan report: " + run.reports().get(i));
    }
    refreshProject(progress.split(9));
    result = run;
    if (!run.reports().isEmpty()) {
      PlanReportView.showIfOpen(run.reports().get(0));
    }
    return Status.OK_STATUS;
  }
}
