package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.Platform;
import org.cacheflow.plan.memoryplan.BufferPlan;
import org.cacheflow.plan.memoryplan.MemoryPlan;
import org.cacheflow.plan.memoryplan.MemoryPlanner;
import org.cacheflow.plan.memoryplan.PlanRequest;
import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.plan.strategy.PrestoreKind;
import org.cacheflow.report.DecisionText;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * The memory plan of {@code org.cacheflow.plan} behind {@link ExecutionPlan}: its list-scheduled mapping and
 * per-core order, and, for the plan's own strategies ({@code baseline}, {@code cow}, {@code ntm},
 * {@code prestore}, {@code homeforward}, {@code auto}), its per-buffer choice of copy kind, pre-store and channel
 * slots, its merge groups (aliased buffers, at the merger's offsets) and its copy-on-write views. The other
 * presets ({@code channels}, {@code alias}, {@code prestore-demote|clean|skip}) use the plan of the closest
 * plan-wide strategy for mapping, order and merges, and their own fixed choice for copies and pre-stores.
 */
public final class PlannedExecution implements ExecutionPlan {

  private final MemoryPlan plan;
  private final CodePreset preset;
  private final boolean followBuffers;

  private PlannedExecution(MemoryPlan plan, CodePreset preset, boolean followBuffers) {
    this.plan = plan;
    this.preset = preset;
    this.followBuffers = followBuffers;
  }

  /** Wraps a plan made with the preset's planner mode ({@link StrategyPreset#planner()}). */
  public static PlannedExecution of(MemoryPlan plan, CodePreset preset) {
    if (plan.slotsAsked() != slotsAsked(preset)) {
      throw new IllegalArgumentException("the plan was made for " + plan.slotsAsked() + " slots asked, the code for "
          + slotsAsked(preset));
    }
    return new PlannedExecution(plan, preset, preset.preset().followsPlan());
  }

  /** Plans with the defaults (load-balancing mapping, no scenario, the given target) on {@code cores} cores. */
  public static PlannedExecution plan(Srdag srdag, int cores, CodePreset preset, TargetCache target) {
    return plan(srdag, cores, preset, target, null);
  }

  /**
   * As {@link #plan(Srdag, int, CodePreset, TargetCache)} with the merges and marks of evaluated memory scripts
   * (null: the special actors' default scripts).
   */
  public static PlannedExecution plan(Srdag srdag, int cores, CodePreset preset, TargetCache target,
      MemoryFacts facts) {
    return plan(srdag, Platform.generic(cores), preset, target, facts);
  }

  /**
   * As {@link #plan(Srdag, int, CodePreset, TargetCache, MemoryFacts)} on {@code nodes} nodes of
   * {@code coresPerNode} cores each ({@link Platform#generic(int, int)}): one SPMD program over MPI when
   * {@code nodes > 1}.
   */
  public static PlannedExecution plan(Srdag srdag, int nodes, int coresPerNode, CodePreset preset, TargetCache target,
      MemoryFacts facts) {
    return plan(srdag, Platform.generic(nodes, coresPerNode), preset, target, facts);
  }

  private static PlannedExecution plan(Srdag srdag, Platform platform, CodePreset preset, TargetCache target,
      MemoryFacts facts) {
    MappingInputs inputs = MappingInputs.defaults(srdag.flatGraph(), platform);
    MemoryPlan plan = MemoryPlanner.plan(srdag, PlanRequest.of(inputs, target).withStrategy(
        preset.preset().planner()).withFacts(facts).withSlots(slotsAsked(preset)));
    return of(plan, preset);
  }

  /** The slots the user asked for ({@code --override slots=K}), as a plan request takes them: 0 for none. */
  private static int slotsAsked(CodePreset preset) {
    return preset.slotsAsked() ? preset.slots() : 0;
  }

  @Override
  public int skew(int vertex) {
    return plan.schedule().skew(vertex);
  }

  public MemoryPlan memoryPlan() {
    return plan;
  }

  @Override
  public Srdag srdag() {
    return plan.srdag();
  }

  @Override
  public int cores() {
    return plan.schedule().coreCount();
  }

  @Override
  public int nodes() {
    return plan.platform().nodes();
  }

  @Override
  public int nodeOf(int core) {
    return plan.platform().nodeOf(core);
  }

  @Override
  public int coreOf(int vertex) {
    return plan.schedule().coreOf(vertex);
  }

  @Override
  public int[] order(int core) {
    return plan.schedule().order(core);
  }

  @Override
  public CodePreset strategy() {
    return preset;
  }

  @Override
  public CopyKind copyKind(int edge, long bytes, boolean crossing) {
    if (!followBuffers) {
      return ExecutionPlan.super.copyKind(edge, bytes, crossing);
    }
    BufferPlan buffer = plan.buffer(edge);
    return switch (buffer.strategy()) {
      case NTM -> CopyKind.NON_TEMPORAL;
      // writing around the caches only pays when another core reads: a same-core reader wants the data cached
      case PRESTORE -> buffer.prestore() == PrestoreKind.BYPASS && crossing ? CopyKind.SKIP : CopyKind.MEMCPY;
      default -> CopyKind.MEMCPY;
    };
  }

  @Override
  public PrestoreKind prestore(int edge, long bytes) {
    if (!followBuffers) {
      return ExecutionPlan.super.prestore(edge, bytes);
    }
    BufferPlan buffer = plan.buffer(edge);
    if (buffer.strategy() != org.cacheflow.plan.strategy.Strategy.PRESTORE
        && buffer.strategy() != org.cacheflow.plan.strategy.Strategy.CHANNEL) {
      return PrestoreKind.NONE;
    }
    // BYPASS on data an actor wrote itself: it cannot be written around the caches afterwards, so it is evicted (the
    // printers write CF_EVICT); a copy was already made with streaming stores
    return buffer.prestore() == PrestoreKind.BYPASS && buffer.origin() == org.cacheflow.plan.classify.BufferOrigin.COPY
        ? PrestoreKind.NONE : buffer.prestore();
  }

  @Override
  public int mergeRoot(int edge) {
    if (!preset.alias()) {
      return -1;
    }
    BufferPlan buffer = plan.buffer(edge);
    int root = buffer.mergeRoot();
    boolean aliased = root >= 0 && buffer.strategy() == org.cacheflow.plan.strategy.Strategy.ALIAS
        && plan.buffer(root).strategy() == org.cacheflow.plan.strategy.Strategy.ALIAS;
    return aliased && mergeOffset(edge) >= 0 && groupBytes(root) > 0 ? root : -1;
  }

  @Override
  public long mergeOffset(int edge) {
    return plan.classification().facts().mergeOffset(edge);
  }

  @Override
  public long[][] mergePieces(int edge) {
    return plan.classification().facts().mergePieces(edge);
  }

  @Override
  public List<org.cacheflow.plan.classify.ScriptCopy> scriptCopies(int vertex) {
    return plan.classification().facts().scriptCopies(vertex);
  }

  @Override
  public long groupBytes(int root) {
    return plan.classification().facts().groupBytes(root);
  }

  @Override
  public boolean copyOnWrite(int edge) {
    return followBuffers && plan.buffer(edge).strategy() == org.cacheflow.plan.strategy.Strategy.COW;
  }

  @Override
  public boolean channel(int edge) {
    return followBuffers && plan.buffer(edge).strategy() == org.cacheflow.plan.strategy.Strategy.CHANNEL;
  }

  @Override
  public long[] liveRange(int edge) {
    // presets with PREESM's plain copies (baseline, channels) copy every byte, as PREESM's code does
    if (!preset.alias()) {
      return ExecutionPlan.super.liveRange(edge);
    }
    return new long[] {plan.liveBytes().first(edge), plan.liveBytes().end(edge)};
  }

  @Override
  public int viewSource(int edge) {
    return copyOnWrite(edge) ? plan.viewSource(edge) : -1;
  }

  @Override
  public long viewOffset(int edge) {
    return plan.viewOffset(edge);
  }

  @Override
  public int slots(int edge) {
    // the plan's channels have the slots the user asked for (of() checks it was made with them)
    int slots = followBuffers ? plan.buffer(edge).slots() : 0;
    return slots > 0 ? slots : preset.slots();
  }

  @Override
  public int groupSlots(int root) {
    // the plan counts the slots the user asked for (of() checks it was made with them)
    return preset.barrier() ? ExecutionPlan.super.groupSlots(root) : plan.groupSlots(root);
  }

  @Override
  public String groupSlotsWhy(int root) {
    return preset.barrier() ? "" : DecisionText.groupSlots(plan.groupSlotsReason(root));
  }
}
