package org.cacheflow.codegen;

import org.cacheflow.codegen.build.DelegatingExecution;
import org.cacheflow.codegen.build.PlannedExecution;

/** A plan that answers as the planner's, for tests that change one of its answers by overriding it. */
abstract class DelegatingPlan extends DelegatingExecution {

  final PlannedExecution plan;

  DelegatingPlan(PlannedExecution plan) {
    super(plan);
    this.plan = plan;
  }

  // the tests built on this plan count flags with the strategy's group slots, not the planner's (spanning the L2)
  @Override
  public int groupSlots(int root) {
    return strategy().barrier() ? 1 : Math.max(1, strategy().slots());
  }

  @Override
  public String groupSlotsWhy(int root) {
    return "";
  }
}
