package org.cacheflow.codegen.build;

import java.util.List;

import org.cacheflow.analysis.srdag.Srdag;
import org.cacheflow.codegen.model.CopyKind;
import org.cacheflow.plan.classify.ScriptCopy;
import org.cacheflow.plan.strategy.PrestoreKind;

/**
 * A plan that answers every question as another plan does; a subclass overrides the answers it changes (a dispatched
 * schedule's one-core plan, tests that skew or renumber a plan).
 */
public abstract class DelegatingExecution implements ExecutionPlan {

  /** The plan asked. */
  protected final ExecutionPlan delegate;

  protected DelegatingExecution(ExecutionPlan delegate) {
    this.delegate = delegate;
  }

  @Override
  public Srdag srdag() {
    return delegate.srdag();
  }

  @Override
  public int cores() {
    return delegate.cores();
  }

  @Override
  public int nodes() {
    return delegate.nodes();
  }

  @Override
  public int nodeOf(int core) {
    return delegate.nodeOf(core);
  }

  @Override
  public int coreOf(int vertex) {
    return delegate.coreOf(vertex);
  }

  @Override
  public int[] order(int core) {
    return delegate.order(core);
  }

  @Override
  public CodePreset strategy() {
    return delegate.strategy();
  }

  @Override
  public int skew(int vertex) {
    return delegate.skew(vertex);
  }

  @Override
  public CopyKind copyKind(int edge, long bytes, boolean crossing) {
    return delegate.copyKind(edge, bytes, crossing);
  }

  @Override
  public PrestoreKind prestore(int edge, long bytes) {
    return delegate.prestore(edge, bytes);
  }

  @Override
  public int mergeRoot(int edge) {
    return delegate.mergeRoot(edge);
  }

  @Override
  public long mergeOffset(int edge) {
    return delegate.mergeOffset(edge);
  }

  @Override
  public long[][] mergePieces(int edge) {
    return delegate.mergePieces(edge);
  }

  @Override
  public long groupBytes(int root) {
    return delegate.groupBytes(root);
  }

  @Override
  public boolean copyOnWrite(int edge) {
    return delegate.copyOnWrite(edge);
  }

  @Override
  public int viewSource(int edge) {
    return delegate.viewSource(edge);
  }

  @Override
  public long viewOffset(int edge) {
    return delegate.viewOffset(edge);
  }

  @Override
  public List<ScriptCopy> scriptCopies(int vertex) {
    return delegate.scriptCopies(vertex);
  }

  @Override
  public long[] liveRange(int edge) {
    return delegate.liveRange(edge);
  }

  @Override
  public boolean channel(int edge) {
    return delegate.channel(edge);
  }

  @Override
  public int slots(int edge) {
    return delegate.slots(edge);
  }

  @Override
  public int groupSlots(int root) {
    return delegate.groupSlots(root);
  }

  @Override
  public String groupSlotsWhy(int root) {
    return delegate.groupSlotsWhy(root);
  }
}
