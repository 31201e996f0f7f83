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
 * @param handoffNanos what one cross-core hand-off through a rdy-ack flag costs the cores, in nanoseconds: the
 *     one-way time of runtime-c's bench_flag ping-pong (flag raised, seen by a spinning waiter, line moved back
 *     and forth) -- {@value #HANDOFF_NANOS} ns, the far vCPU placement's figure (see the field); the planner
 *     charges it to both cores of every coalesced event ({@link org.cacheflow.plan.schedule.CoreCount})
 * @param lineNanos what one cache line of a cross-core buffer costs the core that moves it, in nanoseconds: the
 *     reader pulls each line the other core wrote, and the writer, next iteration, takes each line back from the
 *     reader's cache before it can write it -- {@value #LINE_NANOS} ns (see the field); the planner charges it per
 *     line, both ways ({@link org.cacheflow.plan.schedule.CoreCount})
 * @param timeUnitNanos nanoseconds per unit of the scenario's actor timings on this target (e.g. 0.4 for
 *     cycles of a 2.5 GHz core); 0 when unknown: the planner then cannot weigh hand-offs against work and keeps
 *     the cores it was given
 * @param spanningLineNanos what one line costs instead of {@code lineNanos} when it belongs to a merge group whose
 *     slots together span the L2 ({@link GroupSlots}): the writer no longer takes it back from the reader's cache,
 *     and the reader's pull is hidden behind its work -- {@value #SPANNING_LINE_NANOS} ns (see the field)
 * @param figures the benchmark figures behind these sizes, which reports quote; null when the target has none (a
 *     target file that sets a break-even size of its own)
 */
public record MeasuredCosts(long cowReadOnlyMinBytes, long cowReadMostlyMinBytes, long ntmMinBytes,
    long prestoreMaxBytes, long handoffNanos, double lineNanos, double timeUnitNanos, double spanningLineNanos,
    MeasuredFigures figures) {

  /**
   * bench_flag, one-way flag hand-off on this machine type: close to the one-line ping-pong floor, which is
   * about 32 ns one-way when the two vCPUs sit "near" and 170 ns "far" (docs/machine-baseline.md); a flag event
   * moves its line twice and the waiter then pulls the data lines, so the far figure, doubled and rounded up,
   * is what a hand-off is charged.
   */
  public static final long HANDOFF_NANOS = 400;

  /**
   * One 64-byte line of a cross-core buffer, pulled by its reader or taken back by its writer, on this machine
   * type when its two vCPUs are two cores close by -- the "near" placement, the one this VM's vCPUs were found in
   * most (bench/home-forwarding/README.md, "Placement"). bench/home-forwarding/line-cost/run.sh (two pinned threads
   * handing a buffer back and forth, each trial bracketed by the placement probe; bench/results/line-cost.txt):
   * near, a reader pulls a line in 0-4 ns (16-256 KiB: 0-1.2), a writer takes one back in 1.8-2.5 ns; the map
   * 224x224 program's own actors paid 2.3 (pulled) and 2.8 ns (taken back) per line (bench/RESULTS.md, the runs of
   * 2026-11-27 02:33 UTC):
   * 3 ns is charged. Far (two cores far apart) lines cost 10-13 ns pulled (16 KiB) and 16-20 taken back, the
   * coherence traffic's bandwidth rather than its latency (prefetching them ahead of the writes does not help);
   * a plan made with 3 ns then loses where the data moved is near the work (farm 32x32 int on 2 cores: 0.63x one
   * core in 11 far rounds, 1.34-1.53x in near ones; bench/RESULTS.md, the runs of 2026-11-27 08:50 UTC). On the two
   * hardware threads of one core ("shared") lines cost about 2 ns, but the two
   * threads share the core's arithmetic. A target file's transfer.ns (15 for the far placement) plans for another
   * placement or machine.
   */
  public static final double LINE_NANOS = 3;

  /**
   * One line of a merge group whose slots together span the reader's L2, near: by the time its writer comes back
   * to a slot, the slot's lines have left the reader's cache (bench/home-forwarding/line-cost/run.sh --slots K 147:
   * taken back at 0.17 ns per line with 4 slots and 0.08 with 8, against 1.41 with 2), and a reader streaming
   * through them pulls them behind its work. Per actor in the 2-core farm 128x128 int program (groups of 256 KiB in
   * 4 slots; bench/RESULTS.md, the runs of 2026-11-27 14:50 UTC; runs of 300 iterations, near): the emitter, the
   * workers and the collector
   * ran 0.3-0.6 us slower than alone, 0.3-0.4 ns per line crossing; with 3 ns a line the planner predicted map
   * 224x224 int at 1.12-1.29x and farm 128x128 int at 1.25-1.53x where they ran 1.67-1.79x and 1.82-1.97x. 0.5 ns
   * is charged. A target file's transfer.spanning.ns sets it.
   */
  public static final double SPANNING_LINE_NANOS = 0.5;

  /** The figures measured on this project's machine type (actor timing unit unknown). */
  public static final MeasuredCosts MEASURED = new MeasuredCosts(64L << 10, 1L << 20, 1L << 20, 4L << 10,
      HANDOFF_NANOS, LINE_NANOS, 0, SPANNING_LINE_NANOS, MeasuredFigures.ZEN4_VM);

  /** The costs without benchmark figures. */
  public MeasuredCosts(long cowReadOnlyMinBytes, long cowReadMostlyMinBytes, long ntmMinBytes, long prestoreMaxBytes,
      long handoffNanos, double lineNanos, double timeUnitNanos, double spanningLineNanos) {
    this(cowReadOnlyMinBytes, cowReadMostlyMinBytes, ntmMinBytes, prestoreMaxBytes, handoffNanos, lineNanos,
        timeUnitNanos, spanningLineNanos, null);
  }

  public MeasuredCosts {
    if (cowReadOnlyMinBytes < 0 || cowReadMostlyMinBytes < 0 || ntmMinBytes < 0 || prestoreMaxBytes < 0) {
      throw new IllegalArgumentException("negative break-even size");
    }
    if (handoffNanos < 0 || !(timeUnitNanos >= 0) || Double.isInfinite(timeUnitNanos) || !(lineNanos >= 0)
        || Double.isInfinite(lineNanos) || !(spanningLineNanos >= 0) || Double.isInfinite(spanningLineNanos)) {
      throw new IllegalArgumentException("negative hand-off or line cost, or time unit");
    }
  }

  /** The costs with the measured line cost for merge groups spanning the L2. */
  public MeasuredCosts(long cowReadOnlyMinBytes, long cowReadMostlyMinBytes, long ntmMinBytes, long prestoreMaxBytes,
      long handoffNanos, double lineNanos, double timeUnitNanos) {
    this(cowReadOnlyMinBytes, cowReadMostlyMinBytes, ntmMinBytes, prestoreMaxBytes, handoffNanos, lineNanos,
        timeUnitNanos, SPANNING_LINE_NANOS);
  }

  /** The break-even sizes with the measured hand-off and line costs and an unknown timing unit. */
  public MeasuredCosts(long cowReadOnlyMinBytes, long cowReadMostlyMinBytes, long ntmMinBytes, long prestoreMaxBytes) {
    this(cowReadOnlyMinBytes, cowReadMostlyMinBytes, ntmMinBytes, prestoreMaxBytes, HANDOFF_NANOS, LINE_NANOS, 0);
  }
}
