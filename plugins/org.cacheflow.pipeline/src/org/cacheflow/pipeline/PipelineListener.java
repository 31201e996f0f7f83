package org.cacheflow.pipeline;

import org.cacheflow.analysis.ProgressListener;

/**
 * Told what the pipeline is doing while it runs: the step (reading, analysing, planning, writing), the progress of
 * long tasks within it ({@link ProgressListener}), and every diagnostic as it arises (the results list them too).
 * Every method does nothing by default.
 */
public interface PipelineListener extends ProgressListener {

  /** A new step begins, e.g. {@code reading app.pi}. */
  default void step(String description) {
  }

  /** A warning or note, in the order they arise. */
  default void diagnostic(Diagnostic diagnostic) {
  }

  /** Hears nothing. */
  PipelineListener SILENT = new PipelineListener() {
  };
}
