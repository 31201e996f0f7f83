package org.cacheflow.ui.launch;

import java.util.Locale;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.Diagnostic;
import org.cacheflow.workflow.run.Generation;
import org.cacheflow.workflow.run.RunListener;
import org.eclipse.core.runtime.SubMonitor;

/**
 * Tells the cacheflow console and a job's progress what a workflow run and the pipeline report: each diagnostic as
 * {@code warning: FILE:LINE:COL: message} or {@code note: ...} from its severity and location, the runner's notes,
 * and each step as the progress monitor's sub-task.
 */
public class ConsoleListener implements RunListener {

  private final SubMonitor progress;

  /** @param progress shows the steps; each generation done is 10 units of it */
  public ConsoleListener(SubMonitor progress) {
    this.progress = progress;
  }

  @Override
  public void diagnostic(Diagnostic diagnostic) {
    CacheflowConsole.println(diagnostic.severity().name().toLowerCase(Locale.ROOT) + ": " + diagnostic);
  }

  @Override
  public void step(String description) {
    progress.subTask(description);
  }

  @Override
  public void note(SourceLocation location, String message) {
    CacheflowConsole.println("note: " + location + ": " + message);
  }

  @Override
  public void generated(Generation generation) {
    // printed with its report once the run is over
    progress.worked(10);
  }

  @Override
  public void failed(Generation generation, RuntimeException cause) {
    CacheflowConsole.println("note: the generation that failed was asked for at " + generation.request().origin("")
        + " (" + generation.workflow().getFileName() + " on " + generation.scenario().getFileName() + ")");
  }
}
