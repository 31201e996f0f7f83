package org.cacheflow.codegen;

import java.util.function.IntUnaryOperator;

import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.Strategy;
import org.cacheflow.analysis.srdag.Srdag;

/**
 * A plan whose cores are grouped into nodes otherwise than the planner grouped them: to put sinks on other nodes
 * than node 0, or to hand the code generator a plan that needs shared memory between nodes (which it must refuse).
 */
final class RenumberedNodes implements ExecutionPlan {

  private final PlannedExecution plan;
  private final int nodes;
  private final IntUnaryOperator nodeOfCore;

  /** The plan with {@code nodes} nodes, core c on node {@code nodeOfCore(c)}. */
  RenumberedNodes(PlannedExecution plan, int nodes, IntUnaryOperator nodeOfCore) {
    this.plan = plan;
    this.nodes = nodes;
    this.nodeOfCore = nodeOfCore;
  }

  /** The plan with its nodes numbered backwards. */
  static RenumberedNodes reversed(PlannedExecution plan) {
    return new RenumberedNodes(plan, plan.nodes(), core -> plan.nodes() - 1 - plan.nodeOf(core));
  }

  @Override
  public int nodes() {
    return nodes;
  }

  @Override
  public int nodeOf(int core) {
    return nodeOfCore.applyAsInt(core);
  }

  @Override
  public Srdag srdag() {
    return plan.srdag();
  }

  @Override
  public int cores() {
    return plan.cores();
  }

  @Override
  public int coreOf(int vertex) {
    return plan.coreOf(vertex);
  }

  @Override
  public int[] order(int core) {
    return plan.order(core);
  }

  @Override
  public Strategy strategy() {
    return plan.strategy();
  }

  @Override
  public org.cacheflow.codegen.model.CopyKind copyKind(int edge, long bytes, boolean crossing) {
    return plan.copyKind(edge, bytes, crossing);
  }

  @Override
  public org.cacheflow.plan.strategy.PrestoreKind prestore(int edge, long bytes) {
    return plan.prestore(edge, bytes);
  }

  @Override
  public int mergeRoot(int edge) {
    return plan.mergeRoot(edge);
  }

  @Override
  public long mergeOffset(int edge) {
    return plan.mergeOffset(edge);
  }

  @Override
  public long[][] mergePieces(int edge) {
    return plan.mergePieces(edge);
  }

  @Override
  public long groupBytes(int root) {
    return plan.groupBytes(root);
  }

  @Override
  public boolean copyOnWrite(int edge) {
    return plan.copyOnWrite(edge);
  }

  @Override
  public int viewSource(int edge) {
    return plan.viewSource(edge);
  }

  @Override
  public long viewOffset(int edge) {
    return plan.viewOffset(edge);
  }

  @Override
  public java.util.List<org.cacheflow.plan.classify.ScriptCopy> scriptCopies(int vertex) {
    return plan.scriptCopies(vertex);
  }

  @Override
  public long[] liveRange(int edge) {
    return plan.liveRange(edge);
  }

  @Override
  public boolean channel(int edge) {
    return plan.channel(edge);
  }

  @Override
  public int slots(int edge) {
    return plan.slots(edge);
  }
}
