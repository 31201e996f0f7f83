package org.cacheflow.workflow.run;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * Something wrong with a task's settings, where it is written.
 *
 * @param location the variable (or the task, for task-wide problems)
 * @param message what is wrong
 */
public record Problem(SourceLocation location, String message) {

  public InputException toException() {
    return new InputException(location, message);
  }

  @Override
  public String toString() {
    return location + ": " + message;
  }
}
