package org.cacheflow.workflow.run;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import org.apache.commons.text.similarity.LevenshteinDistance;
import org.cacheflow.model.TaskVariable;
import org.cacheflow.model.WorkflowTask;
import org.cacheflow.model.diagnostics.InputException;
import org.cacheflow.model.diagnostics.SourceLocation;
import org.cacheflow.plan.mapping.MappingPolicy;
import org.cacheflow.plan.schedule.RunSchedule;
import org.cacheflow.plan.strategy.StrategyPreset;
import org.cacheflow.workflow.CodegenTask;
import org.cacheflow.workflow.descriptor.TaskParameter;

/**
 * The settings of one cacheflow task, validated against {@link CodegenTask#DESCRIPTOR}: every variable must be a
 * declared parameter with an accepted value; missing or blank ones take their defaults.
 *
 * @param strategy the memory strategy
 * @param cores the core count (of each node), or null for the architecture's
 * @param nodes the node count, or null for the architecture's
 * @param policy how firings are mapped to the cores
 * @param target a built-in target name or a target file path as written (resolved against the project later)
 * @param overrides per-FIFO overrides, {@code actor.port=STRATEGY} each
 * @param syntheticActors whether actors get generated stand-in bodies
 * @param outputDirectory the output directory as written, or null for the scenario's
 * @param actorCode the actors' sources, header folders, definitions and libraries as written (null fields: defaults)
 * @param schedule the run-time schedule, with the variable actors and cost spreads
 * @param profile the profile file as written ({@code cacheflow profile}'s {@code profile.json}), or null for none
 * @param locations where each setting was written, by parameter name, plus {@link #TASK} for the task itself;
 *     settings left at their default point at the task
 */
