package org.cacheflow.scripts;

import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * A memory script is wrong: it does not parse, uses a construct outside the supported subset, fails while
 * running (unknown method, division by zero, out-of-range match, step budget exhausted, {@code throw}) or
 * its marks contradict another script's. Always carries the script location.
 */
public class ScriptException extends InputException {

  private static final long serialVersionUID = 1L;

  public ScriptException(SourceLocation location, String message) {
    super(location, message);
  }
}
