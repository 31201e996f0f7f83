package org.cacheflow.workflow.run;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.PipelineListener;

/**
 * Told what a workflow run does, for a front end to print: the workflow runner's notes and finished generations,
 * and, as a {@link PipelineListener}, each generation's progress and diagnostics.
 */
public interface RunListener extends PipelineListener {

  /** Information that is neither an error nor a warning (a skipped task, a stand-in). */
  void note(SourceLocation location, String message);

  /** One generation finished. */
  void generated(Generation generation);

  /**
   * A generation failed (bad input or a bad setting, thrown after this call): where it was asked for is
   * {@code generation.request().origin("")}.
   */
  default void failed(Generation generation, RuntimeException cause) {
  }

  /** Discards everything. */
  RunListener SILENT = new RunListener() {
    @Override
    public void note(SourceLocation location, String message) {
      // nothing
    }

    @Override
    public void generated(Generation generation) {
      // nothing
    }
  };
}
