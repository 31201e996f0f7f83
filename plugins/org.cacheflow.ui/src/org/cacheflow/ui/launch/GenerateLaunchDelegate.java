package org.cacheflow.ui.launch;

import org.cacheflow.ui.CacheflowUi;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.Path;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.model.ILaunchConfigurationDelegate;

/** Launches a "cacheflow code generation" configuration: schedules a {@link GenerateJob}. */
public final class GenerateLaunchDelegate implements ILaunchConfigurationDelegate {

  /** The workspace path of the workflow ({@code /project/Workflows/x.workflow}). */
  public static final String WORKFLOW = CacheflowUi.PLUGIN_ID + ".workflow";
  /** A scenario file name or workspace path; empty for the project's {@code .ci.yaml} choice or every scenario. */
  public static final String SCENARIO = CacheflowUi.PLUGIN_ID + ".scenario";

  @Override
  public void launch(ILaunchConfiguration configuration, String mode, ILaunch launch, IProgressMonitor monitor)
      throws CoreException {
    IFile workflow = workflow(configuration);
    String scenario = configuration.getAttribute(SCENARIO, "");
    new GenerateJob(workflow, scenario.isBlank() ? null : scenarioPath(workflow, scenario)).schedule();
  }

  /** The configuration's workflow; a CoreException saying what is wrong when it is not a workspace file. */
  static IFile workflow(ILaunchConfiguration configuration) throws CoreException {
    String path = configuration.getAttribute(WORKFLOW, "");
    if (path.isBlank()) {
      throw new CoreException(CacheflowUi.error("the launch configuration '" + configuration.getName()
          + "' names no workflow", null));
    }
    IResource resource = ResourcesPlugin.getWorkspace().getRoot().findMember(new Path(path));
    if (!(resource instanceof IFile file) || !file.exists()) {
      throw new CoreException(CacheflowUi.error("no workflow file " + path + " in the workspace", null));
    }
    return file;
  }

  /** A workspace path given for the scenario is made a file path; a plain name is left to the runner. */
  private static String scenarioPath(IFile workflow, String scenario) {
    if (scenario.startsWith("/")) {
      IResource resource = ResourcesPlugin.getWorkspace().getRoot().findMember(new Path(scenario));
      if (resource != null && resource.getLocation() != null) {
        return resource.getLocation().toOSString();
      }
    }
    return scenario;
  }
}
