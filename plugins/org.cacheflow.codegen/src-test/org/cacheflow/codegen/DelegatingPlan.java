package org.cacheflow.codegen;

import java.util.List;

import org.cacheflow.codegen.build.ExecutionPlan;
import org.cacheflow.codegen.build.PlannedExecution;
import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.analysis.srdag.Srdag;

/** A plan that answers as the planner's, for tests that change one of its answers by overriding it. */
abstract class DelegatingPlan implements ExecutionPlan {

  final PlannedExecution plan;

  DelegatingPlan(PlannedExecution plan) {
    this.plan = plan;
  }

  @Override
  public int nodes() {
    return plan.nodes();
  }

  @Override
  public int nodeOf(int core) {
    return plan.nodeOf(core);
  }

  @Override
  public int skew(int vertex) {
    return plan.skew(vertex);
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
  public CodePreset strategy() {
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
  public List<org.cacheflow.plan.classify.ScriptCopy> scriptCopies(int vertex) {
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
