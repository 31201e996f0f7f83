package org.cacheflow.codegen.build;


import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * The one-core plan of a dynamic or hybrid schedule: the asked strategy's plan of one core, keeping only what holds
 * wherever the dispatcher runs a firing. Kept: merge groups (buffers sharing memory at the plan's offsets, PREESM's
 * merges and cacheflow's) and non-temporal copies (fenced: the copy's streaming stores are ordered before the
 * firing's completion, which the next firing's worker acquires). Dropped: pre-stores (aimed at a consumer core's
 * cache), channels (between fixed cores), software pipelining (an iteration offset within a core's loop; the
 * dispatcher overlaps iterations itself) and copy-on-write views, which become plain copies: a view's acquire and
 * release, and a writer's begin and publish, are waits on one thread's view or part (the runtime's per-view and
 * per-part state is that thread's) and set a pointer the consumer's call reads, which firings run on any worker
 * cannot keep.
 */
public final class DispatchedExecution extends DelegatingExecution {

  private DispatchedExecution(ExecutionPlan plan) {
    super(plan);
  }

  /** The plan of a dispatched schedule from a plan of one core. */
  public static DispatchedExecution of(ExecutionPlan plan) {
    if (plan.cores() != 1 || plan.nodes() != 1) {
      throw new IllegalArgumentException("a dispatched schedule is planned on one core of one node, not on "
          + plan.cores() + " cores");
    }
    return new DispatchedExecution(plan);
  }

  /**
   * What the one-core plan decided that the dispatched program keeps and loses, counted over the single-rate edges.
   *
   * @param merged buffers sharing a merge group's memory (the groups' roots left out)
   * @param groups merge groups
   * @param views copy-on-write views made plain copies
   * @param prestores pre-stores left out
   * @param channels channels made buffers of their own
   */
  public record Kept(int merged, int groups, int views, int prestores, int channels) {
  }

  /** What this plan keeps of the one-core plan and what it drops ({@link Kept}). */
  public Kept kept() {
    Srdag srdag = delegate.srdag();
    int merged = 0;
    int groups = 0;
    int views = 0;
    int prestores = 0;
    int channels = 0;
    for (int e = 0; e < srdag.edgeCount(); e++) {
      int root = delegate.mergeRoot(e);
      merged += root >= 0 && root != e ? 1 : 0;
      groups += root == e ? 1 : 0;
      views += delegate.copyOnWrite(e) ? 1 : 0;
      prestores += delegate.prestore(e, srdag.edgeBytes(e)) != PrestoreKind.NONE ? 1 : 0;
      channels += delegate.channel(e) ? 1 : 0;
    }
    return new Kept(merged, groups, views, prestores, channels);
  }

  @Override
  public int cores() {
    return 1;
  }

  @Override
  public int skew(int vertex) {
    return 0;
  }

  @Override
  public CopyKind copyKind(int edge, long bytes, boolean crossing) {
    // an unfenced streaming copy relies on a fence before a flag the dispatcher does not raise: fence it
    CopyKind kind = delegate.copyKind(edge, bytes, crossing);
    return kind == CopyKind.SKIP ? CopyKind.NON_TEMPORAL : kind;
  }

  @Override
  public PrestoreKind prestore(int edge, long bytes) {
    return PrestoreKind.NONE;
  }

  @Override
  public boolean copyOnWrite(int edge) {
    return false;
  }

  @Override
  public int viewSource(int edge) {
    return -1;
  }

  @Override
  public boolean channel(int edge) {
    return false;
  }

  @Override
  public int groupSlots(int root) {
    // one core uses every group: one copy, which the dispatched program's slots multiply as a whole allocation
    return 1;
  }

  @Override
  public String groupSlotsWhy(int root) {
    return "";
  }
}
