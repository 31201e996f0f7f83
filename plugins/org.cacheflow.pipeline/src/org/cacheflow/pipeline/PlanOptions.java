package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * One memory plan, without generating code.
 *
 * @param input the graph or project to load
 * @param platform {@code --nodes}/{@code --cores}, or {@link PlatformOptions#ARCHITECTURE}
 * @param strategy the strategy preset (a planner mode: {@link StrategyPreset#plannerModes()})
 * @param policy the mapping policy
 * @param overrides per-FIFO overrides
 * @param target a built-in target name or a target file
 * @param reportDirectory where to write plan.json, plan.md, graph.dot/svg, gantt.svg; null for none
 */
public record PlanOptions(Input input, PlatformOptions platform, StrategyPreset strategy, MappingPolicy policy,
    List<StrategyOverride> overrides, String target, Path reportDirectory) {

  public PlanOptions {
    Objects.requireNonNull(input);
    platform = platform == null ? PlatformOptions.ARCHITECTURE : platform;
    strategy = strategy == null ? StrategyPreset.DEFAULT : strategy;
    policy = policy == null ? MappingPolicy.LOAD_BALANCE : policy;
    overrides = List.copyOf(overrides);
    target = target == null ? GenerateOptions.DEFAULT_TARGET : target;
  }

  /** The defaults (auto, load balance, zen4-vm, the architecture's platform, no report) for {@code input}. */
  public static PlanOptions of(Input input) {
    return new PlanOptions(input, null, null, null, List.of(), null, null);
  }
}
