package org.cacheflow.ui.workflow;

import java.util.Locale;

/**
 * Something wrong (or worth knowing) about a workflow file, where it is.
 *
 * @param severity how bad it is
 * @param line 1-based line, 0 when unknown
 * @param column 1-based column, 0 when unknown
 * @param message what it is, as users read it
 */
public record WorkflowProblem(Severity severity, int line, int column, String message) {

  public enum Severity { ERROR, WARNING, INFO }

  @Override
  public String toString() {
    return severity.name().toLowerCase(Locale.ROOT) + ": " + line + ":" + column + ": " + message;
  }
}
