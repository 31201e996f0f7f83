package org.cacheflow.codegen.build;

import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * Transitional (issue #15): reads the pre-store that {@link Strategy} and {@link PlannedExecution} still give as the
 * runtime's operation name. Goes once they give a {@link PrestoreKind}; nothing else in code generation names a
 * runtime operation (the printers do).
 */
final class PrestoreOps {

  private PrestoreOps() {
  }

  /** The kind of an operation name; null is NONE. */
  static PrestoreKind kind(String ops) {
    if (ops == null) {
      return PrestoreKind.NONE;
    }
    return switch (ops) {
      case "CF_DEMOTE" -> PrestoreKind.DEMOTE;
      case "CF_CLEAN" -> PrestoreKind.CLEAN;
      case "CF_EVICT" -> PrestoreKind.SKIP;
      default -> throw new IllegalArgumentException("unknown pre-store operation " + ops);
    };
  }
}
