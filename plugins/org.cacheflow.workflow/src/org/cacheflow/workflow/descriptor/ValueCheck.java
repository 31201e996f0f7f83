package org.cacheflow.workflow.descriptor;

import java.util.Optional;

/** Checks a parameter's value as written (never null, never blank: blank means the default). */
@FunctionalInterface
public interface ValueCheck {

  /** Why {@code value} is not acceptable, or empty when it is. */
  Optional<String> problem(String value);
}
