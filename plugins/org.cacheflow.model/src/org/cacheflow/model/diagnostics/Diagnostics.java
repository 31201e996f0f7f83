package org.cacheflow.model.diagnostics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects warnings while a stage runs (a missing refinement header, an absent architecture file) so the
 * stage can go on and the front end can print them all. Errors are thrown as {@link InputException}.
 * Identical warnings are reported once.
 */
public final class Diagnostics {

  /** One warning, printed as {@code warning: FILE:LINE:COL: message}. */
  public record Warning(SourceLocation location, String message) {
    @Override
    public String toString() {
      return location == null ? message : location + ": " + message;
    }
  }

  private final Set<Warning> warnings = new LinkedHashSet<>();

  public void warn(SourceLocation location, String message) {
    warnings.add(new Warning(location, message));
  }

  public List<Warning> warnings() {
    return Collections.unmodifiableList(new ArrayList<>(warnings));
  }

  public boolean isEmpty() {
    return warnings.isEmpty();
  }
}
