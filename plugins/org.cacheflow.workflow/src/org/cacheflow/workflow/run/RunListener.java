package org.cacheflow.workflow.run;

import org.cacheflow.model.diagnostics.SourceLocation;

/** Told what a workflow run does, for a front end to print. */
public interface RunListener {

  /** Information that is neither an error nor a warning (a skipped task, a stand-in). */
  void note(SourceLocation location, String message);

  /** One generation finished. */
  void generated(Generation generation);

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
