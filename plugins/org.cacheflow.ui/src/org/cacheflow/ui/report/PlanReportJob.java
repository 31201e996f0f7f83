package org.cacheflow.ui.report;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.launch.CacheflowConsole;
import org.cacheflow.ui.launch.ConsoleListener;
import org.cacheflow.ui.launch.WorkflowJob;
import org.cacheflow.ui.run.PlanReports;
import org.cacheflow.ui.run.WorkflowRuns;
import org.cacheflow.workflow.run.Generation;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;

/**
 * Makes the memory plan of one task of a workflow (for its first scenario) and shows its report, without
 * generating code: what the editor's "Show Plan Report" does.
 */
public final class PlanReportJob extends WorkflowJob {

  /** Jobs of this family make plan reports. */
  public static final Object FAMILY = PlanReportJob.class;

  private final String taskId;
  private volatile Path report;

  /**
   * @param taskId the task whose settings are used; null or unknown for the first generation of the workflow
   */
  public PlanReportJob(IFile workflow, String taskId) {
    super("Memory plan report: " + workflow.getFullPath(), workflow, FAMILY);
    this.taskId = taskId;
  }

  /** The report folder written, once the job succeeded. */
  public Path report() {
    return report;
  }

  @Override
  protected String progressName() {
    return "Planning " + workflow.getName();
  }

  @Override
  protected IStatus runChecked(SubMonitor progress) throws CoreException {
    Diagnostics diagnostics = new Diagnostics();
    List<Generation> generations = WorkflowRuns.plan(workflow.getLocation().toPath(), null, diagnostics);
    if (generations.isEmpty()) {
      return new Status(IStatus.WARNING, CacheflowUi.PLUGIN_ID, "the workflow generates no code: no plan to show");
    }
    Generation chosen = generations.stream().filter(g -> g.taskId().equals(taskId)).findFirst()
        .orElse(generations.get(0));
    Path directory = PlanReports.reportDirectory(chosen.request().outputDirectory());
    progress.subTask("planning " + chosen.taskId() + " with " + chosen.scenario().getFileName());
    PlanReports.write(chosen.request(), directory, new ConsoleListener(progress.split(90)));
    printWarnings(diagnostics);
    CacheflowConsole.println("plan report of task '" + chosen.taskId() + "' with scenario "
        + chosen.scenario().getFileName() + ": " + directory);
    refreshProject(progress.split(9));
    report = directory;
    PlanReportView.open(directory);
    return Status.OK_STATUS;
  }
}
