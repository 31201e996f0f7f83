package org.cacheflow.pipeline;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import org.cacheflow.codegen.build.CodePreset;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyOverride;
import org.cacheflow.plan.strategy.StrategyPreset;

/**
 * One generation of a C project: what to load, for which platform, with which strategy, where to write.
 *
 * @param input the graph or project to load
 * @param platform {@code --nodes}/{@code --cores}, or {@link PlatformOptions#ARCHITECTURE}
 * @param strategy the strategy preset
 * @param slots rdy-ack channel slots every channel and every merge group several cores use gets
 *     ({@code --override slots=K}), or null for the plan's
 * @param overrides per-FIFO overrides of the memory plan
 * @param target a built-in target name or a target file
 * @param syntheticActors whether actors get generated stand-in bodies
 * @param actorCode the actors' code, as given
 * @param projectDefaults what a project's own settings add to {@code actorCode} (e.g. its workflows'), or null
 * @param outputDirectory the folder written (replaced once generation succeeded)
 * @param runtime the runtime-c folder bundled into the output
 * @param pipelining whether the planner may run firings an iteration behind the rest of their core's loop
 *     ({@code --override pipelining=off} turns it off; it is off with {@code slots=1}, which leaves no second copy)
 * @param policy how firings are mapped to cores ({@code --policy}; null: {@link MappingPolicy#LOAD_BALANCE})
 * @param schedule static orders per core, or firings placed at run time ({@code --schedule}, {@code --variable};
 *     null: {@link RunSchedule#STATIC})
 */
public record GenerateOptions(Input input, PlatformOptions platform, StrategyPreset strategy, Integer slots,
    List<StrategyOverride> overrides, String target, boolean syntheticActors, ActorCodeOptions actorCode,
    ActorCodeDefaults projectDefaults, Path outputDirectory, Path runtime, boolean pipelining, MappingPolicy policy,
    RunSchedule schedule) {

  /** The target without one given: the machine this project is developed on. */
  public static final String DEFAULT_TARGET = "zen4-vm";

  /** What a project's own settings say about the actors' code (the workflow bundle reads its workflows). */
  @FunctionalInterface
  public interface ActorCodeDefaults {
    /**
     * @param projectRoot the project of the loaded graph (never null)
     * @param given what the caller gave; the result keeps it and fills what it leaves out
     * @param listener told why (notes) and of conflicts (warnings)
     */
    ActorCodeOptions complete(Path projectRoot, ActorCodeOptions given, PipelineListener listener);
  }

  public GenerateOptions {
    Objects.requireNonNull(input);
    platform = platform == null ? PlatformOptions.ARCHITECTURE : platform;
    strategy = strategy == null ? StrategyPreset.DEFAULT : strategy;
    overrides = List.copyOf(overrides);
    target = target == null ? DEFAULT_TARGET : target;
    actorCode = actorCode == null ? ActorCodeOptions.DEFAULTS : actorCode;
    Objects.requireNonNull(outputDirectory);
    policy = policy == null ? MappingPolicy.LOAD_BALANCE : policy;
    schedule = schedule == null ? RunSchedule.STATIC : schedule;
  }

  /** The defaults (auto, the architecture's platform, zen4-vm) for {@code input} into {@code outputDirectory}. */
  public static GenerateOptions of(Input input, Path outputDirectory, Path runtime) {
    return new GenerateOptions(input, PlatformOptions.ARCHITECTURE, StrategyPreset.DEFAULT, null, List.of(), null,
        false, ActorCodeOptions.DEFAULTS, null, outputDirectory, runtime, true, MappingPolicy.LOAD_BALANCE,
        RunSchedule.STATIC);
  }

  public GenerateOptions withPlatform(PlatformOptions value) {
    return new GenerateOptions(input, value, strategy, slots, overrides, target, syntheticActors, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, policy, schedule);
  }

  public GenerateOptions withStrategy(StrategyPreset value) {
    return new GenerateOptions(input, platform, value, slots, overrides, target, syntheticActors, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, policy, schedule);
  }

  public GenerateOptions withTarget(String value) {
    return new GenerateOptions(input, platform, strategy, slots, overrides, value, syntheticActors, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, policy, schedule);
  }

  public GenerateOptions withPolicy(MappingPolicy value) {
    return new GenerateOptions(input, platform, strategy, slots, overrides, target, syntheticActors, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, value, schedule);
  }

  public GenerateOptions withSchedule(RunSchedule value) {
    return new GenerateOptions(input, platform, strategy, slots, overrides, target, syntheticActors, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, policy, value);
  }

  public GenerateOptions withSyntheticActors(boolean value) {
    return new GenerateOptions(input, platform, strategy, slots, overrides, target, value, actorCode,
        projectDefaults, outputDirectory, runtime, pipelining, policy, schedule);
  }

  public GenerateOptions withActorCode(ActorCodeOptions value, ActorCodeDefaults defaults) {
    return new GenerateOptions(input, platform, strategy, slots, overrides, target, syntheticActors, value, defaults,
        outputDirectory, runtime, pipelining, policy, schedule);
  }

  /**
   * With the overrides as users write them ({@code --override}): {@code slots=K} sets the channel slots,
   * {@code pipelining=on|off} the planner's software pipelining, any other is a per-FIFO override ({@code
   * 'Read.frame=ntm'}); {@link OptionException} for a bad one.
   */
  public GenerateOptions withOverrideTexts(List<String> texts) {
    OverrideTexts parsed = OverrideTexts.parse(texts);
    List<StrategyOverride> fifos = new ArrayList<>(overrides);
    fifos.addAll(parsed.fifos());
    return new GenerateOptions(input, platform, strategy, parsed.slots() != null ? parsed.slots() : slots, fifos,
        target, syntheticActors, actorCode, projectDefaults, outputDirectory, runtime,
        parsed.pipelining() != null ? parsed.pipelining() : pipelining, policy, schedule);
  }

  /** The generated code's strategy: the preset with {@link #slots} when given, else the preset's own slots. */
  public CodePreset codePreset() {
    CodePreset of = CodePreset.of(strategy);
    return slots == null ? of : of.withSlots(slots);
  }

  /**
   * Whether the planner may pipeline: {@link #pipelining} with {@link #codePreset()}'s slots, by the rule plan
   * shares (never with one slot, e.g. {@code slots=1} or a barrier preset).
   */
  public boolean plannerPipelining() {
    return OverrideTexts.pipelines(pipelining, codePreset().slots());
  }

  /**
   * Checks one override as users write it ({@code slots=K}, {@code pipelining=on|off} or a per-FIFO override);
   * {@link OptionException} says what is wrong.
   */
  public static void checkOverrideText(String text) {
    OverrideTexts.parse(List.of(text));
  }

  /**
   * Whether an override as users write it sets the whole program ({@code slots=K}, {@code pipelining=on|off}) rather
   * than naming a FIFO.
   */
  public static boolean isSettingText(String text) {
    return OverrideTexts.isSetting(text);
  }
}
