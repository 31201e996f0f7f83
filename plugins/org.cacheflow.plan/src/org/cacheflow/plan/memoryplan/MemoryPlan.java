package org.cacheflow.plan.memoryplan;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.cacheflow.plan.classify.Classification;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.partition.NodePartition;
import org.cacheflow.plan.schedule.Schedule;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.GroupSlots;
import org.cacheflow.plan.strategy.PlanNote;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * Where every actor firing runs, in what order, and how every buffer's data moves through the cache
 * hierarchy: the input of the C code generator. Built by {@link MemoryPlanner#plan}. Immutable.
 *
 * <p>
 * For the code generator: {@link #schedule()} gives each core's static order of single-rate vertices
 * ({@link Schedule#order(int)}); {@link #buffer(int)} gives, per single-rate edge, its strategy and parameters
 * ({@link BufferPlan}). Cross-core buffers that are not channels need the code generator's own
 * synchronisation (as PREESM's post/wait); buffers in one merge group share the memory of
 * {@link BufferPlan#mergeRoot()}.
 *
 * <p>
 * On several nodes ({@code platform().nodes() > 1}; a core's node is {@code platform().nodeOf(core)}), the plan
 * guarantees: a buffer whose producer core and consumer core are on different nodes has strategy
 * {@link org.cacheflow.plan.strategy.Strategy#SEND} and no other buffer has; a SEND buffer is in no merge group
 * ({@code mergeRoot() == -1}), is no copy-on-write view ({@link #viewSource} -1) and carries at most 2^31 - 1
 * bytes (one MPI message of {@code MPI_BYTE}s); its producer writes it in memory of its own on its node (a
 * special vertex copies into it, as for {@code memcpy}), the consumer's node receives it whole into memory of its
 * own; every merge group's members (producers and consumers) and every copy-on-write source with its views are on
 * one node; every vertex runs on a core of its {@link #partition()} node. The schedule's per-core orders still come
 * from one topological order, so each node's cores, looping over their orders and waiting for received buffers,
 * cannot deadlock.
 */
public final class MemoryPlan {

  private final Srdag srdag;
  private final Schedule schedule;
  private final Classification classification;
  private final TargetCache target;
  private final GlobalStrategy strategy;
  private final List<BufferPlan> buffers;
  private final List<FifoPlan> fifos;
  private final int[][] buffersByFifo;
  private final PlanTotals totals;
  private final List<PlanNote> notes;
  private final int[] viewSource;
  private final long[] viewOffset;
  private final LiveBytes live;
  private final NodePartition partition;
  private final int slotsAsked;
  /** Per merge root several cores use, the bytes of such groups its cores go through an iteration (else 0). */
  private final long[] groupTraffic;
  /** What the plan was made from: {@link #preesmTotals()} plans it again under {@code preesm}. */
  private final PlanRequest request;
  private PlanTotals preesmTotals;

  /**
   * The buffers' side of a plan, as {@link MemoryPlanner} assembles it.
   *
   * @param buffers every buffer's plan, by edge
   * @param fifos every FIFO's, in FIFO order
   * @param byFifo per FIFO, its buffers' edges
   * @param totals bytes copied and allocated
   * @param viewSource per edge, the memory a copy-on-write view shows (-1: none)
   * @param viewOffset per edge, where the view starts in it
   * @param live the bytes of each buffer its consumer reads
   * @param groupTraffic per merge root several cores use, the bytes of such groups its cores go through (else 0)
   */
  record Buffers(List<BufferPlan> buffers, List<FifoPlan> fifos, int[][] byFifo, PlanTotals totals, int[] viewSource,
      long[] viewOffset, LiveBytes live, long[] groupTraffic) {
  }

  MemoryPlan(PlanRequest request, Schedule schedule, NodePartition partition, Classification classification,
      Buffers tables, List<PlanNote> notes) {
    this.srdag = schedule.srdag();
    this.request = request;
    this.slotsAsked = request.slots();
    this.groupTraffic = tables.groupTraffic();
    this.schedule = schedule;
    this.classification = classification;
    this.target = request.target();
    this.strategy = request.strategy();
    this.buffers = Collections.unmodifiableList(tables.buffers());
    this.fifos = Collections.unmodifiableList(tables.fifos());
    this.buffersByFifo = tables.byFifo();
    this.totals = tables.totals();
    this.notes = List.copyOf(notes);
    this.viewSource = tables.viewSource();
    this.viewOffset = tables.viewOffset();
    this.live = tables.live();
    this.partition = partition;
  }

  /**
   * The node of every vertex, each node's load, the bytes and messages each iteration sends between nodes, and the
   * predicted time of an iteration (the schedule's makespan, network transfers included). On one node: everything
   * on node 0, nothing sent.
   */
  public NodePartition partition() {
    return partition;
  }

  /**
   * The bytes of each buffer its consumer reads; a special vertex copies only those (all of them under
   * {@code baseline}).
   */
  public LiveBytes liveBytes() {
    return live;
  }

  /**
   * For a copy-on-write view ({@code cow}), the single-rate edge whose memory holds the bytes it shows: the root
   * of a merge group (then in the group's memory) or a buffer with memory of its own; -1 for other strategies.
   */
  public int viewSource(int edge) {
    return viewSource[edge];
  }

  /** For a copy-on-write view, its first byte in its source's memory. */
  public long viewOffset(int edge) {
    return viewOffset[edge];
  }

  /**
   * The copy-on-write views of one iteration.
   *
   * @param views buffers that read a view instead of a copy
   * @param sources memories they share (one copy-on-write buffer each)
   * @param pagesShared pages the views hand to their consumers per iteration without a copy (whole pages covering
   *     each view's range); the pages consumers write are faulted and re-shared at run time, at most these
   * @param perCore the same per core that reads the views (cores without a view left out), in core order
   */
  public record CowSummary(int views, int sources, long pagesShared, List<CoreViews> perCore) {
  }

  /** The views one core's firings read, and the pages they show per iteration. */
  public record CoreViews(String core, int views, long pagesShared) {
  }

  /** The copy-on-write views of one iteration, for reports. */
  public CowSummary cowSummary() {
    long page = target.pageBytes();
    Set<Integer> sources = new HashSet<>();
    int cores = schedule.coreCount();
    int[] coreViews = new int[cores];
    long[] corePages = new long[cores];
    int views = 0;
    long pages = 0;
    for (int e = 0; e < viewSource.length; e++) {
      if (viewSource[e] >= 0) {
        views++;
        sources.add(viewSource[e]);
        long first = viewOffset[e] / page;
        long end = (viewOffset[e] + srdag.edgeBytes(e) + page - 1) / page;
        pages += end - first;
        int core = schedule.coreOf(srdag.edgeTarget(e));
        coreViews[core]++;
        corePages[core] += end - first;
      }
    }
    List<CoreViews> perCore = new ArrayList<>();
    for (int core = 0; core < cores; core++) {
      if (coreViews[core] > 0) {
        perCore.add(new CoreViews(schedule.platform().core(core).name(), coreViews[core], corePages[core]));
      }
    }
    return new CowSummary(views, sources.size(), pages, List.copyOf(perCore));
  }

  public Srdag srdag() {
    return srdag;
  }

  public Schedule schedule() {
    return schedule;
  }

  public Platform platform() {
    return schedule.platform();
  }

  public Classification classification() {
    return classification;
  }

  public TargetCache target() {
    return target;
  }

  /**
   * The slots generated code gives the merge group of {@code root} when several cores use it, under a strategy
   * that pipelines iterations: as many as span the target's L2 together with the other such groups of its cores
   * ({@link GroupSlots}), or those the user asked for ({@link #slotsAsked}); the plan's memory counts them.
   */
  public int groupSlots(int root) {
    return MemoryPlanner.sharedGroupSlots(srdag, classification, target, root, traffic(root), slotsAsked);
  }

  /** Why the merge group of {@code root} has {@link #groupSlots} slots: the case of the rule, with its figures. */
  public GroupSlots.Reason groupSlotsReason(int root) {
    long bytes = MemoryPlanner.groupBytes(srdag, classification, root);
    return slotsAsked > 0 ? GroupSlots.asked(target, bytes, slotsAsked)
        : GroupSlots.why(target, bytes, traffic(root), groupSlots(root));
  }

  private long traffic(int root) {
    return root >= 0 && root < groupTraffic.length ? groupTraffic[root] : 0;
  }

  /** The slots the plan was asked for ({@code --override slots=K}: channels and shared merge groups), 0 if none. */
  public int slotsAsked() {
    return slotsAsked;
  }

  /** The plan-wide strategy it was made with. */
  public GlobalStrategy strategy() {
    return strategy;
  }

  /** Every buffer's plan, indexed by single-rate edge. */
  public List<BufferPlan> buffers() {
    return buffers;
  }

  /** The plan of one single-rate edge. */
  public BufferPlan buffer(int edge) {
    return buffers.get(edge);
  }

  /** Per flat FIFO, in FIFO order. */
  public List<FifoPlan> fifos() {
    return fifos;
  }

  /** The plans of a flat FIFO's single-rate buffers, in edge order. */
  public List<BufferPlan> buffersOf(int fifo) {
    List<BufferPlan> result = new ArrayList<>(buffersByFifo[fifo].length);
    for (int e : buffersByFifo[fifo]) {
      result.add(buffers.get(e));
    }
    return result;
  }

  public PlanTotals totals() {
    return totals;
  }

  /**
   * The totals of the reference, PREESM's generated code with its memory scripts ({@code preesm}): this plan's own
   * under {@code preesm}, else those of the same graph and mapping inputs planned again under it (without overrides),
   * once, when first asked.
   */
  public synchronized PlanTotals preesmTotals() {
    if (strategy == GlobalStrategy.PREESM) {
      return totals;
    }
    if (preesmTotals == null) {
      preesmTotals = MemoryPlanner.plan(srdag, request.withStrategy(GlobalStrategy.PREESM).withOverrides(List.of())
          .withProgress(null)).totals();
    }
    return preesmTotals;
  }

  /**
   * Remarks for the user: how the cores were balanced, pipelined or counted, overrides that applied to only some
   * buffers of a FIFO (values; the report bundle words them).
   */
  public List<PlanNote> notes() {
    return notes;
  }
}
