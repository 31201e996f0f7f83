package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * @param pipelining whether firings may run an iteration behind the rest of their core's loop when that shortens the
 *     period (software pipelining; {@code --override pipelining=off})
 * @param slots the slots of every channel and of every merge group several cores use ({@code --override slots=K},
 *     as generate gives them), or null for the plan's own: the plan's memory and line costs count them
 */
public record PlanOptions(Input input, PlatformOptions platform, StrategyPreset strategy, MappingPolicy policy,
    List<StrategyOverride> overrides, String target, Path reportDirectory, boolean pipelining, Integer slots) {

  /** The override that sets {@link #pipelining}: {@code pipelining=on} or {@code pipelining=off}. */
  public static final String PIPELINING_KEY = "pipelining=";

  public PlanOptions {
    Objects.requireNonNull(input);
    platform = platform == null ? PlatformOptions.ARCHITECTURE : platform;
    strategy = strategy == null ? StrategyPreset.DEFAULT : strategy;
    policy = policy == null ? MappingPolicy.LOAD_BALANCE : policy;
    overrides = List.copyOf(overrides);
    target = target == null ? GenerateOptions.DEFAULT_TARGET : target;
    if (slots != null && slots < 1) {
      throw new OptionException(OptionException.OVERRIDE, "--override slots=K needs a positive integer, got " + slots);
    }
  }

  /** The plan's own slots. */
  public PlanOptions(Input input, PlatformOptions platform, StrategyPreset strategy, MappingPolicy policy,
      List<StrategyOverride> overrides, String target, Path reportDirectory, boolean pipelining) {
    this(input, platform, strategy, policy, overrides, target, reportDirectory, pipelining, null);
  }

  /** Pipelining as the planner decides. */
  public PlanOptions(Input input, PlatformOptions platform, StrategyPreset strategy, MappingPolicy policy,
      List<StrategyOverride> overrides, String target, Path reportDirectory) {
    this(input, platform, strategy, policy, overrides, target, reportDirectory, true);
  }

  /** The defaults (auto, load balance, zen4-vm, the architecture's platform, no report) for {@code input}. */
  public static PlanOptions of(Input input) {
    return new PlanOptions(input, null, null, null, List.of(), null, null);
  }

  /**
   * With the overrides as users write them for {@code generate} ({@code --override}, a workflow task's Overrides):
   * {@code pipelining=on|off} sets {@link #pipelining}, {@code slots=K} sets {@link #slots} (one slot turns pipelining
   * off, as it does in generate: no second copy), any other is a per-FIFO override added to those given;
   * {@link OptionException} for a bad one.
   */
  public PlanOptions withOverrideTexts(List<String> texts) {
    OverrideTexts parsed = OverrideTexts.parse(texts);
    List<StrategyOverride> fifos = new ArrayList<>(overrides);
    fifos.addAll(parsed.fifos());
    return new PlanOptions(input, platform, strategy, policy, fifos, target, reportDirectory,
        parsed.pipelines(pipelining, strategy), parsed.slots() != null ? parsed.slots() : slots);
  }

  /** Whether an {@code --override} text sets pipelining ({@code pipelining=...}) rather than naming a FIFO. */
  public static boolean isPipelining(String override) {
    return override.trim().startsWith(PIPELINING_KEY);
  }

  /**
   * The value of a {@code pipelining=on|off} override.
   *
   * @throws OptionException for another value
   */
  public static boolean pipelining(String override) {
    String value = override.trim().substring(PIPELINING_KEY.length()).trim().toLowerCase(Locale.ROOT);
    return switch (value) {
      case "on" -> true;
      case "off" -> false;
      default -> throw new OptionException(OptionException.OVERRIDE, "--override pipelining=on|off, got '" + value
          + "'");
    };
  }
}
