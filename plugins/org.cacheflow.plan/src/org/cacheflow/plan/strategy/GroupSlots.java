package org.cacheflow.plan.strategy;

/**
 * How many slots (copies, iteration i in slot i % k) a memory-script merge group gets when several cores use it.
 *
 * <p>The writer of a group's slot takes each of its lines back from the cache of the core that read it k
 * iterations before. While the slot is still in that reader's L2 this costs about as much as pulling it did
 * (bench/home-forwarding/line-cost: 1-2.5 ns per line when the two vCPUs are two cores close by, 16-20 ns far
 * apart); once the reader has gone through about its L2 since, the line is mostly gone from it. So the group gets
 * enough slots that together they span the reader's L2: k = ceil(L2 / group bytes), at least the strategy's slots
 * ({@code 2}) and at most {@value #MAX_SLOTS}. The memory stays bounded: k slots take at most max(2 x group, L2 +
 * group) bytes. A slot count the user asks for ({@code --override slots=K}) wins.
 *
 * <p>Measured (bench/RESULTS.md, the runs of 2026-11-27 12:02 UTC, near placement): 147 KiB buffers taking turns as K
 * slots
 * ({@code line-cost/run.sh --slots K 147}) were taken back at 1.41 ns per line with 1 and with 2 slots, 0.17 with
 * 4 (588 KiB of the 1 MiB L2 already did it) and 0.08 with 8; far apart, 14-16 ns whatever K (bandwidth). The
 * map 224x224 int program's 2-core iteration, median of interleaved rounds, with k slots of its 196 KiB group:
 * 19.9 us (k = 2), 18.4 (3), 17.0 (4), 16.6 (6, this rule's choice), 15.8 (8); the farm programs (groups of
 * 16-256 KiB) ran level with 2, 4 and 8 slots -- none of which spans the L2 for groups up to 64 KiB.
 *
 * <p>A most of 8 slots left groups under 128 KiB short of the L2. Per task, interleaved near
 * rounds (bench/RESULTS.md, the runs of 2026-11-27 23:35 UTC): farm 32x32 int (16 KiB groups) 0.80 / 0.79 us with 32 /
 * 64 slots against
 * 0.91 with 8 (16 rounds: 1.64x against 1.41x the sequential {@code alias} program in them; 0.76 against 0.82
 * in 12 more), farm 32x32 float 0.86 (64) against 0.92 (8), map
 * 168x168 int (110 KiB) 8.21 (10) against 8.73 (8), farm 64x64 int (64 KiB) 3.61 (16) against 3.61 (8).
 *
 * <p>A reader goes through every group its cores share each iteration, not only this one: between the writer's two
 * visits to a slot it has read k iterations of all of them. So the slots also stop where k iterations of all such
 * groups that share a core with this one (the group's <em>traffic</em>) make twice the L2: k = min(ceil(L2 / group),
 * ceil(2 x L2 / traffic)) (bench/RESULTS.md, the runs of 2026-11-28 03:20 UTC). Twice, because at once the farms lost:
 * with one L2 of traffic (farm 32x32
 * int's two 16 KiB groups at 32 slots, farm 128x128 int's two 256 KiB groups at 2) their 2-core programs ran 2.4% and
 * 1.7% slower than with 64 and 4 slots (new faster in 2 of 14 and 4 of 12 interleaved near rounds; 1.71x against
 * 1.78x and 1.88x against 1.93x the sequential {@code alias} program in them), map 168x168 int (its row group and
 * two small vector groups at 10) 2.2% faster (8 of 12; 1.55x against 1.50x). With twice the L2 the farms and map's row
 * groups keep the slots measured above, map's small vector groups get 11-19 instead of 64, and a graph with many such
 * groups no longer gets up to L2 + group bytes for each (stereo's 29 groups of 384 KiB: 2 slots instead of 3): all
 * such groups together take about max(2 x their bytes, 2 x L2 + their bytes). Before the cores are mapped the planner
 * cannot know which groups share a core and judges each group alone ({@link #spansL2}).
 */
public final class GroupSlots {

  /**
   * The most slots a group gets by this rule: 64 x 16 KiB span a 1 MiB L2; a smaller group stops here, short of the
   * L2 (128 slots of farm 32x32's 16 KiB, 2 MiB, measured no faster than 64).
   */
  public static final int MAX_SLOTS = 64;

  /** How many times the L2 the traffic of all groups a group's cores share makes over its slots (see above). */
  public static final int TRAFFIC_SPANS = 2;

