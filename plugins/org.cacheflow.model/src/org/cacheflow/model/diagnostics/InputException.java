package org.cacheflow.model.diagnostics;

/**
 * Bad user input: a malformed file, an undefined parameter, an inconsistent graph. Carries the location
 * so front ends print {@code error: FILE:LINE:COL: message} and exit with status 1, never a stack trace.
 */
public class InputException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final SourceLocation location;

  public InputException(SourceLocation location, String message) {
    super(message);
    this.location = location;
  }

  public InputException(SourceLocation location, String message, Throwable cause) {
    super(message, cause);
    this.location = location;
  }

  public SourceLocation location() {
    return location;
  }

  /** The message as users see it: {@code FILE:LINE:COL: message}. */
  public String describe() {
    return location == null ? getMessage() : location + ": " + getMessage();
  }
}
