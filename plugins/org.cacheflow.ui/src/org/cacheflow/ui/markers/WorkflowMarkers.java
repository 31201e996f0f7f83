package org.cacheflow.ui.markers;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.ui.CacheflowUi;
import org.cacheflow.ui.workflow.WorkflowChecks;
import org.cacheflow.ui.workflow.WorkflowProblem;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IPath;

/**
 * Keeps the problem markers of workflow files: {@link #update} replaces a file's markers with what
 * {@link WorkflowChecks} finds; {@link #addRunProblem} marks where a run stopped (which may be a scenario or a
 * graph rather than the workflow).
 */
public final class WorkflowMarkers {

  private WorkflowMarkers() {
  }

  /** Re-checks {@code file} (as saved) and replaces its markers; returns the problems found. */
  public static List<WorkflowProblem> update(IFile file) throws CoreException {
    file.deleteMarkers(CacheflowUi.MARKER_TYPE, true, IResource.DEPTH_ZERO);
    IPath location = file.getLocation();
    if (location == null || !file.exists()) {
      return List.of();
    }
    List<WorkflowProblem> problems = WorkflowChecks.check(location.toPath());
    for (WorkflowProblem problem : problems) {
      create(file, severity(problem.severity()), problem.line(), problem.message());
    }
    return problems;
  }

  /**
   * Marks an error a run reported at {@code location}: on that file when it is in the workspace, else on
   * {@code fallback} (with the location in the message).
   */
  public static void addRunProblem(IFile fallback, SourceLocation location, String message) throws CoreException {
    IFile file = workspaceFile(location);
    if (file != null) {
      create(file, IMarker.SEVERITY_ERROR, location.line(), message);
    } else {
      create(fallback, IMarker.SEVERITY_ERROR, 0, location + ": " + message);
    }
  }

  /** The markers of this plug-in on {@code file}. */
  public static IMarker[] markers(IFile file) throws CoreException {
    return file.findMarkers(CacheflowUi.MARKER_TYPE, true, IResource.DEPTH_ZERO);
  }

  private static IFile workspaceFile(SourceLocation location) {
    if (location == null || location.file() == null || location.file().startsWith("<")) {
      return null;
    }
    URI uri = Path.of(location.file()).toAbsolutePath().normalize().toUri();
    for (IFile candidate : ResourcesPlugin.getWorkspace().getRoot().findFilesForLocationURI(uri)) {
      if (candidate.exists()) {
        return candidate;
      }
    }
    return null;
  }

  private static void create(IFile file, int severity, int line, String message) throws CoreException {
    // all attributes at once: a reader never sees a marker with its severity but not yet its line
    file.createMarker(CacheflowUi.MARKER_TYPE, Map.of(IMarker.SEVERITY, severity, IMarker.MESSAGE, message,
        IMarker.LINE_NUMBER, Math.max(line, 1), IMarker.SOURCE_ID, "cacheflow"));
  }

  private static int severity(WorkflowProblem.Severity severity) {
    return switch (severity) {
      case ERROR -> IMarker.SEVERITY_ERROR;
      case WARNING -> IMarker.SEVERITY_WARNING;
      case INFO -> IMarker.SEVERITY_INFO;
    };
  }
}
