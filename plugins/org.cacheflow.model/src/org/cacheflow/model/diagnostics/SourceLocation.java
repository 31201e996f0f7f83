package org.cacheflow.model.diagnostics;

import java.nio.file.Path;

/**
 * A place in an input file. Line and column are 1-based; 0 means unknown. Printed as
 * {@code FILE:LINE:COL}, the form every user-facing message starts with.
 */
public record SourceLocation(String file, int line, int column) {

  public static SourceLocation of(Path file, int line, int column) {
    return new SourceLocation(file == null ? "<unknown>" : file.toString(), line, column);
  }

  public static SourceLocation file(Path file) {
    return of(file, 0, 0);
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder(file);
    if (line > 0) {
      text.append(':').append(line);
      if (column > 0) {
        text.append(':').append(column);
      }
    }
    return text.toString();
  }
}
