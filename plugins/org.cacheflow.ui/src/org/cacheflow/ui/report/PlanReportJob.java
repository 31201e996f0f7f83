package org.cacheflow.ui.report;

import java.nio.file.Path;
import java.util.List;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.launch.CacheflowConsole;
import org.cacheflow.ui.markers.WorkflowMarkers;
import org.cacheflow.ui.run.PlanReports;
import org.cacheflow.ui.run.WorkflowRuns;
import org.cacheflow.ui.workflow.WorkflowProblem;
import org.cacheflow.workflow.run.Generation;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.ui.progress.IProgressConstants;

/**
 * Makes the memory plan of one task of a workflow (for its first scenario) and shows its report, without
 * generating code: what the editor's "Show Plan Report" does.
 */
public final class PlanReportJob extends Job {

  /** Jobs of this family make plan reports. */
  public static final Object FAMILY = PlanReportJob.class;

  private final IFile workflow;
  private final String taskId;
  private volatile Path report;

  /**
   * @param taskId the task whose settings are used; null or unknown for the first generation of the workflow
   */
  public PlanReportJob(IFile workflow, String taskId) {
    super("Memory plan report: " + workflow.getFullPath());
    this.workflow = workflow;
    this.taskId = taskId;
    setUser(true);
    setRule(ResourcesPlugin.getWorkspace().getRuleFactory().modifyRule(workflow.getProject()));
    setProperty(IProgressConstants.NO_IMMEDIATE_ERROR_PROMPT_PROPERTY, Boolean.TRUE);
  }

  /** The report folder written, once the job succeeded. */
  public Path report() {
    return report;
  }

  @Override
  public boolean belongsTo(Object family) {
    return family == FAMILY;
  }

  @Override
  protected IStatus run(IProgressMonitor monitor) {
    SubMonitor progress = SubMonitor.convert(monitor, "Planning " + workflow.getName(), 100);
    try {
      workflow.refreshLocal(IResource.DEPTH_ZERO, progress.split(1));
      List<WorkflowProblem> problems = WorkflowMarkers.update(workflow);
      if (problems.stream().anyMatch(p -> p.severity() == WorkflowProblem.Severity.ERROR)) {
        return new Status(IStatus.ERROR, CacheflowUi.PLUGIN_ID, "the workflow has errors (see the Problems view)");
      }
      Diagnostics diagnostics = new Diagnostics();
      List<Generation> generations = WorkflowRuns.plan(workflow.getLocation().toPath(), null, diagnostics);
      if (generations.isEmpty()) {
        return new Status(IStatus.WARNING, CacheflowUi.PLUGIN_ID, "the workflow generates no code: no plan to show");
      }
      Generation chosen = generations.stream().filter(g -> g.taskId().equals(taskId)).findFirst()
          .orElse(generations.get(0));
      Path directory = PlanReports.reportDirectory(chosen.request().outputDirectory());
      progress.subTask("planning " + chosen.taskId() + " with " + chosen.scenario().getFileName());
      PlanReports.write(chosen.request(), directory, workflow.getLocation().toPath(), CacheflowConsole::println);
      progress.worked(90);
      for (Diagnostics.Warning warning : diagnostics.warnings()) {
        CacheflowConsole.println("warning: " + warning);
      }
      CacheflowConsole.println("plan report of task '" + chosen.taskId() + "' with scenario "
          + chosen.scenario().getFileName() + ": " + directory);
      workflow.getProject().refreshLocal(IResource.DEPTH_INFINITE, progress.split(9));
      report = directory;
      PlanReportView.open(directory);
      return Status.OK_STATUS;
    } catch (InputException e) {
      CacheflowConsole.println("error: " + e.describe());
      try {
        WorkflowMarkers.addRunProblem(workflow, e.location(), e.getMessage());
      } catch (CoreException markerFailure) {
        return markerFailure.getStatus();
      }
      return new Status(IStatus.ERROR, CacheflowUi.PLUGIN_ID, e.describe());
    } catch (CoreException e) {
      return e.getStatus();
    } catch (RuntimeException e) {
      return CacheflowUi.error("cacheflow failed unexpectedly: " + e, e);
    } finally {
      monitor.done();
    }
  }
}
