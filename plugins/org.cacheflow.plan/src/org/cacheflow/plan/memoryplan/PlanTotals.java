package org.cacheflow.plan.memoryplan;

/**
 * Plan-wide totals per graph iteration; each is the sum of the per-FIFO figures.
 *
 * @param baselineBytesCopied bytes copied by the baseline (every special vertex copies, like PREESM's code)
 * @param planBytesCopied bytes copied by this plan
 * @param footprintBytes memory allocated for buffers by this plan
 * @param baselineFootprintBytes memory the baseline allocates (every buffer its own)
 */
public record PlanTotals(long baselineBytesCopied, long planBytesCopied, long footprintBytes,
    long baselineFootprintBytes) {

  /** The fraction of the baseline's copied bytes this plan avoids (0 when the baseline copies nothing). */
  public double copyReduction() {
    return baselineBytesCopied == 0 ? 0 : 1 - (double) planBytesCopied / baselineBytesCopied;
  }
}
