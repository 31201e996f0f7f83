package org.cacheflow.analysis;

import org.cacheflow.model.Located;
import org.cacheflow.model.diagnostics.SourceLocation;

/** Source locations of model elements, for messages. */
final class Locations {

  private Locations() {
  }

  static SourceLocation of(Located element) {
    if (element == null) {
      return new SourceLocation("<unknown>", 0, 0);
    }
    String file = element.getFile() == null ? "<unknown>" : element.getFile();
    return new SourceLocation(file, element.getLine(), element.getColumn());
  }
}