  private GroupSlots() {}

  /**
   * The slots of a merge group of {@code bytes} that several cores use on {@code target}.
   *
   * @param minimum the strategy's slots (the count below which the rule never goes)
   */
  public static int of(TargetCache target, long bytes, int minimum) {
    return of(target, bytes, bytes, minimum, 0);
  }

  /**
   * The slots of such a group when the user may have asked for some ({@code --override slots=K}): {@code asked} when
   * positive, else {@link #of(TargetCache, long, int)}.
   */
  public static int of(TargetCache target, long bytes, int minimum, int asked) {
    return of(target, bytes, bytes, minimum, asked);
  }

  /**
   * The slots of a merge group of {@code bytes} that several cores use on {@code target}, when those cores also go
   * through other such groups each iteration: {@code traffic} is the bytes of all of them, this one included (less
   * than {@code bytes} counts as {@code bytes}); {@code asked} when positive.
   */
  public static int of(TargetCache target, long bytes, long traffic, int minimum, int asked) {
    if (asked > 0) {
      return asked;
    }
    long spanning = Math.min(ceilDiv(target.l2Bytes(), bytes),
        ceilDiv(TRAFFIC_SPANS * target.l2Bytes(), Math.max(bytes, traffic)));
    return (int) Math.max(minimum, Math.min(MAX_SLOTS, spanning));
  }

  private static long ceilDiv(long a, long b) {
    return (a + Math.max(1, b) - 1) / Math.max(1, b);
  }

  /**
   * Whether a group of {@code bytes} that several cores use gets slots ({@link #of(TargetCache, long, int, int)})
   * that together span the target's L2: its lines have left the reader's cache when the writer comes back (the
   * planner charges them {@link MeasuredCosts#spanningLineNanos()}).
   */
  public static boolean spansL2(TargetCache target, long bytes, int minimum, int asked) {
    return spans(target, bytes, of(target, bytes, minimum, asked));
  }

  private static boolean spans(TargetCache target, long bytes, int slots) {
    return (long) slots * bytes >= target.l2Bytes();
  }

  /**
   * Why a merge group has its slots: the case of the rule that gave them, with its figures (in words:
   * {@code org.cacheflow.report.DecisionText.groupSlots}, which the generated code's comments quote).
   *
   * @param rule which case
   * @param slots the slots
   * @param bytes the group's bytes
   * @param traffic the bytes of the groups its cores share an iteration (at least {@code bytes})
   * @param l2Bytes the reader's L2
   * @param trafficSpans how many L2s the traffic over the slots makes at most ({@link #TRAFFIC_SPANS})
   */
  public record Reason(Rule rule, int slots, long bytes, long traffic, long l2Bytes, int trafficSpans) {

    /** The cases. */
    public enum Rule {
      /** The user asked for them ({@code --override slots=K}). */
      ASKED,
      /** The most ({@link #MAX_SLOTS}), together within the L2. */
      MOST,
      /** One slot alone already spans the L2 (the strategy's minimum). */
      ONE_SPANS,
      /** Stopped where the traffic of the groups its cores share makes {@code trafficSpans} L2s. */
      TRAFFIC,
      /** Together they span the L2. */
      SPANNING
    }
  }

  /** Why a group of {@code bytes} has {@code slots} slots. */
  public static Reason why(TargetCache target, long bytes, int slots) {
    return why(target, bytes, bytes, slots);
  }

  /**
   * Why a group of {@code bytes}, whose cores go through {@code traffic} bytes of such groups each iteration (see
   * {@link #of(TargetCache, long, long, int, int)}), has {@code slots} slots.
   */
  public static Reason why(TargetCache target, long bytes, long traffic, int slots) {
    Reason.Rule rule = slots >= MAX_SLOTS && !spans(target, bytes, slots) ? Reason.Rule.MOST
        : (long) (slots - 1) * bytes >= target.l2Bytes() ? Reason.Rule.ONE_SPANS
            : traffic > bytes && !spans(target, bytes, slots) ? Reason.Rule.TRAFFIC : Reason.Rule.SPANNING;
    return new Reason(rule, slots, bytes, Math.max(bytes, traffic), target.l2Bytes(), TRAFFIC_SPANS);
  }

  /** The slots the user asked for. */
  public static Reason asked(TargetCache target, long bytes, int slots) {
    return new Reason(Reason.Rule.ASKED, slots, bytes, bytes, target.l2Bytes(), TRAFFIC_SPANS);
  }
}
