package org.cacheflow.analysis;

/**
 * Told how a long operation (flattening, single-rate expansion) advances, so a front end can show
 * progress. Calls come from the thread doing the work; {@link #worked} reports increments, not totals.
 */
public interface ProgressListener {

  /** Ignores every report. */
  ProgressListener NONE = new ProgressListener() {
  };

  /**
   * A task starts.
   *
   * @param task what is being done, for display
   * @param total how many work units the task has; 0 when unknown
   */
  default void begin(String task, long total) {
  }

  /** {@code units} more work units are done. */
  default void worked(long units) {
  }

  /** The task begun last is finished. */
  default void done() {
  }
}
