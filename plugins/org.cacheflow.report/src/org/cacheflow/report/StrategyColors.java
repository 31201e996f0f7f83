package org.cacheflow.report;

import org.cacheflow.plan.strategy.Strategy;

/** One colour per strategy, shared by the DOT and SVG drawings and their legends. */
public final class StrategyColors {

  private StrategyColors() {
  }

  public static String of(Strategy strategy) {
    return switch (strategy) {
      case ALIAS -> "#8d99ae";
      case DIRECT -> "#37474f";
      case MEMCPY -> "#d62828";
      case COW -> "#2a9d8f";
      case NTM -> "#7b2cbf";
      case PRESTORE -> "#f77f00";
      case CHANNEL -> "#1d4ed8";
      case SEND -> "#b45309";
    };
  }

  /** What the strategy does, in a few words, for legends. */
  public static String meaning(Strategy strategy) {
    return switch (strategy) {
      case ALIAS -> "shares memory (merged): no copy";
      case DIRECT -> "written and read in place: no copy";
      case MEMCPY -> "plain copy";
      case COW -> "copy-on-write view";
      case NTM -> "non-temporal copy";
      case PRESTORE -> "pre-store after writing";
      case CHANNEL -> "home-forwarded channel";
      case SEND -> "MPI transfer between nodes";
    };
  }
}
