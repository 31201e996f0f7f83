package org.cacheflow.plan.strategy;

/** The plan-wide strategy ({@code --strategy}); per-FIFO overrides refine it. */
public enum GlobalStrategy {
  /** Plain copies everywhere, like PREESM's generated code: no merging, memcpy for every special vertex. */
  BASELINE("baseline"),
  /**
   * PREESM's generated code with its memory scripts: the merger's groups share memory (PREESM's rules only: no state
   * chains fused, no copy cut to the bytes read), every other special vertex copies with memcpy, the list schedule
   * as mapped (no balancing for pipelined iterations).
   */
  PREESM("preesm"),
  /** Merges kept; every copy that can be a copy-on-write view is one. */
  COW("cow"),
  /** Merges kept; every copy uses non-temporal stores. */
  NTM("ntm"),
  /** Merges kept; every written buffer is pre-stored, the kind chosen by the pre-stores paper's rule. */
  PRESTORE("prestore"),
  /** Merges kept; every cross-core buffer with memory of its own becomes a home-forwarded channel. */
  HOMEFORWARD("homeforward"),
  /** Each buffer gets the strategy the measured costs and reuse distances favour (see StrategySelector). */
  AUTO("auto");

  public final String label;

  GlobalStrategy(String label) {
    this.label = label;
  }

  /**
   * Whether plans of this mode have the shape of PREESM's generated code ({@link #BASELINE}, {@link #PREESM}): the
   * list schedule as mapped, a barrier after every iteration, the merger's groups as its scripts make them and every
   * copy whole.
   */
  public boolean preesmCode() {
    return this == BASELINE || this == PREESM;
  }

  /** The strategy with that label, or null. */
  public static GlobalStrategy byLabel(String label) {
    for (GlobalStrategy strategy : values()) {
      if (strategy.label.equals(label)) {
        return strategy;
      }
    }
    return null;
  }
}
