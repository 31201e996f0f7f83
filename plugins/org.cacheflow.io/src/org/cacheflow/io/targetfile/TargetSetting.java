package org.cacheflow.io.targetfile;

import java.util.Objects;

import org.cacheflow.model.diagnostics.SourceLocation;

/**
 * One value written in a target file, as text, with the place it was written (the value's first character, or
 * in JSON its opening quote), so that a bad value can be reported at its file, line and column.
 */
public record TargetSetting(String value, SourceLocation location) {

  public TargetSetting {
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(location, "location");
  }
}
