package org.cacheflow.codegen;

import java.util.function.IntUnaryOperator;

import org.cacheflow.codegen.build.PlannedExecution;

/**
 * A plan whose cores are grouped into nodes otherwise than the planner grouped them: to put sinks on other nodes
 * than node 0, or to hand the code generator a plan that needs shared memory between nodes (which it must refuse).
 */
final class RenumberedNodes extends DelegatingPlan {

  private final int nodes;
  private final IntUnaryOperator nodeOfCore;

  /** The plan with {@code nodes} nodes, core c on node {@code nodeOfCore(c)}. */
  RenumberedNodes(PlannedExecution plan, int nodes, IntUnaryOperator nodeOfCore) {
    super(plan);
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
}
