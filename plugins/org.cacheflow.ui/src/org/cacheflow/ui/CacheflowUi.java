package org.cacheflow.ui;

import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;

/** Identifiers this plug-in declares in its plugin.xml, and small shared helpers. */
public final class CacheflowUi {

  public static final String PLUGIN_ID = "org.cacheflow.ui";
  /** The workflow editor. */
  public static final String EDITOR_ID = PLUGIN_ID + ".workflowEditor";
  /** Problem markers of workflow files (and of the files a run reports errors in). */
  public static final String MARKER_TYPE = PLUGIN_ID + ".workflowProblem";
  /** The plan report view. */
  public static final String REPORT_VIEW_ID = PLUGIN_ID + ".planReport";
  /** The launch configuration type of the launch shortcut. */
  public static final String LAUNCH_TYPE_ID = PLUGIN_ID + ".generateLaunch";
  /** The file extension of PREESM workflows. */
  public static final String WORKFLOW_EXTENSION = "workflow";

  private CacheflowUi() {
  }

  public static IStatus error(String message, Throwable cause) {
    return new Status(IStatus.ERROR, PLUGIN_ID, message, cause);
  }
}