public record CodegenSettings(StrategyPreset strategy, Integer cores, Integer nodes, MappingPolicy policy,
    String target, List<String> overrides, boolean syntheticActors, String outputDirectory, ActorCode actorCode,
    RunSchedule schedule, String profile, Map<String, SourceLocation> locations) {

  /** The key of {@link #locations} for the task element. */
  public static final String TASK = "";

  public CodegenSettings {
    Objects.requireNonNull(strategy);
    Objects.requireNonNull(policy);
    Objects.requireNonNull(target);
    Objects.requireNonNull(schedule);
    overrides = List.copyOf(overrides);
    actorCode = actorCode == null ? ActorCode.NONE : actorCode;
    locations = Map.copyOf(locations);
  }

  /** Every parameter at its default, located at {@code taskLocation}. */
  public static CodegenSettings defaults(SourceLocation taskLocation) {
    return fromValues(Map.of(), taskLocation, Map.of());
  }

  /** Where {@code parameter} was written, else the task. */
  public SourceLocation location(String parameter) {
    return locations.getOrDefault(parameter, locations.get(TASK));
  }

  /**
   * Every problem of the task's variables, in document order: unknown names (with the closest known one) and
   * unaccepted values. Empty when the task is fine. For editors; runs use {@link #read}.
   */
  public static List<Problem> problems(WorkflowTask task) {
    List<Problem> problems = new ArrayList<>();
    for (TaskVariable variable : task.getVariables()) {
      SourceLocation at = location(variable.getFile(), variable.getLine(), variable.getColumn());
      Optional<TaskParameter> parameter = CodegenTask.DESCRIPTOR.parameter(variable.getName());
      if (parameter.isEmpty()) {
        problems.add(new Problem(at, "unknown variable '" + variable.getName() + "' of cacheflow task '"
            + task.getName() + "'" + suggestion(variable.getName())));
        continue;
      }
      parameter.get().problem(variable.getValue()).ifPresent(message -> problems.add(new Problem(at, message)));
    }
    return problems;
  }

  /**
   * The task's settings.
   *
   * @throws InputException at the first problem ({@link #problems}), naming how many more there are
   */
  public static CodegenSettings read(WorkflowTask task) {
    List<Problem> problems = problems(task);
    if (!problems.isEmpty()) {
      Problem first = problems.get(0);
      String more = problems.size() == 1 ? "" : " (and " + (problems.size() - 1) + " more problem"
          + (problems.size() == 2 ? "" : "s") + " in this task: " + String.join("; ", problems.subList(1,
              problems.size()).stream().map(Problem::toString).toList()) + ")";
      throw new InputException(first.location(), first.message() + more);
    }
    Map<String, String> values = new LinkedHashMap<>();
    Map<String, SourceLocation> locations = new LinkedHashMap<>();
    for (TaskVariable variable : task.getVariables()) {
      if (variable.getValue() != null && !variable.getValue().isBlank()) {
        values.put(variable.getName(), variable.getValue().trim());
        locations.put(variable.getName(), location(variable.getFile(), variable.getLine(), variable.getColumn()));
      }
    }
    return fromValues(values, location(task.getFile(), task.getLine(), task.getColumn()), locations);
  }

  private static CodegenSettings fromValues(Map<String, String> values, SourceLocation taskLocation,
      Map<String, SourceLocation> variableLocations) {
    Map<String, SourceLocation> locations = new LinkedHashMap<>(variableLocations);
    locations.put(TASK, taskLocation);
    StrategyPreset strategy = CodegenTask.strategy(value(values, CodegenTask.MEMORY_STRATEGY)).orElseThrow();
    String cores = value(values, CodegenTask.CORES);
    String nodes = value(values, CodegenTask.NODES);
    String synthetic = value(values, CodegenTask.SYNTHETIC_ACTORS);
    String output = value(values, CodegenTask.OUTPUT_DIRECTORY);
    String profile = value(values, CodegenTask.PROFILE);
    String sources = value(values, CodegenTask.ACTOR_SOURCES);
    ActorCode actorCode = new ActorCode(sources.isEmpty() ? null : sources,
        given(values, CodegenTask.INCLUDE_DIRECTORIES), given(values, CodegenTask.COMPILE_DEFINITIONS),
        given(values, CodegenTask.LIBRARIES));
    return new CodegenSettings(strategy, cores.isEmpty() ? null : Integer.valueOf(cores),
        nodes.isEmpty() ? null : Integer.valueOf(nodes),
        MappingPolicy.parse(value(values, CodegenTask.MAPPING_POLICY)).orElseThrow(),
        value(values, CodegenTask.TARGET), CodegenTask.overrideEntries(value(values, CodegenTask.OVERRIDES)),
        synthetic.toLowerCase(Locale.ROOT).equals("true"), output.isEmpty() ? null : output, actorCode,
        new RunSchedule(RunSchedule.Kind.parse(value(values, CodegenTask.SCHEDULE)).orElseThrow(),
            CodegenTask.entries(value(values, CodegenTask.VARIABLE_ACTORS)),
            CodegenTask.spreads(value(values, CodegenTask.COST_SPREAD))), profile.isEmpty() ? null : profile,
        locations);
  }

  /** The entries of a list parameter, or null when it was not given. */
  private static List<String> given(Map<String, String> values, String parameter) {
    String value = values.get(parameter);
    return value == null ? null : CodegenTask.entries(value);
  }

  /** The value given, else the parameter's default value. */
  private static String value(Map<String, String> values, String parameter) {
    String given = values.get(parameter);
    return given != null ? given : CodegenTask.DESCRIPTOR.parameter(parameter).orElseThrow().defaultValue();
  }

  /**
   * These settings with what a command line or a build says instead; null fields of {@code change} keep ours. A
   * parameter the change gives is no longer located in the workflow (its value, and any error about it, is the
   * change's).
   */
  public CodegenSettings with(SettingsChange change) {
    Map<String, SourceLocation> written = new LinkedHashMap<>(locations);
    written.keySet().removeIf(change::gives);
    return new CodegenSettings(change.strategy() != null ? change.strategy() : strategy,
        change.cores() != null ? change.cores() : cores, change.nodes() != null ? change.nodes() : nodes,
        change.policy() != null ? change.policy() : policy, change.target() != null ? change.target() : target,
        change.overrides() != null ? change.overrides() : overrides,
        change.syntheticActors() != null ? change.syntheticActors() : syntheticActors, outputDirectory,
        actorCode.with(change.actorCode()), new RunSchedule(change.schedule() != null ? change.schedule()
            : schedule.kind(), change.variable() != null ? change.variable() : schedule.variable(),
            change.spread() != null ? change.spread() : schedule.spread()),
        change.profile() != null ? change.profile().toString() : profile, written);
  }

  private static String suggestion(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (TaskParameter parameter : CodegenTask.DESCRIPTOR.parameters()) {
      int distance = LevenshteinDistance.getDefaultInstance().apply(name.toLowerCase(Locale.ROOT).replace(" ", ""),
          parameter.name().toLowerCase(Locale.ROOT).replace(" ", ""));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = parameter.name();
      }
    }
    boolean close = best != null && bestDistance <= Math.max(2, name.length() / 2);
    return (close ? "; did you mean '" + best + "'?" : "") + " (known: " + String.join(", ",
        CodegenTask.DESCRIPTOR.parameters().stream().map(TaskParameter::name).toList()) + ")";
  }

  private static SourceLocation location(String file, int line, int column) {
    return new SourceLocation(file == null ? "<unknown>" : file, line, column);
  }
}
