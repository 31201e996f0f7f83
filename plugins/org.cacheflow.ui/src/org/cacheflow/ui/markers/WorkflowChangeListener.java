package org.cacheflow.ui.markers;

import java.util.ArrayList;
import java.util.List;

import org.cacheflow.ui.CacheflowUi;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.IResourceChangeEvent;
import org.eclipse.core.resources.IResourceChangeListener;
import org.eclipse.core.resources.IResourceDelta;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.resources.WorkspaceJob;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.ui.IStartup;

/**
 * Re-checks every workflow file that is added or changed in the workspace — by the editor, another editor, or a
 * pull — so its problem markers are always current. Installed when the workbench starts.
 */
public final class WorkflowChangeListener implements IResourceChangeListener, IStartup {

  /** Jobs of this family update markers. */
  public static final Object FAMILY = WorkflowChangeListener.class;

  @Override
  public void earlyStartup() {
    ResourcesPlugin.getWorkspace().addResourceChangeListener(this, IResourceChangeEvent.POST_CHANGE);
  }

  @Override
  public void resourceChanged(IResourceChangeEvent event) {
    List<IFile> changed = new ArrayList<>();
    try {
      event.getDelta().accept(delta -> {
        IResource resource = delta.getResource();
        if (resource instanceof IFile file && CacheflowUi.WORKFLOW_EXTENSION.equals(file.getFileExtension())
            && (delta.getKind() == IResourceDelta.ADDED || (delta.getKind() == IResourceDelta.CHANGED
                && (delta.getFlags() & (IResourceDelta.CONTENT | IResourceDelta.REPLACED)) != 0))) {
          changed.add(file);
        }
        return true;
      });
    } catch (CoreException e) {
      return;
    }
    if (changed.isEmpty()) {
      return;
    }
    WorkspaceJob job = new WorkspaceJob("Checking workflows") {
      @Override
      public IStatus runInWorkspace(IProgressMonitor monitor) throws CoreException {
        for (IFile file : changed) {
          if (file.exists()) {
            WorkflowMarkers.update(file);
          }
        }
        return Status.OK_STATUS;
      }

      @Override
      public boolean belongsTo(Object family) {
        return family == FAMILY;
      }
    };
    job.setSystem(true);
    job.schedule();
  }
}
