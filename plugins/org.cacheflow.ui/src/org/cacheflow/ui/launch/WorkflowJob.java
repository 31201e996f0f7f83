package org.cacheflow.ui.launch;

import java.util.List;

import org.cacheflow.model.diagnostics.Diagnostics;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.markers.WorkflowMarkers;
import org.cacheflow.ui.workflow.WorkflowProblem;
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
 * A background job that works on one workflow file: it locks the workflow's project, checks the workflow first
 * (its errors are markers and stop the job), and turns an input error into a problem marker where it is (the
 * workflow, a scenario, a graph) and the job's result. Subclasses do the work in {@link #runChecked}.
 */
public abstract class WorkflowJob extends Job {

  protected final IFile workflow;
  private final Object family;

  /**
   * @param family what {@link #belongsTo} answers true for, so that callers can wait for jobs of one kind
   */
  protected WorkflowJob(String name, IFile workflow, Object family) {
    super(name);
    this.workflow = workflow;
    this.family = family;
    setUser(true);
    setRule(ResourcesPlugin.getWorkspace().getRuleFactory().modifyRule(workflow.getProject()));
    // errors are markers and console lines; a modal dialog on top would only repeat them
    setProperty(IProgressConstants.NO_IMMEDIATE_ERROR_PROMPT_PROPERTY, Boolean.TRUE);
  }

  @Override
  public boolean belongsTo(Object candidate) {
    return candidate == family;
  }

  /** The progress monitor's main task, e.g. "Planning top.workflow". */
  protected abstract String progressName();

  /**
   * The job's work once the workflow has no errors.
   *
   * @param progress 99 units of work left
   */
  protected abstract IStatus runChecked(SubMonitor progress) throws CoreException;

  /** Called before anything else is done. */
  protected void starting() {
  }

  /** Called with the workflow's problems when some are errors, before the job fails. */
  protected void workflowHasErrors(List<WorkflowProblem> problems) {
  }

  @Override
  protected final IStatus run(IProgressMonitor monitor) {
    SubMonitor progress = SubMonitor.convert(monitor, progressName(), 100);
    starting();
    try {
      workflow.refreshLocal(IResource.DEPTH_ZERO, progress.split(1));
      List<WorkflowProblem> problems = WorkflowMarkers.update(workflow);
      if (problems.stream().anyMatch(p -> p.severity() == WorkflowProblem.Severity.ERROR)) {
        workflowHasErrors(problems);
        return new Status(IStatus.ERROR, CacheflowUi.PLUGIN_ID, "the workflow has errors (see the Problems view)");
      }
      return runChecked(progress);
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
      CacheflowConsole.println("internal error: " + e);
      return CacheflowUi.error("cacheflow failed unexpectedly: " + e, e);
    } finally {
      monitor.done();
    }
  }

  /** Prints the run's warnings to the cacheflow console. */
  protected static void printWarnings(Diagnostics diagnostics) {
    for (Diagnostics.Warning warning : diagnostics.warnings()) {
      CacheflowConsole.println("warning: " + warning);
    }
  }

  /** Refreshes the whole project, so that what the job wrote shows in the workspace. */
  protected void refreshProject(SubMonitor progress) throws CoreException {
    workflow.getProject().refreshLocal(IResource.DEPTH_INFINITE, progress);
  }
}
