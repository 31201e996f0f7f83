package org.cacheflow.pipeline;

import java.util.List;
import java.util.OptionalInt;

import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * What {@code plan} and {@code generate} ask of the planner alike: how to map, which strategy, the user's per-FIFO
 * overrides, whether firings may run an iteration behind, and the slots when the user set them.
 *
 * @param policy how firings are mapped to cores
 * @param strategy the strategy preset (its planner mode plans)
 * @param overrides per-FIFO overrides
 * @param pipelining whether firings may run an iteration behind the rest of their core's loop
 * @param slots the slots of every channel and every merge group several cores use ({@code --override slots=K}), or
 *     empty for the plan's own
 */
record PlanChoices(MappingPolicy policy, StrategyPreset strategy, List<StrategyOverride> overrides,
    boolean pipelining, OptionalInt slots) {

  static PlanChoices of(PlanOptions options) {
    return new PlanChoices(options.policy(), options.strategy(), options.overrides(), options.pipelining(),
        optional(options.slots()));
  }

  /** Generate's: the planner pipelines only when the generated code has a second slot to pipeline with. */
  static PlanChoices of(GenerateOptions options) {
    return new PlanChoices(options.policy(), options.strategy(), options.overrides(), options.plannerPipelining(),
        optional(options.slots()));
  }

  private static OptionalInt optional(Integer slots) {
    return slots == null ? OptionalInt.empty() : OptionalInt.of(slots);
  }
}
