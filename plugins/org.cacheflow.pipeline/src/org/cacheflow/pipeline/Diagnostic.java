package org.cacheflow.pipeline;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Something the pipeline tells its caller: a warning or a note, with the place it is about when there is one. Errors
 * are thrown ({@link org.cacheflow.model.diagnostics.InputException} naming file, line and column;
 * {@link OptionException} naming the option); they are never printed by the pipeline.
 *
 * @param severity how serious
 * @param location the file, line and column it is about, or null
 * @param message what to tell the user
 */
public record Diagnostic(Severity severity, SourceLocation location, String message) {

  /** How serious a diagnostic is. */
  public enum Severity {
    /** Something was left out or guessed; the result is still usable. */
    WARNING,
    /** Information: a choice the pipeline made for the caller, a hint. */
    NOTE
  }

  public static Diagnostic warning(SourceLocation location, String message) {
    return new Diagnostic(Severity.WARNING, location, message);
  }

  public static Diagnostic note(String message) {
    return new Diagnostic(Severity.NOTE, null, message);
  }

  /** {@code FILE:LINE:COL: message}, or the message alone. */
  @Override
  public String toString() {
    return location == null ? message : location + ": " + message;
  }
}
