package org.cacheflow.plan.strategy;

/**
 * The break-even sizes {@code auto} uses, measured by the C runtime's benchmarks on this project's machine
 * type (runtime-c/README.md, "Measurements"; docs/machine-baseline.md). A target description may replace
 * them for another machine.
 *
 * @param cowReadOnlyMinBytes smallest buffer for which a copy-on-write view beats memcpy when the consumers
 *     only read it: 64 KiB (bench_cow: read-only break-even 64 KiB in both modes; at 64 KiB eager is 2.9x
 *     and lazy 27x cheaper than memcpy)
 * @param cowReadMostlyMinBytes smallest buffer for which a view still wins when a consumer writes a page of
 *     it: 1 MiB (bench_cow on a quiet machine: "1 page written" break-even 1 MiB; one written page costs
 *     5-10 us of fault and copy, and at 256 KiB a view with one written page is 0.97x / 0.81x as fast as
 *     memcpy, eager / lazy)
 * @param ntmMinBytes smallest copy made with non-temporal stores: 1 MiB (bench_ntm_copy: cold streaming copies
 *     match memcpy from 1 MiB (0.96-1.41x) and leave the copying core's working set 3x less disturbed
 *     (re-read 1.07x vs 3.07x of untouched); smaller and warm copies are 2-7x slower with streaming stores)
 * @param prestoreMaxBytes largest cross-core hand-off pre-stored: 4 KiB (bench_prestore: producer write +
 *     consumer read on another core, 4 KiB: clean 1.21x, demote 1.26x faster; 64 KiB: 0.79x / 0.82x; 1 MiB:
 *     0.53x / 0.53x (quiet machine); no size in between was measured, so the largest measured win is the bound)
 */
public record MeasuredCosts(long cowReadOnlyMinBytes, long cowReadMostlyMinBytes, long ntmMinBytes,
    long prestoreMaxBytes) {

  /** The figures measured on this project's machine type. */
  public static final MeasuredCosts MEASURED = new MeasuredCosts(64L << 10, 1L << 20, 1L << 20, 4L << 10);

  public MeasuredCosts {
    if (cowReadOnlyMinBytes < 0 || cowReadMostlyMinBytes < 0 || ntmMinBytes < 0 || prestoreMaxBytes < 0) {
      throw new IllegalArgumentException("negative break-even size");
    }
  }
}
