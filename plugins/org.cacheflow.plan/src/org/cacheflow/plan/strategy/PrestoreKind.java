package org.cacheflow.plan.strategy;

/**
 * The pre-stores paper's operations (Wu, Lepers, Zwaenepoel, EuroSys '25, Sect. 2 and 6.2.3): what to do
 * with freshly written data, chosen from how soon it is re-written and re-read.
 */
public enum PrestoreKind {
  /** No pre-store. */
  NONE("none"),
  /**
   * Re-written soon: move the lines to a shared cache level but keep them cached ({@code cldemote},
   * {@code CF_DEMOTE}).
   */
  DEMOTE("demote"),
  /** Re-read soon: write the lines back and keep them cached ({@code clwb}, {@code CF_CLEAN}). */
  CLEAN("clean"),
  /**
   * Neither: bypass the caches (the paper's "skip", the label users write). A copy is made with non-temporal
   * stores ({@code CF_SKIP}); data an actor wrote itself is evicted after the firing ({@code CF_EVICT}), the
   * nearest a framework can get.
   */
  BYPASS("skip");

  public final String label;

  PrestoreKind(String label) {
    this.label = label;
  }
}
