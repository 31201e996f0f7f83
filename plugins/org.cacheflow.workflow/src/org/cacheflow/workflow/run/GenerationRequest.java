package org.cacheflow.workflow.run;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.pipeline.ActorCodeOptions;
import org.cacheflow.pipeline.GenerateOptions;
import org.cacheflow.pipeline.Input;
import org.cacheflow.pipeline.OptionException;
import org.cacheflow.pipeline.PlatformOptions;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;

/**
 * One code generation, fully resolved from a workflow task and the settings change: {@link #options} gives it to
 * the pipeline.
 *
 * @param input a PREESM project directory, a PiSDF {@code .pi} graph or an SDF3 {@code .xml} graph
 * @param scenario the scenario file, or null (for a project: its first usable scenario)
 * @param strategy the memory strategy
 * @param cores the core count (of each node), or null for the architecture's (else one)
 * @param nodes the node count, or null for the architecture's (else one)
 * @param policy how firings are mapped to the cores (null: {@link MappingPolicy#LOAD_BALANCE})
 * @param target a built-in target name, or the absolute path of a target file
 * @param overrides per-FIFO overrides, {@code actor.port=STRATEGY}
 * @param syntheticActors whether actors get generated stand-in bodies
 * @param outputDirectory where the project is written (replaced)
 * @param actorCode the actors' sources, header folders, definitions and libraries, folders absolute; null fields
 *     leave them to {@code generate}'s defaults (the project's {@code Code/src}, {@code Code/include})
 * @param origins where each setting came from, by task parameter name (see {@link CodegenSettings#locations}),
 *     so that a generator can report a setting it rejects at its line; may be empty
 * @param schedule the run-time schedule (null: static)
 * @param profile a profile ({@code cacheflow profile}'s {@code profile.json}, absolute), or null for none
 */
public record GenerationRequest(Path input, Path scenario, StrategyPreset strategy, Integer cores, Integer nodes,
    MappingPolicy policy, String target, List<String> overrides, boolean syntheticActors, Path outputDirectory,
    ActorCode actorCode, Map<String, SourceLocation> origins, RunSchedule schedule, Path profile) {

  public GenerationRequest {
    policy = policy == null ? MappingPolicy.LOAD_BALANCE : policy;
    schedule = schedule == null ? RunSchedule.STATIC : schedule;
    actorCode = actorCode == null ? ActorCode.NONE : actorCode;
    Objects.requireNonNull(input);
    Objects.requireNonNull(strategy);
    Objects.requireNonNull(target);
    overrides = List.copyOf(overrides);
    Objects.requireNonNull(outputDirectory);
    origins = Map.copyOf(origins);
  }

  /** A request of the static schedule. */
  public GenerationRequest(Path input, Path scenario, StrategyPreset strategy, Integer cores, Integer nodes,
      MappingPolicy policy, String target, List<String> overrides, boolean syntheticActors, Path outputDirectory,
      ActorCode actorCode, Map<String, SourceLocation> origins) {
    this(input, scenario, strategy, cores, nodes, policy, target, overrides, syntheticActors, outputDirectory,
        actorCode, origins, null, null);
  }

  /** A request without a profile. */
  public GenerationRequest(Path input, Path scenario, StrategyPreset strategy, Integer cores, Integer nodes,
      MappingPolicy policy, String target, List<String> overrides, boolean syntheticActors, Path outputDirectory,
      ActorCode actorCode, Map<String, SourceLocation> origins, RunSchedule schedule) {
    this(input, scenario, strategy, cores, nodes, policy, target, overrides, syntheticActors, outputDirectory,
        actorCode, origins, schedule, null);
  }

  /** The same request writing elsewhere. */
  public GenerationRequest withOutputDirectory(Path value) {
    return new GenerationRequest(input, scenario, strategy, cores, nodes, policy, target, overrides, syntheticActors,
        value, actorCode, origins, schedule, profile);
  }

  /**
   * The pipeline's options for this request: the project loaded with the scenario, the actors' code completed from
   * the project's workflows where the request leaves it out (as the command line's {@code generate} does).
   *
   * @param runtime the runtime-c folder to bundle
   * @throws OptionException for an override that is not one
   */
  public GenerateOptions options(Path runtime) {
    ActorCodeOptions code = new ActorCodeOptions(actorCode.sources() == null ? null : Path.of(actorCode.sources()),
        orEmpty(actorCode.includes()).stream().map(Path::of).toList(), orEmpty(actorCode.definitions()),
        orEmpty(actorCode.libraries()));
    return GenerateOptions.of(new Input(input, scenario, Map.of()).withProfile(profile), outputDirectory, runtime)
        .withStrategy(strategy)
        .withPlatform(new PlatformOptions(nodes,
            cores)).withPolicy(policy).withTarget(target).withOverrideTexts(overrides)
        .withSyntheticActors(syntheticActors).withActorCode(code, ProjectActorCode.defaults()).withSchedule(schedule);
  }

  private static List<String> orEmpty(List<String> list) {
    return list == null ? List.of() : list;
  }

  /** Where {@code parameter}'s value came from, else where the task is, else null. */
  public SourceLocation origin(String parameter) {
    return origins.getOrDefault(parameter, origins.get(CodegenSettings.TASK));
  }

  /** The task parameter of each option a pipeline's {@link OptionException} may name. */
  private static final Map<String, String> PARAMETERS = Map.of(OptionException.OVERRIDE, CodegenTask.OVERRIDES,
      OptionException.CORES, CodegenTask.CORES, OptionException.NODES, CodegenTask.NODES, OptionException.SCHEDULE,
      CodegenTask.SCHEDULE, OptionException.VARIABLE, CodegenTask.VARIABLE_ACTORS, OptionException.COST_SPREAD,
      CodegenTask.COST_SPREAD);

  /**
   * Where the setting {@code error} rejects came from: the task parameter of the option it names (its line), else
   * the task.
   */
  public SourceLocation origin(OptionException error) {
    return origin(parameterOf(error));
  }

  /** The task parameter of the option {@code error} names ({@code Cores} for {@code --cores}), else the task's key. */
  static String parameterOf(OptionException error) {
    String option = error.option();
    return option == null ? CodegenSettings.TASK : PARAMETERS.getOrDefault(option, CodegenSettings.TASK);
  }

  /**
   * {@code error}'s message as a workflow author reads it: a leading command-line option ({@code --cores must be
   * ...}) becomes its task parameter ({@code 'Cores' must be ...}); other messages unchanged.
   */
  static String describedForTask(OptionException error) {
    String message = error.getMessage();
    String parameter = parameterOf(error);
    String option = error.option();
    if (option == null || parameter.equals(CodegenSettings.TASK) || !message.startsWith(option + " ")) {
      return message;
    }
    return "'" + parameter + "' " + message.substring(option.length() + 1);
  }
}
