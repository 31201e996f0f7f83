package org.cacheflow.cli;

import java.io.PrintStream;
import java.util.Locale;

import org.cacheflow.pipeline.Diagnostic;
import org.cacheflow.pipeline.PipelineListener;

/**
 * Shows what a long command is doing on one rewritten stderr line, only when stderr is a terminal (logs
 * and tests see nothing). Set {@code CACHEFLOW_PROGRESS=1} (or the system property {@code cacheflow.progress=1})
 * to force it, {@code 0} to silence it.
 */
public final class Progress implements PipelineListener {

  private final PrintStream err;
  private final boolean enabled;
  private String step = "";
  private String task = "";
  private long total;
  private long worked;
  private long lastPrint;

  public Progress(PrintStream err) {
    this.err = err;
    String forced = System.getProperty("cacheflow.progress", System.getenv("CACHEFLOW_PROGRESS"));
    this.enabled = forced != null ? forced.equals("1") : System.console() != null && err == System.err;
  }

  /** Prints a diagnostic as {@code warning: FILE:LINE:COL: message} or {@code note: message}. */
  @Override
  public void diagnostic(Diagnostic diagnostic) {
    clear();
    err.println(diagnostic.severity().name().toLowerCase(Locale.ROOT) + ": " + diagnostic);
  }

  @Override
  public void step(String description) {
    step = description;
    task = "";
    total = 0;
    worked = 0;
    print(true);
  }

  @Override
  public void begin(String taskName, long totalWork) {
    task = taskName;
    total = totalWork;
    worked = 0;
    print(true);
  }

  @Override
  public void worked(long amount) {
    worked += amount;
    print(false);
  }

  @Override
  public void done() {
    clear();
  }

  private void clear() {
    if (enabled) {
      err.print("\r\033[K");
      err.flush();
    }
  }

  private void print(boolean force) {
    if (!enabled) {
      return;
    }
    long now = System.nanoTime();
    if (!force && now - lastPrint < 100_000_000L) {
      return;
    }
    lastPrint = now;
    String line = "cacheflow: " + step + (task.isEmpty() ? "" : ": " + task)
        + (total > 0 ? String.format(" %d%%", Math.min(100, worked * 100 / total)) : "");
    err.print("\r\033[K" + line);
    err.flush();
  }
}
