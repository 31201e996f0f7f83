package org.cacheflow.plan.strategy;

/**
 * The benchmark figures behind a target's break-even sizes, which reports quote next to the decisions they support.
 * Measured by the C runtime's benchmarks on the {@code zen4-vm} machine type (runtime-c/README.md, "Measurements";
 * docs/machine-baseline.md); a target without measurements of its own has none ({@link MeasuredCosts#figures()} null),
 * and its reports give the rules without figures.
 *
 * @param ntmColdSpeed bench_ntm_copy: cold 1 MiB copies with non-temporal stores, the range of their speed against
 *     memcpy's
 * @param ntmWorkingSetReread bench_ntm_copy: the copying core's working set re-read after a streamed copy, times its
 *     untouched time
 * @param memcpyWorkingSetReread the same after a memcpy
 * @param ntmWarmSlowdown bench_ntm_copy: how many times slower smaller and warm copies are with streaming stores
 * @param prestoreGain bench_prestore: a cross-core hand-off of the largest pre-stored size, pre-stored (clean,
 *     demote), times as fast as without
 * @param prestoreLossBytes bench_prestore: the larger hand-off measured next
 * @param prestoreLossClean its speed pre-stored with clean
 * @param prestoreLossDemote with demote
 * @param prestoreLossNonTemporal with non-temporal stores
 * @param lateHandoffBytes bench_prestore_paper (4): the hand-off size measured after bytes touched by its writer
 * @param lateTouchedFrom the least bytes touched in between at which pre-stores lost
 * @param lateTouchedTo the most bytes of that first range
 * @param lateSpeed the speed pre-stored in that range
 * @param farTouched the bytes touched in between of the second range
 * @param farSpeed the speed pre-stored there
 * @param cachedRereadGbs machine baseline: the bandwidth a cached copy re-reads at, GB/s
 * @param streamedRereadGbs a streamed one, GB/s
 * @param spinHandoffMicros machine baseline: a spinning hand-off, us
 * @param futexWakeMicros a futex wake, us
 */
public record MeasuredFigures(Range ntmColdSpeed, double ntmWorkingSetReread, double memcpyWorkingSetReread,
    Range ntmWarmSlowdown, Range prestoreGain, long prestoreLossBytes, double prestoreLossClean,
    double prestoreLossDemote, double prestoreLossNonTemporal, long lateHandoffBytes, long lateTouchedFrom,
    long lateTouchedTo, Range lateSpeed, long farTouched, Range farSpeed, Range cachedRereadGbs,
    Range streamedRereadGbs, double spinHandoffMicros, double futexWakeMicros) {

  /** A measured range, {@code low} to {@code high}. */
  public record Range(double low, double high) {
  }

  /** The figures measured on the {@code zen4-vm} machine type. */
  public static final MeasuredFigures ZEN4_VM = new MeasuredFigures(new Range(0.96, 1.41), 1.07, 3.07,
      new Range(2, 7), new Range(1.21, 1.26), 64L << 10, 0.79, 0.82, 0.72, 1L << 10, 64L << 10, 256L << 10,
      new Range(0.91, 0.98), 1L << 20, new Range(0.73, 0.87), new Range(85, 100), new Range(26, 34), 0.1, 26);
}
