package org.cacheflow.plan.memoryplan;

import java.util.List;

import org.cacheflow.analysis.ProgressListener;
import org.cacheflow.plan.classify.MemoryFacts;
import org.cacheflow.plan.mapping.MappingInputs;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.GlobalStrategy;
import org.cacheflow.plan.strategy.MeasuredRereads;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.TargetCache;

/**
 * What to plan for.
 *
 * @param inputs the platform, execution times and mapping constraints
 * @param policy the mapping policy
 * @param target the cache hierarchy and its measured break-even sizes
 * @param strategy the plan-wide strategy
 * @param overrides per-FIFO overrides, later ones winning
 * @param facts memory-script merges and marks; null for the merges of the special actors' default scripts
 *     ({@link MemoryPlanner#defaultFacts})
 * @param progress told how planning advances; may be null
 * @param pipelining whether firings may run an iteration behind the rest of their core's loop when that shortens
 *     the period (software pipelining, {@link org.cacheflow.plan.schedule.Pipelining}); default true
 * @param slots the slots of every rdy-ack channel and of every merge group several cores use, as the user asked
 *     ({@code --override slots=K}, which generated code follows), or 0 for the plan's own ({@link
 *     org.cacheflow.plan.strategy.GroupSlots}, the strategy's channel slots); the plan's memory and line costs count
 *     them
 * @param rereads re-read distances a profile measured ({@link MeasuredRereads#NONE} without one): where they show a
 *     buffer re-read soon by its writer, it is not pre-stored
 */
public record PlanRequest(MappingInputs inputs, MappingPolicy policy, TargetCache target, GlobalStrategy strategy,
    List<StrategyOverride> overrides, MemoryFacts facts, ProgressListener progress, boolean pipelining, int slots,
    MeasuredRereads rereads) {

  public PlanRequest {
    rereads = rereads == null ? MeasuredRereads.NONE : rereads;
    overrides = List.copyOf(overrides);
    if (slots < 0) {
      throw new IllegalArgumentException("negative slots: " + slots);
    }
  }

  /** Defaults: load-balancing mapping, {@code auto}, no overrides, the special actors' merges. */
  public static PlanRequest of(MappingInputs inputs, TargetCache target) {
    return new PlanRequest(inputs, MappingPolicy.LOAD_BALANCE, target, GlobalStrategy.AUTO, List.of(), null, null,
        true, 0, MeasuredRereads.NONE);
  }

  public PlanRequest withPolicy(MappingPolicy value) {
    return new PlanRequest(inputs, value, target, strategy, overrides, facts, progress, pipelining, slots, rereads);
  }

  public PlanRequest withStrategy(GlobalStrategy value) {
    return new PlanRequest(inputs, policy, target, value, overrides, facts, progress, pipelining, slots, rereads);
  }

  public PlanRequest withOverrides(List<StrategyOverride> value) {
    return new PlanRequest(inputs, policy, target, strategy, value, facts, progress, pipelining, slots, rereads);
  }

  public PlanRequest withFacts(MemoryFacts value) {
    return new PlanRequest(inputs, policy, target, strategy, overrides, value, progress, pipelining, slots, rereads);
  }

  public PlanRequest withPipelining(boolean value) {
    return new PlanRequest(inputs, policy, target, strategy, overrides, facts, progress, value, slots, rereads);
  }

  /** With the slots the user asked for ({@code slots=K}); 0 for the plan's own. */
  public PlanRequest withSlots(int value) {
    return new PlanRequest(inputs, policy, target, strategy, overrides, facts, progress, pipelining, value, rereads);
  }

  /** With the re-read distances a profile measured. */
  public PlanRequest withRereads(MeasuredRereads value) {
    return new PlanRequest(inputs, policy, target, strategy, overrides, facts, progress, pipelining, slots, value);
  }

  public PlanRequest withProgress(ProgressListener value) {
    return new PlanRequest(inputs, policy, target, strategy, overrides, facts, value, pipelining, slots, rereads);
  }
}
