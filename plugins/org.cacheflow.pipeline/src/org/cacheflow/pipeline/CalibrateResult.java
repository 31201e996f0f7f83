package org.cacheflow.pipeline;

import java.nio.file.Path;

import org.cacheflow.plan.strategy.Bytes;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * A calibration written.
 *
 * @param file the target file
 * @param target the target it describes, as {@code plan --target} reads it
 * @param where the machine it was measured on (the file's {@code measured.on})
 * @param load the load average there when the measurement began, as the program reported it
 */
public record CalibrateResult(Path file, TargetCache target, String where, String load) {

  /** One line for users. */
  public String summary() {
    return "wrote " + PathText.display(file) + ": " + target.describe() + "; break-even sizes: copy-on-write from "
        + Bytes.human(target.costs().cowReadOnlyMinBytes()) + " (read-mostly "
        + Bytes.human(target.costs().cowReadMostlyMinBytes()) + "), non-temporal from "
        + Bytes.human(target.costs().ntmMinBytes()) + ", pre-stores up to "
        + Bytes.human(target.costs().prestoreMaxBytes()) + "; measured on " + where;
  }
}
