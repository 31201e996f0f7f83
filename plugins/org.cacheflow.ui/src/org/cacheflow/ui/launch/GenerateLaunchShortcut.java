package org.cacheflow.ui.launch;

import org.cacheflow.ui.CacheflowUi;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.runtime.Adapters;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationType;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.ILaunchShortcut;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IFileEditorInput;

/**
 * "Run As > Generate code with cacheflow" on a {@code .workflow} file (or in its editor): reuses the file's
 * launch configuration, creating one on first use, and launches it.
 */
public final class GenerateLaunchShortcut implements ILaunchShortcut {

  @Override
  public void launch(ISelection selection, String mode) {
    if (selection instanceof IStructuredSelection structured && structured.size() == 1) {
      IFile file = Adapters.adapt(structured.getFirstElement(), IFile.class);
      if (file != null) {
        launch(file, mode);
      }
    }
  }

  @Override
  public void launch(IEditorPart editor, String mode) {
    if (editor.getEditorInput() instanceof IFileEditorInput input) {
      if (editor.isDirty()) {
        editor.doSave(null);
      }
      launch(input.getFile(), mode);
    }
  }

  /** Launches the configuration of {@code workflow}. */
  public void launch(IFile workflow, String mode) {
    try {
      DebugUITools.launch(configuration(workflow), mode);
    } catch (CoreException e) {
      DebugPlugin.log(e);
    }
  }

  /** The launch configuration of {@code workflow}: the existing one, else a new saved one. */
  public static ILaunchConfiguration configuration(IFile workflow) throws CoreException {
    ILaunchManager manager = DebugPlugin.getDefault().getLaunchManager();
    ILaunchConfigurationType type = manager.getLaunchConfigurationType(CacheflowUi.LAUNCH_TYPE_ID);
    String path = workflow.getFullPath().toString();
    for (ILaunchConfiguration existing : manager.getLaunchConfigurations(type)) {
      if (path.equals(existing.getAttribute(GenerateLaunchDelegate.WORKFLOW, ""))) {
        return existing;
      }
    }
    String name = manager.generateLaunchConfigurationName(workflow.getProject().getName() + " "
        + workflow.getFullPath().removeFileExtension().lastSegment());
    ILaunchConfigurationWorkingCopy copy = type.newInstance(null, name);
    copy.setAttribute(GenerateLaunchDelegate.WORKFLOW, path);
    copy.setMappedResources(new org.eclipse.core.resources.IResource[] {workflow});
    return copy.doSave();
  }
}
